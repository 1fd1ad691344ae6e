import { recordAudit, requeueInfraFailures, type AuditActor, type Db } from '@gitbench/db';
import type { QueueClient } from '@gitbench/queue';

export interface RetryCampaignDeps {
  db: Db;
  queue: Pick<QueueClient, 'enqueue' | 'enqueueMany'>;
}

export type RetryCampaignResult =
  | { found: false }
  | { found: true; ok: false; error: string }
  | { found: true; ok: true; requeued: number; dispatched: number; replanned: boolean };

/**
 * Retries a campaign, for every entry point: only infrastructure failures are queued again, as new
 * tries (the failed tries stay in the history), and a campaign whose planning failed is planned again.
 * Each dispatch is recorded in Postgres before its job is sent, so a job lost on the way is sent again
 * by the reaper. A campaign that cannot be retried (a legacy import) is refused with the reason.
 */
export async function retryCampaign(
  deps: RetryCampaignDeps,
  campaignId: string,
  actor: AuditActor,
): Promise<RetryCampaignResult> {
  if (!(await deps.db.campaign.findUnique({ where: { id: campaignId }, select: { id: true } })))
    return { found: false };
  let retry;
  try {
    retry = await requeueInfraFailures(deps.db, campaignId);
  } catch (err) {
    return { found: true, ok: false, error: (err as Error).message };
  }
  if (retry.plan) await deps.queue.enqueue('campaign.plan', retry.plan);
  await deps.queue.enqueueMany('attempt.run', retry.attempts);
  const requeued = retry.attempts.length;
  const replanned = Boolean(retry.plan);
  await recordAudit(deps.db, actor, {
    action: 'campaign.retry',
    target: { type: 'campaign', id: campaignId },
    detail: { requeued, replanned },
  });
  return { found: true, ok: true, requeued, dispatched: requeued, replanned };
}
