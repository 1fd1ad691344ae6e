import { compareCodeUnits } from '../canonical-json';
import { rateOf, type Rate } from './rate';

/**
 * Item analysis: how hard each fixture is and how well it separates strong targets from weak ones,
 * measured over the targets that ran it rather than written by hand.
 *
 * The input is one cell per (target, fixture): the target's scored attempts of that fixture (their
 * settling tries' outcomes, VALID_PASS or VALID_FAIL) across every campaign and trial in scope.
 * Excluded attempts (infrastructure failures, unscored, cancelled, ...) are not evidence about the target
 * and never reach a cell.
 */
export interface ItemCell {
  /** Identity of the target (model or agent × output mode × effort), e.g. targetKeyOf's. */
  target: string;
  domain: string;
  fixtureId: string;
  passes: number;
  /** Scored attempts; a cell with none says nothing and is ignored. */
  scored: number;
}

export interface ItemFlags {
  /** Every scored attempt of every target passed: the fixture no longer tells targets apart. */
  saturated: boolean;
  /** No scored attempt of any target passed. */
  unsolved: boolean;
  /** At least one target both passed and failed it across its trials. */
  flaky: boolean;
}

export interface ItemAnalysis {
  domain: string;
  fixtureId: string;
  /** Targets with at least one scored attempt of the fixture. */
  targets: number;
  /** Targets that passed it at least once. */
  targetsPassing: number;
  /** Passed scored attempts over scored attempts, across every target. */
  passRate: Rate;
  /**
   * Point-biserial correlation between a target's pass fraction on this fixture (0 or 1 with one trial)
   * and its rest score: the mean of its pass fractions over the other fixtures in scope, so the fixture
   * is not correlated with itself. Pearson's r over the targets that have both; with binary outcomes it
   * is the point-biserial coefficient. Null when it is undefined: fewer than two such targets, or either
   * side does not vary (a saturated or unsolved fixture, or targets that all score alike elsewhere).
   */
  discrimination: number | null;
  /** Targets the discrimination was computed over. */
  discriminationTargets: number;
  flags: ItemFlags;
}

/** Pearson's r; null when fewer than two pairs or either side has no variance. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n !== ys.length) throw new RangeError(`pearson: ${n} xs but ${ys.length} ys`);
  if (n < 2) return null;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // Below this the variance is float noise from equal values, not a difference between targets.
  const EPS = 1e-12;
  if (sxx < EPS || syy < EPS) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

const fixtureKey = (c: Pick<ItemCell, 'domain' | 'fixtureId'>) => JSON.stringify([c.domain, c.fixtureId]);

export function analyzeItems(cells: readonly ItemCell[]): ItemAnalysis[] {
  // Merge duplicate (target, fixture) cells: callers may hand them over per campaign.
  const merged = new Map<string, ItemCell>();
  for (const c of cells) {
    if (c.passes < 0 || c.scored < 0 || c.passes > c.scored)
      throw new RangeError(`item cell ${c.target} ${c.domain}/${c.fixtureId}: ${c.passes} passes of ${c.scored}`);
    if (c.scored === 0) continue;
    const k = JSON.stringify([c.target, c.domain, c.fixtureId]);
    const prev = merged.get(k);
    merged.set(k, prev ? { ...prev, passes: prev.passes + c.passes, scored: prev.scored + c.scored } : { ...c });
  }
  // Each target's sum and count of per-fixture pass fractions, so a rest score is one subtraction away.
  const totals = new Map<string, { sum: number; n: number }>();
  const byFixture = new Map<string, ItemCell[]>();
  for (const c of merged.values()) {
    const t = totals.get(c.target) ?? { sum: 0, n: 0 };
    t.sum += c.passes / c.scored;
    t.n++;
    totals.set(c.target, t);
    const k = fixtureKey(c);
    const list = byFixture.get(k) ?? [];
    list.push(c);
    byFixture.set(k, list);
  }
  const out: ItemAnalysis[] = [];
  for (const list of byFixture.values()) {
    const first = list[0]!;
    const passes = list.reduce((s, c) => s + c.passes, 0);
    const scored = list.reduce((s, c) => s + c.scored, 0);
    const xs: number[] = [];
    const ys: number[] = [];
    for (const c of [...list].sort((a, b) => compareCodeUnits(a.target, b.target))) {
      const t = totals.get(c.target)!;
      if (t.n < 2) continue; // no other fixture: no rest score
      const own = c.passes / c.scored;
      xs.push(own);
      ys.push((t.sum - own) / (t.n - 1));
    }
    out.push({
      domain: first.domain,
      fixtureId: first.fixtureId,
      targets: list.length,
      targetsPassing: list.filter((c) => c.passes > 0).length,
      passRate: rateOf(passes, scored),
      discrimination: pearson(xs, ys),
      discriminationTargets: xs.length,
      flags: {
        saturated: passes === scored,
        unsolved: passes === 0,
        flaky: list.some((c) => c.passes > 0 && c.passes < c.scored),
      },
    });
  }
  return out.sort(bySignal);
}

/**
 * Most signal first: the highest discrimination, then fixtures whose discrimination is undefined, the
 * ones nearer a pass rate of one half first (a fixture half the targets pass can still separate them;
 * a saturated or unsolved one cannot), then by name.
 */
export function bySignal(a: ItemAnalysis, b: ItemAnalysis): number {
  if (a.discrimination !== null && b.discrimination !== null && a.discrimination !== b.discrimination)
    return b.discrimination - a.discrimination;
  if ((a.discrimination === null) !== (b.discrimination === null)) return a.discrimination === null ? 1 : -1;
  const spread = (x: ItemAnalysis) => Math.abs((x.passRate.value ?? 0) - 0.5);
  if (spread(a) !== spread(b)) return spread(a) - spread(b);
  return compareCodeUnits(fixtureKey(a), fixtureKey(b));
}
