import { agentTargetStats, readTargetFigures, type AgentTargetStats, type Db } from '@gitbench/db';
import { isHumanModelId, type TargetFigures } from '@gitbench/core';
import { includedCampaigns, isActive, listCampaigns, type CampaignListItem } from './campaigns';
import { ALL_SUITES, chosenSuite, type DashboardFilters } from './filters';

/**
 * A target's figures within one suite version (`suiteVersion` null: pooled over suites, as asked;
 * absent where a view sums one campaign, which has one suite).
 */
export type LeaderboardRow = TargetFigures & { suiteVersion?: string | null };

export interface Leaderboard {
  /** Grouped by suite version, newest suite first, each group ranked on its own (rank restarts at 1). */
  rows: LeaderboardRow[];
  /** People's baselines (human:<name>), grouped as the rows are, unranked: shown beside the ranking, never in it. */
  humans: LeaderboardRow[];
  /** The suite versions of the rows, in the order above; empty when pooled. */
  suites: string[];
  pooled: boolean;
  campaigns: CampaignListItem[];
  included: CampaignListItem[];
  /**
   * Campaigns left out by the default rules, so the page can say how many and why; `running` are among the incomplete.
   */
  leftOut: { legacy: number; incomplete: number; running: CampaignListItem[] };
}

/**
 * The home page: targets ranked by the lower bound of their mean success's Wilson interval over the
 * included campaigns. A row sums one suite version's campaigns only, unless the reader asks for every
 * suite pooled (`suite=all`): a target's rate over different fixture sets is not one figure.
 */
export async function getLeaderboard(
  db: Db,
  f: DashboardFilters,
  campaigns?: CampaignListItem[],
): Promise<Leaderboard> {
  const all = campaigns ?? (await listCampaigns(db));
  const included = includedCampaigns(all, f);
  const inScope = all.filter(
    (c) => (f.campaign ? c.id === f.campaign : true) && (chosenSuite(f) ? c.suiteVersion === chosenSuite(f) : true),
  );
  const incomplete = f.incomplete === '1' || f.campaign ? [] : inScope.filter((c) => !c.legacy && !c.complete);
  const leftOut = {
    legacy: f.legacy === '1' || f.campaign ? 0 : inScope.filter((c) => c.legacy).length,
    incomplete: incomplete.length,
    running: incomplete.filter(isActive),
  };
  const pooled = f.suite === ALL_SUITES;
  // Campaigns are listed newest first, so the suites come out in the order of their newest campaign.
  const suites = pooled ? [] : [...new Set(included.map((c) => c.suiteVersion))];
  const groups = pooled
    ? [{ suite: null, campaigns: included }]
    : suites.map((suite) => ({ suite, campaigns: included.filter((c) => c.suiteVersion === suite) }));
  const figures = (
    await Promise.all(
      groups.map(async (g) =>
        (await readTargetFigures(db, g.campaigns, f)).map((r) => ({ ...r, suiteVersion: g.suite })),
      ),
    )
  ).flat();
  const rows = figures.filter((r) => !isHumanModelId(r.modelId));
  const humans = figures.filter((r) => isHumanModelId(r.modelId));
  return { rows, humans, suites, pooled, campaigns: all, included, leftOut };
}

/**
 * The leaderboard's agents table over what its filters keep, as the ranking above it: the included
 * campaigns (suite version, legacy and incomplete toggles, a chosen campaign), the domain, difficulty
 * and mode. It read every campaign's agent targets whatever was chosen.
 */
export async function getLeaderboardAgents(
  db: Db,
  f: DashboardFilters,
  campaigns?: CampaignListItem[],
): Promise<AgentTargetStats[]> {
  const included = includedCampaigns(campaigns ?? (await listCampaigns(db)), f);
  if (included.length === 0) return [];
  return agentTargetStats(db, {
    campaignIds: included.map((c) => c.id),
    includeLegacy: true,
    ...(f.domain ? { domain: f.domain } : {}),
    ...(f.difficulty ? { difficulty: f.difficulty } : {}),
    ...(f.mode ? { mode: f.mode } : {}),
  });
}
