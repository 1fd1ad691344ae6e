import { ATTEMPT_STATUSES, type AttemptRow, type AttemptStatus } from '@gitbench/core';
import { insertCampaign, type Db, type Prisma } from '@gitbench/db';

/**
 * Seed factories for tests that compare SQL aggregates with core's aggregation: a campaign with
 * random statuses, missing rows and unknown resources, reproducible from its seed.
 */

/** Small deterministic PRNG so a failing case can be replayed from its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomCampaignOptions {
  legacy?: boolean;
  /** Share of attempts that are VALID_PASS / VALID_FAIL; the rest take any status. Default 0.8. */
  validShare?: number;
}

export async function seedRandomCampaign(db: Db, seed: number, opts: RandomCampaignOptions = {}) {
  const legacy = opts.legacy ?? false;
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const trials = legacy ? 1 : 1 + Math.floor(rand() * 4);
  const domains = ['log', 'merge', 'rebase'].slice(0, 1 + Math.floor(rand() * 3));
  const fixtures = domains.flatMap((domain) =>
    Array.from({ length: 2 + Math.floor(rand() * 4) }, (_, i) => ({
      domain,
      fixtureId: `f${String(i + 1).padStart(3, '0')}`,
      difficulty: pick(['easy', 'medium', 'hard']),
      tags: [],
      scoringType: 'exact_match',
      definition: {},
    })),
  );
  const targets = [
    { modelId: 'mock/a', baseModel: 'mock/a', reasoningEffort: null, outputMode: 'text' as const, profile: 'mock' },
    {
      modelId: 'mock/b#high',
      baseModel: 'mock/b',
      reasoningEffort: 'high',
      outputMode: 'json_schema' as const,
      profile: 'mock',
    },
  ];
  const campaignId = await insertCampaign(db, {
    name: `random ${seed}`,
    createdBy: 'test',
    config: {},
    configHash: `h${seed}`,
    seed,
    suiteVersion: 'test',
    trials,
    legacy,
    targets,
    fixtures,
  });
  const c = await db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    include: { targets: true, fixtures: true },
  });
  // Skewed towards valid outcomes, as real campaigns are, but every status appears.
  const validShare = opts.validShare ?? 0.8;
  const data: Prisma.AttemptCreateManyInput[] = [];
  for (const target of c.targets) {
    for (const f of c.fixtures) {
      for (let trial = 1; trial <= trials; trial++) {
        if (rand() < 0.05) continue; // a missing attempt row
        const status: AttemptStatus =
          rand() < validShare ? pick(['VALID_PASS', 'VALID_PASS', 'VALID_FAIL'] as const) : pick(ATTEMPT_STATUSES);
        const cost = rand() < 0.2 ? null : Math.round(rand() * 1e6) / 1e6;
        data.push({
          id: `att_${seed}_${data.length}`,
          campaignId,
          targetId: target.id,
          fixtureSnapshotId: f.id,
          trial,
          modelId: target.modelId,
          reasoningEffort: target.reasoningEffort,
          outputMode: target.outputMode,
          domain: f.domain,
          fixtureId: f.fixtureId,
          difficulty: f.difficulty,
          status,
          totalTokens: rand() < 0.1 ? null : Math.floor(rand() * 5000),
          costUsd: cost,
          costEstimated: cost !== null && rand() < 0.3,
          apiDurationMs: rand() < 0.1 ? null : Math.floor(rand() * 9000),
        });
      }
    }
  }
  await db.attempt.createMany({ data });
  return { campaignId, trials, legacy };
}

/** A campaign's attempts as core's aggregation reads them. */
export async function attemptRowsOf(db: Db, campaignId: string): Promise<AttemptRow[]> {
  const attempts = await db.attempt.findMany({ where: { campaignId } });
  return attempts.map((a) => ({
    campaignId: a.campaignId,
    modelId: a.modelId,
    effort: a.reasoningEffort,
    outputMode: a.outputMode,
    domain: a.domain,
    fixtureId: a.fixtureId,
    difficulty: a.difficulty,
    trial: a.trial,
    status: a.status,
    tokens: a.totalTokens,
    costUsd: a.costUsd,
    costEstimated: a.costEstimated,
    apiDurationMs: a.apiDurationMs,
  }));
}
