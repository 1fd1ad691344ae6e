import { markCampaignCancelled, recordAudit, type AuditActor, type CampaignStatus, type Db } from '@gitbench/db';
import type { QueueClient } from '@gitbench/queue';
import { CAMPAIGN_LABEL } from '@gitbench/sandbox';
import type { AttemptExecutor } from '../attempts/attempt-executor';

export interface CancelCampaignDeps {
  db: Db;
  queue: Pick<QueueClient, 'enqueue'>;
}

export type CancelCampaignResult =
  | { found: false }
  | {
      found: true;
      /** The campaign's status when it was asked. */
      status: CampaignStatus;
      cancelled: boolean;
      stoppedQueued: number;
      /** Whether the workers were asked to remove the campaign's sandboxes now. */
      sandboxRemoval: 'requested' | 'not requested';
    };

/**
 * Cancels a campaign, for every entry point (web, API, CLI): no new attempt starts, queued ones become
 * CANCELLED, and running ones stop at their next heartbeat. The workers are asked, through the queue,
 * to remove its sandboxes at once so that running commands stop now: only workers touch the sandbox
 * engine (the web app holds no Docker socket, and the CLI may run where no sandbox does). If the
 * queue cannot take the request, the heartbeats still stop them; the cancel itself stands.
 */
export async function cancelCampaign(
  deps: CancelCampaignDeps,
  campaignId: string,
  actor: AuditActor,
): Promise<CancelCampaignResult> {
  const campaign = await deps.db.campaign.findUnique({ where: { id: campaignId }, select: { status: true } });
  if (!campaign) return { found: false };
  const result = await markCampaignCancelled(deps.db, campaignId);
  if (!result.cancelled) return { found: true, status: campaign.status, ...result, sandboxRemoval: 'not requested' };
  await recordAudit(deps.db, actor, { action: 'campaign.cancel', target: { type: 'campaign', id: campaignId } });
  const sandboxRemoval = await deps.queue.enqueue('campaign.cancel', { campaignId, request: Date.now() }).then(
    () => 'requested' as const,
    () => 'not requested' as const,
  );
  return { found: true, status: campaign.status, ...result, sandboxRemoval };
}

/** The worker's half of a cancel (the `campaign.cancel` job): removes every sandbox of the campaign. */
export async function removeCampaignSandboxes(executor: Pick<AttemptExecutor, 'removeSandboxes'>, campaignId: string) {
  return { sandboxesRemoved: await executor.removeSandboxes({ [CAMPAIGN_LABEL]: campaignId }) };
}
