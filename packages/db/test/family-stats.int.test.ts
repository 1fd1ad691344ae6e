import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAttemptEvidence } from '@gitbench/core';
import { familiesInCampaigns, familyStats } from '../src';
import { createTestDatabase, seedFamilyCampaign, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';

let t: TestDatabase;
let seeded: Awaited<ReturnType<typeof seedFamilyCampaign>>;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'family_stats');
  seeded = await seedFamilyCampaign(t.db);
});
afterAll(async () => {
  await t?.drop();
});

describe('family stats', () => {
  it('seeds evidence records the attempt page can parse', async () => {
    const tries = await t.db.attemptTry.findMany({ where: { attempt: { campaignId: seeded.campaignId } } });
    expect(tries).toHaveLength(8);
    for (const tr of tries) expect(() => parseAttemptEvidence(tr.evidence)).not.toThrow();
  });

  it('lists the families a campaign has', async () => {
    const families = await familiesInCampaigns(t.db, [seeded.campaignId]);
    expect(Object.fromEntries(families.map((f) => [f.family, f.attempts]))).toEqual({ repo_task: 3, gist: 2, ggb: 3 });
    expect(new Set(families.map((f) => f.campaignId))).toEqual(new Set([seeded.campaignId]));
  });

  it(
    'repository tasks: ECR and TPR over every task, ' + 'the timed-out grader counted; alpha over known costs',
    async () => {
      const [row] = await familyStats(t.db, 'repo_task', [seeded.campaignId]);
      if (row?.metrics.family !== 'repo_task') throw new Error('no repo_task row');
      expect(row.metrics.metrics.ecr).toMatchObject({ numerator: 2, denominator: 3 });
      expect(row.metrics.metrics.tpr).toMatchObject({ numerator: 1, denominator: 3 });
      const alpha = row.metrics.metrics.alpha;
      expect({ n: alpha.n, unknownCost: alpha.unknownCost }).toEqual({ n: 2, unknownCost: 1 });
      expect(alpha.value).toBeCloseTo((1 * 5 * 1 - 0.021 + (1 * 5 * 0.25 - 0.034)) / 2, 9);
    },
  );

  it('gists: fidelity over every task and the mean line rates', async () => {
    const [row] = await familyStats(t.db, 'gist', [seeded.campaignId]);
    if (row?.metrics.family !== 'gist') throw new Error('no gist row');
    expect(row.metrics.metrics.fidelity).toMatchObject({ numerator: 1, denominator: 2 });
    expect(row.metrics.metrics.lineExecution.n).toBe(1);
    expect(row.metrics.metrics.failures).toEqual({ missing_test: 1 });
  });

  it('GitGoodBench: success and solve per scenario, the unscored ICC out of the solve denominator', async () => {
    const [row] = await familyStats(t.db, 'ggb', [seeded.campaignId]);
    if (row?.metrics.family !== 'ggb') throw new Error('no ggb row');
    expect(row.metrics.metrics.overall.success).toMatchObject({ numerator: 3, denominator: 3 });
    expect(row.metrics.metrics.overall.solve).toMatchObject({ numerator: 1, denominator: 2 });
    expect(row.metrics.metrics.byBand.map((b) => `${b.scenario}/${b.difficulty}`)).toEqual([
      'mcr/easy',
      'ir/medium',
      'icc/easy',
    ]);
  });
});
