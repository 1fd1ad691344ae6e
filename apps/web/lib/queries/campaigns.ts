import { ALLOWED_SAFETY_REVIEW_STATES } from '@gitbench/core';
import { Prisma, type Db } from '@gitbench/db';
import { difficultyRank, NON_VALID_STATUSES, num, statusArraySql } from './common';
import { chosenSuite, type DashboardFilters } from './filters';

export interface CampaignListItem {
  id: string;
  name: string;
  status: string;
  legacy: boolean;
  suiteVersion: string;
  trials: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  safetyReview: string;
  /** Set by a member's Publish (audited); with the review, decides what viewers and the public see. */
  publishedAt: Date | null;
  /** The methodology's completeness, computed in SQL from attempt statuses and the safety review. */
  complete: boolean;
  /** Attempts counted in the maintained stats (refreshed while the campaign runs and when it ends). */
  statsAttempts: number;
  plannedAttempts: number;
}

/**
 * Every campaign with its completeness. A campaign is complete when it has all its planned attempts,
 * none of them outside VALID_PASS / VALID_FAIL (an index probe per campaign on (campaignId, status)),
 * and its safety review is in an allowed state.
 */
export async function listCampaigns(db: Db, opts: { limit?: number } = {}): Promise<CampaignListItem[]> {
  const rows = await db.$queryRaw<
    (Omit<CampaignListItem, 'statsAttempts' | 'plannedAttempts'> & {
      statsAttempts: unknown;
      plannedAttempts: unknown;
    })[]
  >`
    SELECT c."id", c."name", c."status"::text AS "status", c."legacy", c."suiteVersion", c."trials", c."createdAt",
           c."startedAt", c."finishedAt", c."safetyReview", c."publishedAt",
           coalesce((SELECT sum(s."attempts") FROM "CampaignTargetStats" s WHERE s."campaignId" = c."id"), 0)
             AS "statsAttempts",
           ((SELECT count(*) FROM "CampaignTarget" t WHERE t."campaignId" = c."id")
             * (SELECT count(*) FROM "FixtureSnapshot" f WHERE f."campaignId" = c."id") * c."trials")
               AS "plannedAttempts",
           (c."safetyReview" = ANY(${[...ALLOWED_SAFETY_REVIEW_STATES]}::text[])
             AND EXISTS (SELECT 1 FROM "Attempt" a WHERE a."campaignId" = c."id")
             AND NOT EXISTS (SELECT 1 FROM "Attempt" a WHERE a."campaignId" = c."id"
                               AND a."status" = ANY(${statusArraySql(NON_VALID_STATUSES)}))) AS "complete"
      FROM "Campaign" c
     ORDER BY c."createdAt" DESC
     ${opts.limit ? Prisma.sql`LIMIT ${opts.limit}` : Prisma.empty}`;
  return rows.map((r) => {
    const planned = num(r.plannedAttempts);
    const stats = num(r.statsAttempts);
    // A row count short of the plan (attempts never written) also leaves the campaign incomplete.
    return { ...r, statsAttempts: stats, plannedAttempts: planned, complete: r.complete && stats === planned };
  });
}

/** The campaigns a leaderboard-style view includes under the given filters. */
export function includedCampaigns(all: readonly CampaignListItem[], f: DashboardFilters): CampaignListItem[] {
  return all.filter(
    (c) =>
      (f.campaign ? c.id === f.campaign : true) &&
      (chosenSuite(f) ? c.suiteVersion === chosenSuite(f) : true) &&
      // An explicitly chosen campaign is shown whatever it is; otherwise the toggles decide.
      (f.campaign || f.legacy === '1' || !c.legacy) &&
      (f.campaign || f.incomplete === '1' || c.complete || c.legacy),
  );
}

/** Still planned or running: incomplete for now, but expected to join the rankings. */
export function isActive(c: Pick<CampaignListItem, 'status'>): boolean {
  return c.status === 'PLANNING' || c.status === 'QUEUED' || c.status === 'RUNNING';
}

/** The models each campaign runs, for the campaign list. */
export async function campaignModels(db: Db, campaignIds: string[]): Promise<Map<string, string[]>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ campaignId: string; models: string[] }[]>`
    SELECT "campaignId", array_agg(DISTINCT "modelId" ORDER BY "modelId") AS models
      FROM "CampaignTarget" WHERE "campaignId" = ANY(${campaignIds}::text[]) GROUP BY 1`;
  return new Map(rows.map((r) => [r.campaignId, r.models]));
}

export interface FilterOptions {
  campaigns: CampaignListItem[];
  suites: string[];
  domains: string[];
  difficulties: string[];
}

export async function filterOptions(db: Db, campaigns: readonly CampaignListItem[]): Promise<FilterOptions> {
  // A loose index scan on (domain, difficulty): one index probe per distinct pair instead of reading
  // every stats row, which a plain DISTINCT does.
  const dims = await db.$queryRaw<{ domain: string; difficulty: string }[]>`
    WITH RECURSIVE d AS (
      (SELECT "domain", "difficulty" FROM "CampaignStats" ORDER BY 1, 2 LIMIT 1)
      UNION ALL
      SELECT n."domain", n."difficulty" FROM d CROSS JOIN LATERAL (
        SELECT s."domain", s."difficulty" FROM "CampaignStats" s
         WHERE (s."domain", s."difficulty") > (d."domain", d."difficulty")
         ORDER BY 1, 2 LIMIT 1) n)
    SELECT "domain", "difficulty" FROM d`;
  return {
    campaigns: [...campaigns],
    suites: [...new Set(campaigns.map((c) => c.suiteVersion))].sort(),
    domains: [...new Set(dims.map((d) => d.domain))].sort(),
    difficulties: [...new Set(dims.map((d) => d.difficulty))].sort(
      (a, b) => difficultyRank(a) - difficultyRank(b) || a.localeCompare(b),
    ),
  };
}
