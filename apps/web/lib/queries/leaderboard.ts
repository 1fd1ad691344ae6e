import { readTargetFigures, type Db } from '@gitbench/db';
import type { TargetFigures } from '@gitbench/core';
import { includedCampaigns, isActive, listCampaigns, type CampaignListItem } from './campaigns';
import type { DashboardFilters } from './filters';

export type LeaderboardRow = TargetFigures;

export interface Leaderboard {
  rows: LeaderboardRow[];
  campaigns: CampaignListItem[];
  included: CampaignListItem[];
  /** Campaigns left out by the default rules, so the page can say how many and why; `running` are among the incomplete. */
  leftOut: { legacy: number; incomplete: number; running: CampaignListItem[] };
}

/** The home page: targets ranked by mean one-attempt success over the included campaigns. */
export async function getLeaderboard(db: Db, f: DashboardFilters, campaigns?: CampaignListItem[]): Promise<Leaderboard> {
  const all = campaigns ?? (await listCampaigns(db));
  const included = includedCampaigns(all, f);
  const inScope = all.filter((c) => (f.campaign ? c.id === f.campaign : true) && (f.suite ? c.suiteVersion === f.suite : true));
  const incomplete = f.incomplete === '1' || f.campaign ? [] : inScope.filter((c) => !c.legacy && !c.complete);
  const leftOut = {
    legacy: f.legacy === '1' || f.campaign ? 0 : inScope.filter((c) => c.legacy).length,
    incomplete: incomplete.length,
    running: incomplete.filter(isActive),
  };
  return { rows: await readTargetFigures(db, included, f), campaigns: all, included, leftOut };
}
