import { rawQuery, type Db } from '../client';
import { SqlParams } from './sql-params';
import type { DispatchJob, PlanJob } from './dispatch';

/** A planned campaign's later changes of state: completed when its last attempt lands, cancelled, retried. */

/**
 * Flips RUNNING -> COMPLETED once no attempt is left to run. Safe to call after every attempt, which
 * is why it is one statement (the count and the flip together, no Prisma query compilation): a
 * campaign pays it once per attempt.
 */
export async function completeCampaignIfDone(db: Db, campaignId: string): Promise<boolean> {
  const sql = new SqlParams();
  const id = sql.param(campaignId, 'text');
  const { rowCount } = await rawQuery(
    db,
    `UPDATE "Campaign" c SET status = 'COMPLETED', "finishedAt" = ${sql.now()}
      WHERE c.id = ${id} AND c.status = 'RUNNING'
        AND NOT EXISTS (SELECT 1 FROM "Attempt" a WHERE a."campaignId" = ${id} AND a.status IN ('QUEUED', 'RUNNING'))`,
    sql.values,
  );
  return rowCount === 1;
}

/**
 * No new attempt starts; queued ones become CANCELLED; running ones stop at their next heartbeat.
 * One statement, whatever the campaign's size: no interactive transaction whose time limit a large
 * campaign could outrun.
 */
export async function markCampaignCancelled(
  db: Db,
  campaignId: string,
): Promise<{ cancelled: boolean; stoppedQueued: number }> {
  const sql = new SqlParams();
  const id = sql.param(campaignId, 'text');
  const now = sql.now();
  const [row] = await db.$queryRawUnsafe<{ cancelled: number; stopped: number }[]>(
    `WITH c AS (
       UPDATE "Campaign" SET status = 'CANCELLED', "cancelledAt" = ${now}, "finishedAt" = ${now}
        WHERE id = ${id} AND status IN ('PLANNING', 'QUEUED', 'RUNNING') RETURNING id),
     q AS (
       UPDATE "Attempt" SET status = 'CANCELLED', "finishedAt" = ${now}
        WHERE "campaignId" IN (SELECT id FROM c) AND status = 'QUEUED' RETURNING 1)
     SELECT (SELECT count(*) FROM c)::int AS cancelled, (SELECT count(*) FROM q)::int AS stopped`,
    ...sql.values,
  );
  return { cancelled: row!.cancelled === 1, stoppedQueued: row!.stopped };
}

/** What a retry queued again: the attempts to send, and the planning to send when the campaign had failed it. */
export interface RetryResult {
  attempts: DispatchJob[];
  plan?: PlanJob;
}

/**
 * Re-queues only infrastructure failures (a dispatch cap reached among them), as new tries: the failed tries stay in
 * the history. A finished campaign is reopened so its completeness can be earned; a campaign whose planning failed is
 * planned again. The new tries' outputs have not been reviewed, so a published campaign is unpublished and an approved
 * review goes back to pending. One statement: the attempts and the campaign change together, each attempt numbered with
 * its next dispatch and its cap counted afresh.
 */
export async function requeueInfraFailures(db: Db, campaignId: string): Promise<RetryResult> {
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { legacy: true } });
  if (campaign.legacy) throw new Error('a legacy campaign cannot be retried: it has no fixture snapshots to run');
  const sql = new SqlParams();
  const id = sql.param(campaignId, 'text');
  const now = sql.now();
  const rows = await db.$queryRawUnsafe<{ kind: 'plan' | 'attempt'; id: string; dispatch: number }[]>(
    `WITH c AS (
       UPDATE "Campaign" c SET
              status = CASE WHEN c.status = 'FAILED' THEN 'PLANNING'::"CampaignStatus"
                ELSE 'RUNNING'::"CampaignStatus" END,
              "statusDetail" = CASE WHEN c.status = 'FAILED' THEN NULL ELSE c."statusDetail" END,
              "finishedAt" = NULL,
              "safetyReview" = CASE WHEN c."publishedAt" IS NOT NULL OR c."safetyReview" = 'approved' THEN 'pending'
                ELSE c."safetyReview" END,
              "publishedAt" = NULL, "publishedBy" = NULL,
              "planDispatchBase" = CASE WHEN c.status = 'FAILED' THEN c."planDispatchCount"
                ELSE c."planDispatchBase" END,
              "planDispatchCount" = CASE WHEN c.status = 'FAILED' THEN c."planDispatchCount" + 1
                ELSE c."planDispatchCount" END,
              "planDispatchedAt" = CASE WHEN c.status = 'FAILED' THEN ${now} ELSE c."planDispatchedAt" END
        WHERE c.id = ${id}
          AND (c.status = 'FAILED'
               OR (c.status IN ('QUEUED', 'RUNNING', 'COMPLETED')
                   AND EXISTS (SELECT 1 FROM "Attempt" a WHERE a."campaignId" = c.id AND a.status = 'INFRA_FAILURE')))
       RETURNING c.id, c.status, c."planDispatchCount"),
     a AS (
       UPDATE "Attempt" SET status = 'QUEUED', "errorClass" = NULL, "errorMessage" = NULL, "finishedAt" = NULL,
              "dispatchBase" = "dispatchCount", "dispatchCount" = "dispatchCount" + 1, "dispatchedAt" = ${now}
        WHERE "campaignId" IN (SELECT id FROM c) AND status = 'INFRA_FAILURE'
       RETURNING id, "dispatchCount")
     SELECT 'plan' AS kind, id, "planDispatchCount" AS dispatch FROM c WHERE status = 'PLANNING'
     UNION ALL SELECT 'attempt', id, "dispatchCount" FROM a`,
    ...sql.values,
  );
  const plan = rows.find((r) => r.kind === 'plan');
  return {
    attempts: rows.filter((r) => r.kind === 'attempt').map((r) => ({ attemptId: r.id, dispatch: r.dispatch })),
    ...(plan ? { plan: { campaignId: plan.id, dispatch: plan.dispatch } } : {}),
  };
}
