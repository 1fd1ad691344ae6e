import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  seedCampaignPlans,
  type CampaignPlan,
  type DashboardSeed,
  type TestDatabase,
} from '@gitbench/test-support';
import { leaderboardCsv } from '../lib/queries/export';
import { getLeaderboard } from '../lib/queries/leaderboard';
import * as ref from './support/dashboard-reference';

// Rankings that cannot mislead: a target with 3 attempts must not outrank one with 96 on its mean
// alone, and a row never sums campaigns of two suite versions unless the reader asks for that. The
// order and the rows are checked against the reference's own loops (support/dashboard-reference.ts).

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const THICK = 'rk/thick';
const THIN = 'rk/thin';
const SUITE_A = 'rk-a';
const SUITE_B = 'rk-b';

let t: TestDatabase;
let seed: DashboardSeed;

const fixtures = (domain: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    domain: `rk-${domain}`,
    fixtureId: `f${String(i + 1).padStart(3, '0')}`,
    difficulty: 'easy',
  }));
const text = (modelId: string) => ({ modelId, effort: null, outputMode: 'text' as const });
const skill = { [THICK]: { merge: 0.9, log: 0.25 }, [THIN]: { merge: 1, log: 0.75 } };
const PLANS: CampaignPlan[] = [
  // 32 fixtures × 3 trials: 96 attempts, most of them passing.
  {
    name: 'rk thick',
    trials: 3,
    suiteVersion: SUITE_A,
    targets: [text(THICK)],
    fixtures: fixtures('merge', 32),
    skill,
  },
  // One fixture × 3 trials, every one passing: the higher mean on three attempts.
  { name: 'rk thin', trials: 3, suiteVersion: SUITE_A, targets: [text(THIN)], fixtures: fixtures('merge', 1), skill },
  // The same models on another suite version, one trial each.
  {
    name: 'rk other suite',
    trials: 1,
    suiteVersion: SUITE_B,
    targets: [text(THICK), text(THIN)],
    fixtures: fixtures('log', 8),
    skill,
  },
];

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'rank');
  seed = await seedCampaignPlans(t.db, 'rk', PLANS);
});
afterAll(async () => {
  await t?.drop();
});

describe('the leaderboard ranking', () => {
  it('puts 96 attempts above 3 whose mean is higher: ordered by the Wilson lower bound', async () => {
    const expected = ref.targetRows(seed, { suite: SUITE_A });
    const thin = expected.find((r) => r.modelId === THIN)!;
    const thick = expected.find((r) => r.modelId === THICK)!;
    // The seed is what the test needs: by mean, thin would rank first.
    expect([thin.valid, thick.valid]).toEqual([3, 96]);
    expect(thin.passes / thin.valid).toBeGreaterThan(thick.passes / thick.valid);
    expect(ref.wilsonLow(thick.passes, thick.valid)!).toBeGreaterThan(ref.wilsonLow(thin.passes, thin.valid)!);

    const board = await getLeaderboard(t.db, {});
    const a = board.rows.filter((r) => r.suiteVersion === SUITE_A);
    expect(a.map((r) => [r.rank, r.modelId, r.meanSuccess.numerator, r.meanSuccess.denominator])).toEqual(
      ref.rankOrder(expected).map((r, i) => [i + 1, r.modelId, r.passes, r.valid]),
    );
    expect(a.map((r) => r.modelId)).toEqual([THICK, THIN]);
  });

  it('keeps rows of two suite versions apart, each ranked on its own, unless pooled on request', async () => {
    const board = await getLeaderboard(t.db, {});
    expect(board.pooled).toBe(false);
    // Newest campaign's suite first.
    expect(board.suites).toEqual([SUITE_B, SUITE_A]);
    const expected = ref.targetRows(seed, {});
    expect(expected).toHaveLength(4);
    expect(board.rows).toHaveLength(expected.length);
    for (const suite of [SUITE_A, SUITE_B]) {
      const got = board.rows.filter((r) => r.suiteVersion === suite);
      const want = ref.rankOrder(expected.filter((r) => r.suiteVersion === suite));
      expect(
        got.map((r) => [r.rank, r.modelId, r.attempts, r.meanSuccess.numerator, r.meanSuccess.denominator]),
        suite,
      ).toEqual(want.map((r, i) => [i + 1, r.modelId, r.attempts, r.passes, r.valid]));
    }
    // A suite of one-trial campaigns says so; the three-trial suite does not.
    expect(board.rows.map((r) => [r.suiteVersion, r.singleTrial]).sort()).toEqual([
      [SUITE_A, false],
      [SUITE_A, false],
      [SUITE_B, true],
      [SUITE_B, true],
    ]);
    // The export carries each row's suite.
    const [header, ...lines] = leaderboardCsv(board.rows).trimEnd().split('\n');
    expect(header!.split(',').slice(0, 3)).toEqual(['suite_version', 'rank', 'model']);
    expect(lines.map((l) => l.split(',').slice(0, 3))).toEqual(
      board.rows.map((r) => [r.suiteVersion, String(r.rank), r.modelId]),
    );

    const pooled = await getLeaderboard(t.db, { suite: 'all' });
    expect(pooled.pooled).toBe(true);
    const pooledWant = ref.rankOrder(ref.targetRows(seed, { suite: 'all' }));
    expect(pooled.rows.map((r) => [r.rank, r.suiteVersion, r.modelId, r.attempts, r.meanSuccess.numerator])).toEqual(
      pooledWant.map((r, i) => [i + 1, null, r.modelId, r.attempts, r.passes]),
    );
    expect(pooled.rows.map((r) => r.attempts).sort((x, y) => x - y)).toEqual([3 + 8, 96 + 8]);

    const one = await getLeaderboard(t.db, { suite: SUITE_B });
    expect(one.suites).toEqual([SUITE_B]);
    expect(one.rows.map((r) => r.suiteVersion)).toEqual([SUITE_B, SUITE_B]);
  });
});
