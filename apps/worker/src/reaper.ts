import {
  findStalledPlans,
  findUndispatched,
  reapStaleAttempts,
  redispatchAttempts,
  redispatchPlans,
  touchDispatched,
  touchPlans,
  type Db,
} from '@gitbench/db';
import { jobCatalog, type JobName, type JobPayload, type QueueClient } from '@gitbench/queue';
import type { SafetyReviewer } from '@gitbench/core';
import { finishCampaignIfDone } from '@gitbench/use-cases';

export interface ReaperConfig {
  /** A RUNNING attempt whose heartbeat is older than this is given back to the queue. */
  staleAfterMs: number;
  /** A QUEUED attempt (or a planning) not dispatched for this long is dispatched again if its job is gone. */
  redispatchAfterMs: number;
  /** Dispatches per attempt since its last retry; past them it ends as an infrastructure failure. */
  maxDispatches: number;
  /** Plan dispatches per campaign since its last retry; past them the campaign fails. */
  maxPlanDispatches: number;
  /** Reviews the raw outputs of a campaign the reaper completes, as the attempt handler does. */
  safetyReviewer?: SafetyReviewer;
}

/** Splits rows that were handed to the queue into those whose job Redis still holds (waiting, running) and the rest. */
async function splitLive<N extends JobName, T extends { dispatch: number }>(
  queue: QueueClient,
  name: N,
  rows: T[],
  payload: (row: T) => JobPayload<N>,
) {
  const live = await queue.liveJobs(name, rows.filter((r) => r.dispatch > 0).map(payload));
  const isLive = (r: T) => r.dispatch > 0 && live.has(jobCatalog[name].jobId(payload(r) as never));
  return { live: rows.filter(isLive), gone: rows.filter((r) => !isLive(r)) };
}

/** Rows findUndispatched returns at most in one call. */
const UNDISPATCHED_PAGE = 2000;

/**
 * Redis came back without this queue: every QUEUED attempt whose job it held is sent again now, without
 * waiting out redispatchAfterMs. Attempts sent since `since` (the moment the loss was noticed) are in the
 * new Redis already and left alone, which also ends the loop over pages. Planning keeps the reaper's
 * window: a plan job lost while it runs goes on building, and sending it again would build twice.
 */
export async function resendLostAttempts(
  db: Db,
  queue: QueueClient,
  config: Pick<ReaperConfig, 'maxDispatches'>,
  since: Date,
) {
  let sent = 0;
  let capped = 0;
  for (let page = 0; page < 100; page++) {
    const due = await findUndispatched(db, Math.max(0, Date.now() - since.getTime()), UNDISPATCHED_PAGE);
    const found = await splitLive(queue, 'attempt.run', due, (u) => u);
    await touchDispatched(
      db,
      found.live.map((u) => u.attemptId),
    );
    const r = await redispatchAttempts(db, found.gone, config.maxDispatches);
    await queue.enqueueMany('attempt.run', r.jobs);
    sent += r.jobs.length;
    capped += r.capped.length;
    if (due.length < UNDISPATCHED_PAGE) break;
  }
  return { sent, capped };
}

/**
 * Every worker runs one. It makes Postgres the source of truth: whatever Redis lost, a killed worker
 * left behind or a job that failed for good is found here and sent again, a bounded number of times;
 * the claim makes any duplicate harmless, and the dispatch numbers make two reapers never both send.
 */
export async function reapOnce(db: Db, queue: QueueClient, config: ReaperConfig) {
  const reaped = await reapStaleAttempts(db, config.staleAfterMs);
  // A long campaign keeps jobs waiting in Redis for longer than the re-dispatch delay: only the jobs
  // Redis no longer holds are sent again (a reaped attempt has no dispatch time and is due at once).
  const undispatched = await findUndispatched(db, config.redispatchAfterMs);
  const found = await splitLive(queue, 'attempt.run', undispatched, (u) => u);
  // An attempt reaped just now lost its worker, but that worker's job still looks alive: "active" in
  // Redis under a lock nobody renews, it comes back only once BullMQ calls it stalled (its lock
  // expiring, then the next stall check: up to a minute more). It is sent again now, as a new
  // dispatch; when the old job does come back, its claim finds the attempt taken and does nothing.
  const lostWorker = new Set(reaped);
  const attempts = {
    live: found.live.filter((u) => !lostWorker.has(u.attemptId)),
    gone: [...found.gone, ...found.live.filter((u) => lostWorker.has(u.attemptId))],
  };
  await touchDispatched(
    db,
    attempts.live.map((u) => u.attemptId),
  );
  const { jobs, capped } = await redispatchAttempts(db, attempts.gone, config.maxDispatches);
  await queue.enqueueMany('attempt.run', jobs);

  const stalled = await findStalledPlans(db, config.redispatchAfterMs);
  const plans = await splitLive(queue, 'campaign.plan', stalled, (p) => p);
  await touchPlans(
    db,
    plans.live.map((p) => p.campaignId),
  );
  const replans = await redispatchPlans(db, plans.gone, config.maxPlanDispatches);
  for (const job of replans.jobs) await queue.enqueue('campaign.plan', job);

  const running = await db.campaign.findMany({
    where: { status: 'RUNNING', attempts: { none: { status: { in: ['QUEUED', 'RUNNING'] } } } },
    select: { id: true },
  });
  const finish = { db, ...(config.safetyReviewer ? { safetyReviewer: config.safetyReviewer } : {}) };
  for (const c of running) await finishCampaignIfDone(finish, c.id);
  return {
    reaped: reaped.length,
    dispatched: jobs.length,
    capped: capped.length,
    stillWaiting: attempts.live.length,
    replanned: replans.jobs.length,
    planFailed: replans.failed.length,
  };
}
