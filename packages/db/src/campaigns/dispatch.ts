import type { Db } from '../client';
import type { CampaignStatus, Prisma } from '../generated/prisma/client';
import { SqlParams } from './sql-params';

/**
 * Every hand-over of an attempt (or of a campaign's planning) to the queue is numbered, and the job
 * id derives from the number, so a re-dispatch gets through while an old job may still sit in Redis
 * (that one then no-ops at the claim). A row is numbered in the same statement that makes it due
 * (planned, retried, given back), never in a second one: two writers (a planner and a reaper, two
 * reapers) can then never both send it. And a row that keeps coming back without an outcome is
 * sent a bounded number of times, then ends with the reason instead of looping forever.
 */

/** Campaigns whose attempts may be claimed and sent: a campaign still PLANNING runs the fixtures it has built. */
export const ACTIVE_CAMPAIGN_STATUSES = ['PLANNING', 'QUEUED', 'RUNNING'] as const satisfies readonly CampaignStatus[];
export const ACTIVE_CAMPAIGN: Prisma.CampaignWhereInput = { status: { in: [...ACTIVE_CAMPAIGN_STATUSES] } };

export interface DispatchJob {
  attemptId: string;
  dispatch: number;
}

export interface PlanJob {
  campaignId: string;
  dispatch: number;
}

/** Hand-overs per attempt, counted since the last retry, before it ends as an infrastructure failure. */
export const DEFAULT_MAX_DISPATCHES = 5;
/** Hand-overs of a campaign's planning, counted since the last retry, before the campaign fails. */
export const DEFAULT_MAX_PLAN_DISPATCHES = 3;

/**
 * QUEUED attempts of active campaigns not dispatched recently, with their latest dispatch number:
 * their job may have been lost (Redis restarted without persistence), may have failed for good, or
 * was never sent (crash between commit and enqueue; a reaped attempt waits here with no dispatch
 * time). The caller asks the queue which of them are still waiting before sending them again.
 */
export async function findUndispatched(db: Db, olderThanMs: number, limit = 2000): Promise<DispatchJob[]> {
  const before = new Date(Date.now() - olderThanMs);
  const rows = await db.attempt.findMany({
    where: {
      status: 'QUEUED',
      campaign: ACTIVE_CAMPAIGN,
      OR: [{ dispatchedAt: null }, { dispatchedAt: { lt: before } }],
    },
    select: { id: true, dispatchCount: true },
    orderBy: [{ trial: 'asc' }, { id: 'asc' }],
    take: limit,
  });
  return rows.map((r) => ({ attemptId: r.id, dispatch: r.dispatchCount }));
}

/** Records that these attempts' jobs were found still waiting, so they are looked at again later, not now. */
export async function touchDispatched(db: Db, attemptIds: string[]): Promise<void> {
  if (attemptIds.length === 0) return;
  await db.attempt.updateMany({
    where: { id: { in: attemptIds }, status: 'QUEUED' },
    data: { dispatchedAt: new Date() },
  });
}

/**
 * Numbers a new dispatch of each attempt that is still QUEUED at the dispatch number the caller saw
 * (so of two callers racing on the same attempt, one wins), and returns the jobs to send. An attempt
 * already sent `maxDispatches` times since its last retry is not sent again: it ends as an
 * infrastructure failure that names the cap and its last try's error, and retry brings it back.
 */
export async function redispatchAttempts(
  db: Db,
  due: DispatchJob[],
  maxDispatches: number,
): Promise<{ jobs: DispatchJob[]; capped: string[] }> {
  const { sent, stopped } = await redispatch(
    db,
    ATTEMPTS,
    due.map((d) => ({ id: d.attemptId, dispatch: d.dispatch })),
    maxDispatches,
  );
  return { jobs: sent.map((r) => ({ attemptId: r.id, dispatch: r.dispatch })), capped: stopped };
}

/** Campaigns still PLANNING whose planning was handed over longer ago than this (or never). */
export async function findStalledPlans(db: Db, olderThanMs: number): Promise<PlanJob[]> {
  const before = new Date(Date.now() - olderThanMs);
  const rows = await db.campaign.findMany({
    where: { status: 'PLANNING', OR: [{ planDispatchedAt: null }, { planDispatchedAt: { lt: before } }] },
    select: { id: true, planDispatchCount: true },
  });
  return rows.map((r) => ({ campaignId: r.id, dispatch: r.planDispatchCount }));
}

/** Records that these plan jobs are still waiting or running, so they are looked at again later. */
export async function touchPlans(db: Db, campaignIds: string[]): Promise<void> {
  if (campaignIds.length === 0) return;
  await db.campaign.updateMany({
    where: { id: { in: campaignIds }, status: 'PLANNING' },
    data: { planDispatchedAt: new Date() },
  });
}

/**
 * Re-plans campaigns whose plan job is gone (failed, lost with Redis, or its worker died) as new
 * jobs; a campaign handed over `maxDispatches` times since its last retry fails instead, with the
 * reason on its page. Conditional on the dispatch number the caller saw, like attempts.
 */
export async function redispatchPlans(
  db: Db,
  due: PlanJob[],
  maxDispatches: number,
): Promise<{ jobs: PlanJob[]; failed: string[] }> {
  const { sent, stopped } = await redispatch(
    db,
    PLANS,
    due.map((d) => ({ id: d.campaignId, dispatch: d.dispatch })),
    maxDispatches,
  );
  return { jobs: sent.map((r) => ({ campaignId: r.id, dispatch: r.dispatch })), failed: stopped };
}

/** Where a kind of row keeps its dispatch numbers, and how it ends when it reached the cap. */
interface DispatchColumns {
  table: string;
  count: string;
  base: string;
  at: string;
  status: string;
  /** SET clause (after `status =`) for a row past the cap, as row `r`; `$NOW` stands for now. */
  giveUp: string;
}

const ATTEMPTS: DispatchColumns = {
  table: '"Attempt"',
  count: '"dispatchCount"',
  base: '"dispatchBase"',
  at: '"dispatchedAt"',
  status: 'QUEUED',
  giveUp: `'INFRA_FAILURE', "finishedAt" = $NOW, "errorClass" = 'dispatch_limit',
    "errorMessage" = format('sent to workers %s times without an outcome, the most allowed (retry sends it again); '
                            'last try: %s',
      r."dispatchCount" - r."dispatchBase",
      coalesce((SELECT t."errorClass" || ': ' || coalesce(t."errorMessage", '') FROM "AttemptTry" t
                 WHERE t."attemptId" = r.id ORDER BY t."tryNumber" DESC LIMIT 1), 'none started'))`,
};

const PLANS: DispatchColumns = {
  table: '"Campaign"',
  count: '"planDispatchCount"',
  base: '"planDispatchBase"',
  at: '"planDispatchedAt"',
  status: 'PLANNING',
  giveUp: `'FAILED', "finishedAt" = $NOW,
    "statusDetail" = format('planning failed: handed to workers %s times without finishing, the most allowed '
                            '(retry plans it again)%s',
      r."planDispatchCount" - r."planDispatchBase", coalesce('; last: ' || r."statusDetail", ''))`,
};

/** One statement: rows below the cap get their next dispatch number, rows at it give up. */
async function redispatch(db: Db, c: DispatchColumns, due: { id: string; dispatch: number }[], cap: number) {
  if (due.length === 0) return { sent: [], stopped: [] };
  const sql = new SqlParams();
  const ids = sql.param(
    due.map((d) => d.id),
    'text[]',
  );
  const seen = sql.param(
    due.map((d) => d.dispatch),
    'int[]',
  );
  const max = sql.param(cap, 'int');
  const now = sql.now();
  const still = `r.id = due.id AND r.${c.count} = due.dispatch AND r.status = '${c.status}'`;
  const rows = await db.$queryRawUnsafe<{ kind: 'sent' | 'stopped'; id: string; dispatch: number }[]>(
    `WITH due AS (SELECT * FROM unnest(${ids}, ${seen}) AS d(id, dispatch)),
     sent AS (
       UPDATE ${c.table} r SET ${c.count} = r.${c.count} + 1, ${c.at} = ${now}
         FROM due WHERE ${still} AND r.${c.count} - r.${c.base} < ${max}
       RETURNING r.id, r.${c.count} AS dispatch),
     stopped AS (
       UPDATE ${c.table} r SET status = ${c.giveUp.replaceAll('$NOW', now)}
         FROM due WHERE ${still} AND r.${c.count} - r.${c.base} >= ${max}
       RETURNING r.id, r.${c.count} AS dispatch)
     SELECT 'sent' AS kind, id, dispatch FROM sent UNION ALL SELECT 'stopped', id, dispatch FROM stopped`,
    ...sql.values,
  );
  return {
    sent: rows.filter((r) => r.kind === 'sent').map((r) => ({ id: r.id, dispatch: r.dispatch })),
    stopped: rows.filter((r) => r.kind === 'stopped').map((r) => r.id),
  };
}
