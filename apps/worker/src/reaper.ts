import { completeCampaignIfDone, findUndispatched, reapStaleAttempts, refreshCampaignStats, touchDispatched, type Db } from '@gitbench/db';
import { jobCatalog, type QueueClient } from '@gitbench/queue';
import { dispatchAttempts } from './campaign-handlers';

export interface ReaperConfig {
  /** A RUNNING attempt whose heartbeat is older than this is given back to the queue. */
  staleAfterMs: number;
  /** A QUEUED attempt not dispatched for this long is dispatched again (its job may be lost). */
  redispatchAfterMs: number;
}

/**
 * Every worker runs one. It makes Postgres the source of truth: whatever Redis lost or a killed
 * worker left behind is found here and sent again; the claim makes any duplicate harmless.
 */
export async function reapOnce(db: Db, queue: QueueClient, config: ReaperConfig) {
  const reaped = await reapStaleAttempts(db, config.staleAfterMs);
  // A long campaign keeps jobs waiting in Redis for longer than the re-dispatch delay: only the jobs
  // Redis no longer holds are sent again (a never-dispatched attempt has dispatch 0 and no job).
  const undispatched = await findUndispatched(db, config.redispatchAfterMs);
  const live = await queue.liveJobs('attempt.run', undispatched.filter((u) => u.dispatch > 0));
  const isLive = (u: { attemptId: string; dispatch: number }) => live.has(jobCatalog['attempt.run'].jobId(u));
  const waiting = undispatched.filter(isLive).map((u) => u.attemptId);
  await touchDispatched(db, waiting);
  const lost = undispatched.filter((u) => !isLive(u)).map((u) => u.attemptId);
  const toDispatch = [...new Set([...reaped, ...lost])];
  const dispatched = toDispatch.length ? await dispatchAttempts(db, queue, toDispatch) : 0;

  const staleBefore = new Date(Date.now() - config.redispatchAfterMs);
  const planning = await db.campaign.findMany({ where: { status: 'PLANNING', createdAt: { lt: staleBefore } }, select: { id: true } });
  for (const c of planning) await queue.enqueue('campaign.plan', { campaignId: c.id });

  const running = await db.campaign.findMany({
    where: { status: 'RUNNING', attempts: { none: { status: { in: ['QUEUED', 'RUNNING'] } } } },
    select: { id: true },
  });
  for (const c of running) if (await completeCampaignIfDone(db, c.id)) await refreshCampaignStats(db, c.id);
  return { reaped: reaped.length, dispatched, stillWaiting: waiting.length, replanned: planning.length };
}
