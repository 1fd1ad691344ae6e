import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, seedCampaignPlans, type CampaignPlan, type TestDatabase } from '@gitbench/test-support';
import { getHumanBaselines } from '../lib/queries/fixture';
import { getLeaderboard } from '../lib/queries/leaderboard';

// A person's baseline (target human:<name>, gitbench human) is shown beside the models, never ranked
// among them: a perfect person on many fixtures would otherwise take rank 1 and push every model down.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const SUITE = 'hb-1';
const fixtures = Array.from({ length: 12 }, (_, i) => ({
  domain: 'hb-merge',
  fixtureId: `f${String(i + 1).padStart(3, '0')}`,
  difficulty: 'hard',
}));
const agent = (modelId: string) => ({ modelId, effort: null, outputMode: 'agent' as const });
const PLANS: CampaignPlan[] = [
  {
    name: 'hb models',
    trials: 2,
    suiteVersion: SUITE,
    targets: [agent('hb/strong'), agent('hb/weak')],
    fixtures,
    skill: { 'hb/strong': { merge: 0.6 }, 'hb/weak': { merge: 0.2 } },
  },
  {
    name: 'hb person',
    trials: 1,
    suiteVersion: SUITE,
    targets: [agent('human:ana')],
    fixtures,
    skill: { 'human:ana': { merge: 1 } },
  },
];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'humanbase');
  await seedCampaignPlans(t.db, 'hb', PLANS);
});
afterAll(async () => t?.drop());

describe('human baselines', () => {
  it('are left out of the ranking and listed beside it, unranked; the models are numbered from 1', async () => {
    const board = await getLeaderboard(t.db, {});
    expect(board.rows.map((r) => [r.rank, r.modelId])).toEqual([
      [1, 'hb/strong'],
      [2, 'hb/weak'],
    ]);
    expect(
      board.humans.map((r) => [r.rank, r.modelId, r.meanSuccess.numerator, r.meanSuccess.denominator, r.suiteVersion]),
    ).toEqual([[0, 'human:ana', 12, 12, SUITE]]);
  });

  it('are listed on the fixture page with their outcome, whichever campaigns hold them', async () => {
    const baselines = await getHumanBaselines(t.db, 'hb-merge', 'f003');
    expect(baselines.map((b) => [b.modelId, b.status, b.passed])).toEqual([['human:ana', 'VALID_PASS', true]]);
    expect(await getHumanBaselines(t.db, 'hb-merge', 'f999')).toEqual([]);
  });
});
