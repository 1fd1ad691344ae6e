import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  planLegacyImport,
  summarizeAttempts,
  summarizeResources,
  type AttemptRow,
  type CampaignFactsById,
} from '@gitbench/core';
import { importLegacyCampaign, refreshCampaignStats, refreshStaleCampaignStats } from '../src';
import {
  attemptRowsOf,
  createTestDatabase,
  seedRandomCampaign,
  type RandomCampaignOptions,
  type TestDatabase,
} from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
import { UPSTREAM_RESULTS as RESULTS } from '../../core/test/fixtures/upstream-data';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'stats');
});
afterAll(async () => {
  await t?.drop();
});

const seedRandom = (seed: number, opts?: RandomCampaignOptions) => seedRandomCampaign(t.db, seed, opts);

type StatsRow = Awaited<ReturnType<typeof t.db.campaignStats.findMany>>[number];
type RollUpRow = Awaited<ReturnType<typeof t.db.campaignTargetStats.findMany>>[number];
type Group = ReturnType<typeof summarizeAttempts>[number];

/** Every figure of one stats row (either granularity) against core's summary of the same attempts. */
function expectRowMatchesCore(
  r: StatsRow | RollUpRow,
  g: Group,
  inGroup: AttemptRow[],
  trials: number,
  legacy: boolean,
) {
  const sc = g.statusCounts;
  expect(r.reasoningEffort).toBe(g.key.effort);
  expect(r.attempts).toBe(g.attempts);
  expect({ passes: r.passes, valid: r.valid }).toEqual({
    passes: g.meanSuccess.numerator,
    valid: g.meanSuccess.denominator,
  });
  expect(r.infraFailures).toBe(sc.INFRA_FAILURE ?? 0);
  expect(r.unscored).toBe(sc.UNSCORED ?? 0);
  expect(r.infraFailures + r.unscored + r.otherExcluded + r.valid).toBe(g.attempts);
  if (g.classification.applicable) {
    const cl = g.classification;
    expect({ sp: r.stablePass, sf: r.stableFail, fl: r.flaky, un: r.unknown }).toEqual({
      sp: cl.stable_pass,
      sf: cl.stable_fail,
      fl: cl.flaky,
      un: cl.unknown,
    });
    expect(r.fixtures).toBe(cl.stable_pass + cl.stable_fail + cl.flaky + cl.unknown);
  } else {
    expect(legacy).toBe(true);
    expect(r.stablePass + r.stableFail + r.flaky + r.unknown).toBe(0);
  }
  if (g.passAnyAtN.applicable) {
    expect(r.passAnyNum).toEqual(g.passAnyAtN.points.map((p) => p.numerator));
    expect(r.passAnyDen).toEqual(g.passAnyAtN.points.map((p) => p.denominator));
  } else {
    expect(r.passAnyNum).toEqual([]);
  }
  const totals = g.resources.totals;
  expect(r.costKnown).toBe(totals.costUsd.known);
  expect(r.costExpected).toBe(totals.costUsd.expected);
  expect(r.costUsd).toBeCloseTo(totals.costUsd.value ?? 0, 9);
  expect(r.costEstimated > 0).toBe(totals.costUsd.estimated);
  expect({ value: Number(r.totalTokens), known: r.tokensKnown, expected: r.tokensExpected }).toEqual({
    value: totals.tokens.value ?? 0,
    known: totals.tokens.known,
    expected: totals.tokens.expected,
  });
  expect({ value: Number(r.apiDurationMs), known: r.apiKnown, expected: r.apiExpected }).toEqual({
    value: totals.apiDurationMs.value ?? 0,
    known: totals.apiDurationMs.known,
    expected: totals.apiDurationMs.expected,
  });

  // Per trial: core's resource summary of just that trial's attempts in the group is one round.
  expect(r.trialAttempts).toHaveLength(trials);
  for (let trial = 1; trial <= trials; trial++) {
    const round = inGroup.filter((a) => a.trial === trial);
    const one = summarizeResources(round);
    const i = trial - 1;
    expect(r.trialAttempts[i], `trial ${trial}`).toBe(round.length);
    expect((r.trialAttempts[i] ?? 0) > 0 && r.trialValid[i] === r.trialAttempts[i]).toBe(one.completeTrials === 1);
    const known = (m: 'costUsd' | 'tokens' | 'apiDurationMs') => round.filter((a) => a[m] !== null).length;
    expect({ cost: r.trialCostKnown[i], tokens: r.trialTokensKnown[i], api: r.trialApiKnown[i] }).toEqual({
      cost: known('costUsd'),
      tokens: known('tokens'),
      api: known('apiDurationMs'),
    });
    expect(r.trialCostUsd[i]).toBeCloseTo(
      round.reduce((x, a) => x + (a.costUsd ?? 0), 0),
      9,
    );
    expect(r.trialCostEstimated[i]! > 0).toBe(one.totals.costUsd.estimated);
    expect(Number(r.trialTokens[i])).toBe(round.reduce((x, a) => x + (a.tokens ?? 0), 0));
    expect(Number(r.trialApiMs[i])).toBe(round.reduce((x, a) => x + (a.apiDurationMs ?? 0), 0));
  }
}

async function expectStatsMatchCore(campaignId: string, trials: number, legacy: boolean) {
  const rows = await attemptRowsOf(t.db, campaignId);
  const facts: CampaignFactsById = { [campaignId]: { trials, legacy } };
  const sameTarget = (a: Pick<AttemptRow, 'modelId' | 'outputMode'>, key: Group['key']) =>
    a.modelId === key.modelId && a.outputMode === key.outputMode;

  const result = await refreshCampaignStats(t.db, campaignId);
  expect(result.attempts).toBe(rows.length);

  // One row per (target, domain, difficulty) ...
  const expected = summarizeAttempts(rows, facts, ['campaign', 'target', 'domain', 'difficulty']);
  const stats = await t.db.campaignStats.findMany({ where: { campaignId } });
  expect(stats).toHaveLength(expected.length);
  for (const g of expected) {
    const row = stats.find(
      (s) => sameTarget(s, g.key) && s.domain === g.key.domain && s.difficulty === g.key.difficulty,
    );
    expect(row, JSON.stringify(g.key)).toBeDefined();
    const inGroup = rows.filter(
      (a) => sameTarget(a, g.key) && a.domain === g.key.domain && a.difficulty === g.key.difficulty,
    );
    expectRowMatchesCore(row!, g, inGroup, trials, legacy);
  }
  // ... and its roll-up, one row per target.
  const perTarget = summarizeAttempts(rows, facts, ['campaign', 'target']);
  const rollUp = await t.db.campaignTargetStats.findMany({ where: { campaignId } });
  expect(rollUp).toHaveLength(perTarget.length);
  for (const g of perTarget) {
    const row = rollUp.find((s) => sameTarget(s, g.key));
    expect(row, JSON.stringify(g.key)).toBeDefined();
    expectRowMatchesCore(
      row!,
      g,
      rows.filter((a) => sameTarget(a, g.key)),
      trials,
      legacy,
    );
  }
}

describe('refreshCampaignStats', () => {
  it.each([
    [1, 0.6],
    [2, 0.6],
    [3, 0.9],
    [4, 0.97],
    [5, 1],
    [6, 1],
  ])(
    'random attempt set %i (valid share %d): stats rows equal core aggregation over the same attempts',
    async (seed, validShare) => {
      const { campaignId, trials, legacy } = await seedRandom(seed, { validShare });
      await expectStatsMatchCore(campaignId, trials, legacy);
    },
  );

  it('is idempotent and reflects later changes', async () => {
    const { campaignId, trials } = await seedRandom(42);
    await refreshCampaignStats(t.db, campaignId);
    await t.db.attempt.updateMany({
      where: { campaignId, status: { in: ['QUEUED', 'RUNNING'] } },
      data: { status: 'VALID_PASS' },
    });
    await Promise.all([refreshCampaignStats(t.db, campaignId), refreshCampaignStats(t.db, campaignId)]);
    await expectStatsMatchCore(campaignId, trials, false);
  });

  it('legacy imports: counts only, no stability or pass_any claims', async () => {
    for (const file of readdirSync(RESULTS).filter((f) => f.endsWith('.json'))) {
      const plan = planLegacyImport(file, readFileSync(path.join(RESULTS, file), 'utf8'));
      const { campaignId } = await importLegacyCampaign(t.db, file, plan);
      await expectStatsMatchCore(campaignId, 1, true);
      const sums = await t.db.campaignStats.aggregate({
        where: { campaignId },
        _sum: { passes: true, attempts: true },
      });
      expect(sums._sum.attempts).toBe(plan.attempts.length);
      expect(sums._sum.passes).toBe(plan.attempts.filter((a) => a.status === 'VALID_PASS').length);
    }
  });

  it('finds and refreshes stale stats: never refreshed, marked stale, or older than a finished attempt', async () => {
    const { campaignId } = await seedRandom(77);
    expect(await refreshStaleCampaignStats(t.db, { campaignId })).toEqual([campaignId]);
    expect(await refreshStaleCampaignStats(t.db, { campaignId })).toEqual([]);
    await t.db.attempt.updateMany({
      where: { campaignId, trial: 1 },
      data: { finishedAt: new Date(Date.now() + 60_000) },
    });
    expect(await refreshStaleCampaignStats(t.db, { campaignId })).toEqual([campaignId]);
    // What a migration does to rows it cannot fill: the epoch marks them stale.
    await t.db.campaignStats.updateMany({ where: { campaignId }, data: { refreshedAt: new Date(0) } });
    expect(await refreshStaleCampaignStats(t.db)).toContain(campaignId);
    const { trials } = await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
    await expectStatsMatchCore(campaignId, trials, false);
  });

  it('an unknown campaign is an error, not an empty refresh', async () => {
    await expect(refreshCampaignStats(t.db, 'cmp_missing')).rejects.toThrow(/does not exist/);
  });
});
