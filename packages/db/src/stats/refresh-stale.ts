import { prismaOf, sqlRows, type SqlSource } from '../pool';
import { empty, sql } from '../sql';
import { refreshCampaignStats } from './refresh-campaign-stats';

export interface StaleCampaign {
  id: string;
  active: boolean;
  refreshedAt: Date | null;
}

/**
 * Campaigns whose CampaignStats no longer describe their attempts: never refreshed, an attempt
 * finished (or was cancelled) after the last refresh, the attempt count changed, or the rows were
 * marked stale by a migration (refreshedAt at the epoch).
 */
export async function findStaleCampaigns(db: SqlSource, campaignId?: string): Promise<StaleCampaign[]> {
  return sqlRows<StaleCampaign>(
    db,
    sql`
    SELECT c."id", c."status"::text IN ('PLANNING', 'QUEUED', 'RUNNING') AS "active", st."refreshedAt"
      FROM "Campaign" c
      CROSS JOIN LATERAL (SELECT max(s."refreshedAt") AS "refreshedAt", coalesce(sum(s."attempts"), 0) AS n
                            FROM "CampaignStats" s WHERE s."campaignId" = c."id") st
      CROSS JOIN LATERAL (SELECT max(a."finishedAt") AS "finishedAt", count(*) AS n
                            FROM "Attempt" a WHERE a."campaignId" = c."id") at
     WHERE at.n > 0
       ${campaignId ? sql`AND c."id" = ${campaignId}` : empty}
       AND (st."refreshedAt" IS NULL
            OR st."refreshedAt" <= TIMESTAMP '1970-01-01 00:00:00'
            OR st."refreshedAt" < at."finishedAt"
            OR st.n <> at.n)`,
  );
}

/**
 * Refreshes every stale campaign (or just `campaignId`). `minAgeMs` throttles a campaign that is
 * still running, whose stats go stale with every finished attempt: it is refreshed at most once per
 * that interval. A finished campaign is refreshed at once, so its final figures show without delay.
 * The stats are a cache of the attempts, so any process may fill it.
 */
export async function refreshStaleCampaignStats(
  db: SqlSource,
  opts: { campaignId?: string; minAgeMs?: number } = {},
): Promise<string[]> {
  const stale = await findStaleCampaigns(db, opts.campaignId);
  const now = Date.now();
  const due = stale.filter(
    (c) => !c.active || !opts.minAgeMs || !c.refreshedAt || now - c.refreshedAt.getTime() >= opts.minAgeMs,
  );
  for (const c of due) await refreshCampaignStats(await prismaOf(db), c.id);
  return due.map((c) => c.id);
}
