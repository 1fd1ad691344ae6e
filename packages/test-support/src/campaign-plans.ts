import { newId, type AttemptStatus, type Mode } from '@gitbench/core';
import { insertCampaign, refreshCampaignStats, type Db, type Prisma } from '@gitbench/db';
import { prng } from './random-campaign';

// Completed campaigns written from plans (targets, fixtures, skill, exclusions), returned as plain data.

export interface SeededTarget {
  modelId: string;
  effort: string | null;
  outputMode: Mode;
}

export interface SeededFixture {
  domain: string;
  fixtureId: string;
  difficulty: string;
}

export interface SeededCampaign {
  id: string;
  name: string;
  legacy: boolean;
  trials: number;
  suiteVersion: string;
  safetyReview: string;
  createdAt: string;
  targets: SeededTarget[];
  fixtures: SeededFixture[];
}

export interface SeededAttempt extends SeededTarget, SeededFixture {
  id: string;
  campaignId: string;
  trial: number;
  /** The attempt's outcome: its settling try's. */
  status: AttemptStatus;
  /** Every try's status, in order; the last is the settling one. */
  tries: AttemptStatus[];
  costUsd: number | null;
  costEstimated: boolean;
  tokens: number | null;
  apiDurationMs: number | null;
}

export interface DashboardSeed {
  campaigns: SeededCampaign[];
  attempts: SeededAttempt[];
}

/** One seeded campaign: what it runs, and how likely each attempt is to pass. */
export interface CampaignPlan {
  name: string;
  trials: number;
  suiteVersion: string;
  legacy?: boolean;
  safetyReview?: string;
  targets: SeededTarget[];
  fixtures: SeededFixture[];
  /** Chance that an attempt of a model passes, by model and domain. */
  skill: Record<string, Record<string, number>>;
  /** Final statuses other than a valid outcome, dealt in turn to every `every`-th attempt (the rest are valid). */
  excluded?: { statuses: AttemptStatus[]; every: number };
  /** Leave the attempts at these slots (counted in writing order, modulo `every`) unwritten: planned, never run. */
  missing?: { every: number; at: number };
}

/**
 * Writes each plan as a completed campaign with its attempts, tries and stats, oldest first, and
 * returns every attempt as plain data. `prefix` is the one the plans' domains carry.
 */
export async function seedCampaignPlans(
  db: Db,
  prefix: string,
  plans: readonly CampaignPlan[],
  rand: () => number = prng(7),
): Promise<DashboardSeed> {
  const out: DashboardSeed = { campaigns: [], attempts: [] };
  // Oldest first, a day apart, so "newest first" and "over time" have one right order.
  const base = Date.UTC(2026, 9, 1);
  for (const [i, plan] of plans.entries()) {
    const createdAt = new Date(base + i * 86_400_000);
    const campaignId = await insertCampaign(db, {
      name: plan.name,
      createdBy: 'seed',
      config: {},
      configHash: `${prefix}-${i}`,
      seed: i,
      suiteVersion: plan.suiteVersion,
      trials: plan.trials,
      legacy: plan.legacy ?? false,
      targets: plan.targets.map((t) => ({
        modelId: t.modelId,
        reasoningEffort: t.effort,
        outputMode: t.outputMode,
        baseModel: t.modelId.split('#')[0]!,
        profile: 'seed',
      })),
      fixtures: plan.fixtures.map((f) => ({
        ...f,
        tags: [],
        scoringType: 'exact_match',
        definition: {
          id: f.fixtureId,
          domain: f.domain,
          prompt: `Prompt of ${f.domain}/${f.fixtureId}`,
          expected: 'git status',
          difficulty: f.difficulty,
        },
      })),
    });
    const safetyReview = plan.safetyReview ?? 'not_configured';
    await db.campaign.update({
      where: { id: campaignId },
      data: {
        status: 'COMPLETED',
        createdAt,
        startedAt: createdAt,
        finishedAt: new Date(createdAt.getTime() + 600_000),
        safetyReview,
      },
    });
    out.campaigns.push({
      id: campaignId,
      name: plan.name,
      legacy: plan.legacy ?? false,
      trials: plan.trials,
      suiteVersion: plan.suiteVersion,
      safetyReview,
      createdAt: createdAt.toISOString(),
      targets: plan.targets,
      fixtures: plan.fixtures,
    });

    const c = await db.campaign.findUniqueOrThrow({
      where: { id: campaignId },
      include: { targets: true, fixtures: true },
    });
    const rows: Prisma.AttemptCreateManyInput[] = [];
    const tries: Prisma.AttemptTryCreateManyInput[] = [];
    let slot = 0;
    for (const target of c.targets) {
      for (const f of c.fixtures) {
        for (let trial = 1; trial <= plan.trials; trial++) {
          const k = slot++;
          if (plan.missing && k % plan.missing.every === plan.missing.at) continue;
          const ex = plan.excluded;
          const excluded =
            ex && k % ex.every === 1 ? ex.statuses[Math.floor(k / ex.every) % ex.statuses.length]! : null;
          const status: AttemptStatus =
            excluded ??
            (rand() < plan.skill[target.modelId]![f.domain.slice(prefix.length + 1)]! ? 'VALID_PASS' : 'VALID_FAIL');
          // Some attempts settled only on a later try: the earlier tries were infrastructure failures.
          const earlier = status === 'QUEUED' ? 0 : rand() < 0.2 ? 1 + Math.floor(rand() * 2) : 0;
          const history: AttemptStatus[] = [
            ...Array<AttemptStatus>(earlier).fill('INFRA_FAILURE'),
            ...(status === 'QUEUED' ? [] : [status]),
          ];
          const answered =
            status === 'VALID_PASS' || status === 'VALID_FAIL' || status === 'UNSCORED' || status === 'SAFETY_BLOCKED';
          const costUsd = answered && rand() >= 0.2 ? Math.round(rand() * 40_000) / 1e6 : null;
          const attempt: SeededAttempt = {
            id: newId('attempt'),
            campaignId,
            modelId: target.modelId,
            effort: target.reasoningEffort,
            outputMode: target.outputMode,
            domain: f.domain,
            fixtureId: f.fixtureId,
            difficulty: f.difficulty,
            trial,
            status,
            tries: history,
            costUsd,
            costEstimated: costUsd !== null && rand() < 0.3,
            tokens: answered && rand() >= 0.1 ? 200 + Math.floor(rand() * 4000) : null,
            apiDurationMs: answered && rand() >= 0.1 ? 300 + Math.floor(rand() * 9000) : null,
          };
          out.attempts.push(attempt);
          rows.push({
            id: attempt.id,
            campaignId,
            targetId: target.id,
            fixtureSnapshotId: f.id,
            trial,
            modelId: attempt.modelId,
            reasoningEffort: attempt.effort,
            outputMode: attempt.outputMode,
            domain: attempt.domain,
            fixtureId: attempt.fixtureId,
            difficulty: attempt.difficulty,
            status,
            passed: status === 'VALID_PASS' ? true : status === 'VALID_FAIL' ? false : null,
            score: status === 'VALID_PASS' ? 1 : status === 'VALID_FAIL' ? 0 : null,
            tryCount: history.length,
            totalTokens: attempt.tokens,
            costUsd: attempt.costUsd,
            costEstimated: attempt.costEstimated,
            apiDurationMs: attempt.apiDurationMs,
            startedAt: status === 'QUEUED' ? null : createdAt,
            finishedAt: status === 'QUEUED' ? null : createdAt,
          });
          history.forEach((s, n) =>
            tries.push({
              id: newId('attemptTry'),
              attemptId: attempt.id,
              tryNumber: n + 1,
              workerId: 'seed',
              status: s,
              startedAt: createdAt,
              finishedAt: createdAt,
              errorClass: s === 'INFRA_FAILURE' ? 'sandbox_error' : null,
            }),
          );
        }
      }
    }
    await db.attempt.createMany({ data: rows });
    await db.attemptTry.createMany({ data: tries });
    await refreshCampaignStats(db, campaignId);
  }
  return out;
}
