import { FAMILIES, type Family } from '@gitbench/core';
import { familiesInCampaigns, familyStats, type Db, type FamilyTargetStats } from '@gitbench/db';
import { includedCampaigns, listCampaigns, type CampaignListItem } from './campaigns';
import { chosenSuite, type DashboardFilters } from './filters';

export interface FamilyBoard {
  family: Family;
  rows: FamilyTargetStats[];
  included: CampaignListItem[];
  /** Campaigns with attempts of this family that the filters leave out (legacy, incomplete). */
  leftOut: number;
}

/**
 * A family's metrics per target over the campaigns the leaderboard's rules include (the same
 * toggles), each figure computed by core from the outcomes the attempts recorded.
 */
export async function getFamilyBoard(
  db: Db,
  family: Family,
  f: DashboardFilters,
  campaigns?: CampaignListItem[],
  byFamily?: Map<Family, string[]>,
): Promise<FamilyBoard> {
  const all = campaigns ?? (await listCampaigns(db));
  const included = includedCampaigns(all, f);
  const withFamily = new Set(
    (
      byFamily ??
      (await familiesOf(
        db,
        all.map((c) => c.id),
      ))
    ).get(family) ?? [],
  );
  const mine = included.filter((c) => withFamily.has(c.id));
  const rows = await familyStats(
    db,
    family,
    mine.map((c) => c.id),
  );
  // Left out by the toggles (legacy, incomplete), not by the reader's choice of one campaign or suite.
  const inScope = all.filter(
    (c) =>
      withFamily.has(c.id) &&
      (f.campaign ? c.id === f.campaign : true) &&
      (chosenSuite(f) ? c.suiteVersion === chosenSuite(f) : true),
  );
  return { family, rows, included: mine, leftOut: inScope.filter((c) => !mine.some((m) => m.id === c.id)).length };
}

/** Campaign ids by family, for the families overview. */
async function familiesOf(db: Db, campaignIds: string[]): Promise<Map<Family, string[]>> {
  const byFamily = new Map<Family, string[]>(FAMILIES.map((f) => [f, []]));
  for (const r of await familiesInCampaigns(db, campaignIds)) byFamily.get(r.family)!.push(r.campaignId);
  return byFamily;
}

export async function getFamilyBoards(
  db: Db,
  f: DashboardFilters,
  campaigns?: CampaignListItem[],
): Promise<FamilyBoard[]> {
  const all = campaigns ?? (await listCampaigns(db));
  const byFamily = await familiesOf(
    db,
    all.map((c) => c.id),
  );
  return Promise.all(FAMILIES.map((family) => getFamilyBoard(db, family, f, all, byFamily)));
}
