import type { CampaignConfigErrors, ProductVersion } from '@gitbench/core';
import { insertCampaign, recordAudit, type AuditActor, type Db, type Prisma } from '@gitbench/db';
import type { QueueClient } from '@gitbench/queue';
import { prepareCampaign, type PrepareCampaignDeps } from './prepare-campaign';

export interface CreateCampaignDeps extends PrepareCampaignDeps {
  db: Db;
  queue: Pick<QueueClient, 'enqueue'>;
  /** This process's GitBench version, recorded with the campaign. */
  productVersion: ProductVersion;
  /** A safety reviewer is configured: the campaign starts with its review pending (else not_configured). */
  safetyReviewConfigured?: boolean;
}

export type CreateCampaignResult =
  | {
      ok: true;
      campaignId: string;
      attempts: number;
      fixtures: number;
      targets: number;
      queued: boolean;
      queueError?: string;
    }
  | { ok: false; errors: CampaignConfigErrors };

/**
 * Creates a campaign, for every entry point (web, API, CLI): the configuration is checked against the
 * suite and the profiles; the row, its targets and its frozen fixture definitions are written in one
 * transaction; the creation is audited; then planning is handed to a worker. An invalid configuration
 * writes nothing. If the queue is unreachable the campaign stays PLANNING (recorded as plan dispatch 1)
 * and every worker's reaper sends the plan job again once it is; the caller is told.
 */
export async function createCampaign(
  deps: CreateCampaignDeps,
  input: unknown,
  actor: AuditActor,
): Promise<CreateCampaignResult> {
  const prepared = await prepareCampaign(input, deps);
  if (!prepared.ok) return prepared;
  const { config, plan, profiles } = prepared;
  const campaignId = await insertCampaign(deps.db, {
    name: config.name,
    createdBy: config.createdBy,
    config: config as unknown as Prisma.InputJsonValue,
    configHash: prepared.hash,
    seed: config.seed,
    suiteVersion: config.fixtures.suiteVersion ?? prepared.suite.version,
    trials: config.trials,
    product: deps.productVersion,
    safetyReviewPending: deps.safetyReviewConfigured ?? false,
    targets: plan.targets.map((t) => ({
      modelId: t.modelId,
      baseModel: t.baseModel,
      reasoningEffort: t.reasoningEffort,
      outputMode: t.outputMode,
      agent: t.agent,
      profile: profiles.get(t.modelId) ?? profiles.get(t.baseModel) ?? 'builtin',
    })),
    fixtures: plan.fixtures.map((f) => ({
      domain: f.domain,
      fixtureId: f.id,
      difficulty: f.difficulty,
      tags: f.tags,
      scoringType: f.scoring.type,
      definition: f as unknown as Prisma.InputJsonValue,
    })),
  });
  const counts = { attempts: plan.attempts.length, fixtures: plan.fixtures.length, targets: plan.targets.length };
  await recordAudit(deps.db, actor, {
    action: 'campaign.create',
    target: { type: 'campaign', id: campaignId },
    detail: { attempts: counts.attempts },
  });
  try {
    await deps.queue.enqueue('campaign.plan', { campaignId, dispatch: 1 });
    return { ok: true, campaignId, ...counts, queued: true };
  } catch (err) {
    return { ok: true, campaignId, ...counts, queued: false, queueError: (err as Error).message };
  }
}
