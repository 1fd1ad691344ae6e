import { newId, type ProductVersion } from '@gitbench/core';
import type { Db } from '../client';
import type { AttemptStatus, CampaignStatus, OutputMode, Prisma } from '../generated/prisma/client';

/** What creating a campaign writes: the campaign, its targets and its frozen fixture definitions. */
export interface NewCampaign {
  name: string;
  createdBy: string;
  config: Prisma.InputJsonValue;
  configHash: string;
  seed: number;
  suiteVersion: string;
  trials: number;
  legacy?: boolean;
  /** The GitBench that creates the campaign (for a legacy import: the upstream harness's commit). */
  product?: Pick<ProductVersion, 'version' | 'dirty'>;
  /** A safety reviewer is configured: the campaign starts with its review pending (else not_configured). */
  safetyReviewPending?: boolean;
  /** `agent`: the third-party agent driving the model in agent mode; null or absent is GitBench's own loop. */
  targets: {
    modelId: string;
    baseModel: string;
    reasoningEffort: string | null;
    outputMode: OutputMode;
    agent?: string | null;
    profile: string;
  }[];
  fixtures: {
    domain: string;
    fixtureId: string;
    difficulty: string;
    tags: string[];
    scoringType: string;
    definition: Prisma.InputJsonValue;
  }[];
}

export async function insertCampaign(db: Db, input: NewCampaign): Promise<string> {
  const id = newId('campaign');
  await db.$transaction(
    async (tx) => {
      await tx.campaign.create({
        data: {
          id,
          name: input.name,
          createdBy: input.createdBy,
          config: input.config,
          configHash: input.configHash,
          seed: input.seed,
          suiteVersion: input.suiteVersion,
          trials: input.trials,
          legacy: input.legacy ?? false,
          productVersion: input.product?.version ?? null,
          productDirty: input.product?.dirty ?? null,
          ...(input.safetyReviewPending ? { safetyReview: 'pending' } : {}),
          // A legacy import is finished by whoever calls this; anything else is planned by plan job 1.
          status: 'PLANNING',
          planDispatchCount: 1,
          planDispatchedAt: new Date(),
        },
      });
      await tx.campaignTarget.createMany({
        data: input.targets.map((t) => ({ ...t, id: newId('target'), campaignId: id })),
      });
      await tx.fixtureSnapshot.createMany({
        data: input.fixtures.map((f) => ({ ...f, id: newId('fixtureSnapshot'), campaignId: id })),
      });
      // Prisma's default of 5 s is too short for a suite whose definitions carry large assets (fixtures/hard's
      // 26 took 5.6 s while the demo's other campaigns were building) and would fail the whole launch.
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  return id;
}

export interface CampaignProgress {
  status: CampaignStatus;
  total: number;
  byStatus: Partial<Record<AttemptStatus, number>>;
  done: number;
}

export async function campaignProgress(db: Db, campaignId: string): Promise<CampaignProgress> {
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { status: true } });
  const groups = await db.attempt.groupBy({ by: ['status'], where: { campaignId }, _count: { _all: true } });
  const byStatus: Partial<Record<AttemptStatus, number>> = {};
  let total = 0;
  for (const g of groups) {
    byStatus[g.status] = g._count._all;
    total += g._count._all;
  }
  const done = total - (byStatus.QUEUED ?? 0) - (byStatus.RUNNING ?? 0);
  return { status: campaign.status, total, byStatus, done };
}
