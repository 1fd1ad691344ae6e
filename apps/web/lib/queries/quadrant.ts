import { assignQuadrants, isReplayModelId, type QuadrantResult } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import { includedCampaigns, listCampaigns } from './campaigns';
import { ALL_SUITES, suiteOfView, type DashboardFilters } from './filters';
import { getLeaderboard, type LeaderboardRow } from './leaderboard';

export const QUADRANT_METRICS = {
  cost: { label: 'Cost per complete trial (USD)', noun: 'cost', pick: (r: LeaderboardRow) => r.perTrial.costUsd },
  tokens: { label: 'Tokens per complete trial', noun: 'token count', pick: (r: LeaderboardRow) => r.perTrial.tokens },
  api: {
    label: 'API time per complete trial (s)',
    noun: 'API time',
    pick: (r: LeaderboardRow) => r.perTrial.apiDurationMs,
  },
} as const;
export type QuadrantMetric = keyof typeof QUADRANT_METRICS;

export function isQuadrantMetric(v: unknown): v is QuadrantMetric {
  return typeof v === 'string' && v in QUADRANT_METRICS;
}

export interface QuadrantPoint {
  x: number | null;
  y: number | null;
  label: string;
  modelId: string;
  outputMode: string;
  simulated: boolean;
  legacy: boolean;
  low: number | null;
  high: number | null;
  passes: number;
  valid: number;
  partial: boolean;
  completeTrials: number;
}

function pointsFor(rows: readonly LeaderboardRow[], metric: QuadrantMetric): QuadrantPoint[] {
  return rows.map((r) => {
    const m = QUADRANT_METRICS[metric].pick(r);
    const x = m.value === null ? null : metric === 'api' ? m.value / 1000 : m.value;
    return {
      x,
      y: r.meanSuccess.value,
      label:
        `${r.modelId} · ${r.outputMode}` +
        (r.simulated ? ' (simulated)' : '') +
        (isReplayModelId(r.modelId) ? ' (replay)' : '') +
        (r.legacyOnly ? ' (legacy)' : ''),
      modelId: r.modelId,
      outputMode: r.outputMode,
      simulated: r.simulated,
      legacy: r.legacyOnly,
      low: r.meanSuccess.interval?.low ?? null,
      high: r.meanSuccess.interval?.high ?? null,
      passes: r.meanSuccess.numerator,
      valid: r.meanSuccess.denominator,
      partial: m.partial,
      completeTrials: r.completeTrials,
    };
  });
}

export type QuadrantReport = QuadrantResult<QuadrantPoint> & {
  metric: QuadrantMetric;
  /** The suite version every point is over; null when the reader asked for all suites pooled. */
  suite: string | null;
  /** How many targets each metric could place, so an empty chart can point to one that has data. */
  placeable: Record<QuadrantMetric, number>;
};

/** One point per target of the leaderboard, placed by core's median split. */
export async function getQuadrant(db: Db, f: DashboardFilters, metric: QuadrantMetric): Promise<QuadrantReport> {
  // One point per target within one suite version (the newest included unless one is chosen): a mean
  // success pooled over different fixture sets is not one figure, and the medians split one set of points.
  const campaigns = await listCampaigns(db);
  const suite = suiteOfView(f, includedCampaigns(campaigns, f));
  const board = await getLeaderboard(db, { ...f, suite: suite ?? ALL_SUITES }, campaigns);
  const placeable = Object.fromEntries(
    (Object.keys(QUADRANT_METRICS) as QuadrantMetric[]).map((m) => [
      m,
      pointsFor(board.rows, m).filter((p) => p.x !== null && p.y !== null).length,
    ]),
  ) as Record<QuadrantMetric, number>;
  return { ...assignQuadrants(pointsFor(board.rows, metric)), metric, suite, placeable };
}
