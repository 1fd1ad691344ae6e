/**
 * Cost-vs-quality quadrants. x is a resource per complete trial (cost, tokens or API time: lower is
 * better), y is mean one-attempt success (higher is better). Both axes are split at the median of the
 * placed points; a point exactly on a median counts as cheap (x) and as good (y), so a single point or
 * a set of equal points lands in best_value rather than in an arbitrary corner.
 */
export const QUADRANTS = ['best_value', 'premium', 'economy', 'poor_value'] as const;
export type Quadrant = (typeof QUADRANTS)[number];

export const QUADRANT_LABELS: Record<Quadrant, string> = {
  best_value: 'Cheaper and better',
  premium: 'Costlier and better',
  economy: 'Cheaper and worse',
  poor_value: 'Costlier and worse',
};

export interface QuadrantPointInput {
  /** Unknown resource or no valid attempts: the point cannot be placed. Never treated as 0. */
  x: number | null;
  y: number | null;
}

export interface QuadrantResult<P extends QuadrantPointInput> {
  medianX: number | null;
  medianY: number | null;
  placed: (P & { x: number; y: number; quadrant: Quadrant })[];
  unplaced: P[];
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function quadrantOf(x: number, y: number, medianX: number, medianY: number): Quadrant {
  const cheap = x <= medianX;
  const good = y >= medianY;
  if (good) return cheap ? 'best_value' : 'premium';
  return cheap ? 'economy' : 'poor_value';
}

export function assignQuadrants<P extends QuadrantPointInput>(points: readonly P[]): QuadrantResult<P> {
  const isPlaced = (p: P): p is P & { x: number; y: number } =>
    p.x !== null && p.y !== null && Number.isFinite(p.x) && Number.isFinite(p.y);
  const placeable = points.filter(isPlaced);
  const unplaced = points.filter((p) => !isPlaced(p));
  const medianX = median(placeable.map((p) => p.x));
  const medianY = median(placeable.map((p) => p.y));
  const placed =
    medianX === null || medianY === null
      ? []
      : placeable.map((p) => ({ ...p, quadrant: quadrantOf(p.x, p.y, medianX, medianY) }));
  return { medianX, medianY, placed, unplaced };
}

export const AXIS_SCALES = ['auto', 'linear', 'log'] as const;
export type AxisScale = (typeof AXIS_SCALES)[number];

/** At this ratio of the largest to the smallest value, a linear axis piles the cheap points on the left edge. */
export const LOG_SCALE_SPAN = 100;

/**
 * The x scale to draw: `log` when asked or, under `auto`, when the values span at least LOG_SCALE_SPAN;
 * never log when a value is 0 or below (a log axis cannot place it, and an unplaceable point must not
 * vanish silently).
 */
export function xScaleOf(
  values: readonly number[],
  requested: AxisScale,
): { scale: 'linear' | 'log'; logImpossible: boolean } {
  const logImpossible = values.length === 0 || values.some((v) => !(v > 0));
  if (logImpossible || requested === 'linear') return { scale: 'linear', logImpossible };
  if (requested === 'log') return { scale: 'log', logImpossible };
  const span = Math.max(...values) / Math.min(...values);
  return { scale: span >= LOG_SCALE_SPAN ? 'log' : 'linear', logImpossible };
}

/** Tick mantissas: 1-2-5 by default, whole decades when those are too many, finer steps for a narrow span. */
const DECADES = [1];
const ONE_TWO_FIVE = [1, 2, 5];
const FINER: readonly (readonly number[])[] = [
  [1, 1.5, 2, 3, 5, 7],
  [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8],
];
/** Fewer ticks than this cannot be read as a log axis (two labels say nothing of the scale between). */
const MIN_LOG_TICKS = 4;
const MAX_LOG_TICKS = 10;

/** Round ticks from `steps` × 10^k, from the last one at or below `min` to the first at or above `max`. */
function ticksBetween(min: number, max: number, steps: readonly number[]): number[] {
  const candidates: number[] = [];
  for (let d = Math.floor(Math.log10(min)) - 1; d <= Math.ceil(Math.log10(max)) + 1; d++) {
    for (const m of steps) candidates.push(Number((m * 10 ** d).toPrecision(12)));
  }
  let lo = Math.max(...candidates.filter((c) => c <= min));
  let hi = Math.min(...candidates.filter((c) => c >= max));
  // One value exactly on a tick: a step either side, so that the axis has a width.
  if (lo === hi) {
    lo = Math.max(...candidates.filter((c) => c < min));
    hi = Math.min(...candidates.filter((c) => c > max));
  }
  return candidates.filter((c) => c >= lo && c <= hi);
}

/**
 * Ticks and domain of a log axis over positive values: round numbers (1, 2, 5 × 10^k; whole decades
 * over a wide span; finer steps over a narrow one), the domain widened to the ticks just outside the
 * values so that every point lies between two labels. The charting library's own choice on a log
 * axis gave two arbitrary labels (0.14 and 0.184) under four points.
 */
export function logAxisTicks(values: readonly number[]): { domain: [number, number]; ticks: number[] } {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) throw new Error('a log axis needs at least one positive value');
  const min = Math.min(...positive);
  const max = Math.max(...positive);
  let ticks = ticksBetween(min, max, ONE_TWO_FIVE);
  if (ticks.length > MAX_LOG_TICKS) ticks = ticksBetween(min, max, DECADES);
  for (const steps of FINER) if (ticks.length < MIN_LOG_TICKS) ticks = ticksBetween(min, max, steps);
  return { domain: [ticks[0]!, ticks[ticks.length - 1]!], ticks };
}
