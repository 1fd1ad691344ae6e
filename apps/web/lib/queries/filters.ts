import { z } from 'zod';
import { MODES } from '@gitbench/core';

/**
 * The suite filter's value that pools every suite version into one row per target: only when asked,
 * since a target's rate over different fixture sets is not one figure.
 */
export const ALL_SUITES = 'all';

/** Leaderboard-style filters, parsed from URL search params (strings), shared by pages, charts and exports. */
export const dashboardFiltersSchema = z.object({
  campaign: z.string().trim().min(1).optional().catch(undefined),
  suite: z.string().trim().min(1).optional().catch(undefined),
  domain: z.string().trim().min(1).optional().catch(undefined),
  difficulty: z.string().trim().min(1).optional().catch(undefined),
  mode: z.enum(MODES).optional().catch(undefined),
  legacy: z.enum(['1']).optional().catch(undefined),
  incomplete: z.enum(['1']).optional().catch(undefined),
});
export type DashboardFilters = z.infer<typeof dashboardFiltersSchema>;

/** The one suite version the filters keep, if any (`all` keeps every one). */
export function chosenSuite(f: DashboardFilters): string | undefined {
  return f.suite && f.suite !== ALL_SUITES ? f.suite : undefined;
}

type SearchParams = Record<string, string | string[] | undefined>;

export function parseFilters(params: SearchParams): DashboardFilters {
  const flat: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(params)) flat[k] = Array.isArray(v) ? v[0] : v;
  for (const k of Object.keys(flat)) if (flat[k] === '') delete flat[k];
  return dashboardFiltersSchema.parse(flat);
}

/** Query string of the filters (for links that keep the reader's selection). */
export function filtersQuery(f: DashboardFilters, extra: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...f, ...extra })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * The suite a single-figure view (the quadrant, a model's page) is over: the one chosen, or else the
 * suite of the newest current (not legacy) campaign it includes (campaigns come newest first), since success rates over
 * different fixture sets are not one figure. Null only when the reader asked for every suite pooled.
 */
export function suiteOfView(
  f: DashboardFilters,
  includedNewestFirst: readonly { suiteVersion: string; legacy: boolean }[],
): string | null {
  if (f.suite === ALL_SUITES) return null;
  // A legacy import is re-imported upstream history: ticking it in should not move the view off the
  // suite that current campaigns run.
  const newest = includedNewestFirst.find((c) => !c.legacy) ?? includedNewestFirst[0];
  return f.suite ?? newest?.suiteVersion ?? null;
}
