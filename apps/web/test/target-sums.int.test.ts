import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeAttempts, type AttemptRow, type CampaignFactsById, type ResourceMetric } from '@gitbench/core';
import { refreshCampaignStats, summarizeCampaign } from '@gitbench/db';
import { attemptRowsOf, createTestDatabase, seedRandomCampaign, type TestDatabase } from '@gitbench/test-support';
import type { Resource } from '../lib/queries/common';
import type { DashboardFilters } from '../lib/queries/filters';
import { getCampaignOverview } from '../lib/queries/campaign';
import { getLeaderboard } from '../lib/queries/leaderboard';

// The leaderboard sums maintained CampaignStats rows in SQL. Here the same attempts go through core's
// aggregation, slice by slice, and every figure of every row must agree: rates, classifications,
// pass_any_at_n, and the resources per complete trial and in total.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';

let t: TestDatabase;
const rows: AttemptRow[] = [];
const facts: Record<string, { trials: number; legacy: boolean }> = {};

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'board');
  const seeds: [number, number, boolean][] = [
    [11, 1, false],
    [12, 0.97, false],
    [13, 0.8, false],
    [14, 1, false],
    [15, 0.9, true],
  ];
  for (const [seed, validShare, legacy] of seeds) {
    const c = await seedRandomCampaign(t.db, seed, { validShare, legacy });
    await refreshCampaignStats(t.db, c.campaignId);
    facts[c.campaignId] = { trials: c.trials, legacy: c.legacy };
    rows.push(...(await attemptRowsOf(t.db, c.campaignId)));
  }
});
afterAll(async () => {
  await t?.drop();
});

function expectResource(actual: Resource, expected: ResourceMetric & { estimated?: boolean }, what: string) {
  expect({ known: actual.known, expected: actual.expected, partial: actual.partial }, what).toEqual({
    known: expected.known,
    expected: expected.expected,
    partial: expected.partial,
  });
  if (expected.value === null) expect(actual.value, what).toBeNull();
  else expect(actual.value, what).toBeCloseTo(expected.value, 6);
  if (expected.estimated !== undefined) expect(actual.estimated, what).toBe(expected.estimated);
}

const ALL = { legacy: '1', incomplete: '1' } as const;

describe('leaderboard sums of CampaignStats', () => {
  it.each<[string, DashboardFilters]>([
    ['every campaign', { ...ALL }],
    ['one domain', { ...ALL, domain: 'merge' }],
    ['one difficulty', { ...ALL, difficulty: 'easy' }],
    ['domain and difficulty', { ...ALL, domain: 'log', difficulty: 'medium' }],
    ['one output mode', { ...ALL, mode: 'json_schema' }],
  ])('%s: every figure equals core aggregation of the same attempts', async (_, filters) => {
    const slice = rows.filter(
      (r) =>
        (!filters.domain || r.domain === filters.domain) &&
        (!filters.difficulty || r.difficulty === filters.difficulty) &&
        (!filters.mode || r.outputMode === filters.mode),
    );
    const expected = summarizeAttempts(slice, facts as CampaignFactsById, ['target']);
    const board = await getLeaderboard(t.db, filters);
    expect(board.rows).toHaveLength(expected.length);
    expect(expected.some((g) => g.resources.completeTrials > 0)).toBe(true);

    for (const g of expected) {
      const r = board.rows.find((x) => x.modelId === g.key.modelId && x.outputMode === g.key.outputMode);
      const what = `${g.key.modelId} ${g.key.outputMode}`;
      expect(r, what).toBeDefined();
      expect(r!.attempts).toBe(g.attempts);
      expect([r!.meanSuccess.numerator, r!.meanSuccess.denominator]).toEqual([
        g.meanSuccess.numerator,
        g.meanSuccess.denominator,
      ]);
      if (g.classification.applicable) {
        expect(r!.classification).toMatchObject({
          stablePass: g.classification.stable_pass,
          stableFail: g.classification.stable_fail,
          flaky: g.classification.flaky,
          unknown: g.classification.unknown,
        });
      }
      if (g.passAnyAtN.applicable && r!.passAny.applicable) {
        for (const p of r!.passAny.points) {
          const core = g.passAnyAtN.points.find((x) => x.n === p.n);
          expect([p.numerator, p.denominator], `${what} n=${p.n}`).toEqual(
            core ? [core.numerator, core.denominator] : [0, 0],
          );
        }
      }
      const res = g.resources;
      expect({ rounds: r!.trialRounds, complete: r!.completeTrials }, what).toEqual({
        rounds: res.trialRounds,
        complete: res.completeTrials,
      });
      expectResource(r!.perTrial.costUsd, res.perCompleteTrial.costUsd, `${what} cost per complete trial`);
      expectResource(r!.perTrial.tokens, res.perCompleteTrial.tokens, `${what} tokens per complete trial`);
      expectResource(
        r!.perTrial.apiDurationMs,
        res.perCompleteTrial.apiDurationMs,
        `${what} API time per complete trial`,
      );
      expectResource(r!.totals.costUsd, res.totals.costUsd, `${what} total cost`);
      expectResource(r!.totals.tokens, res.totals.tokens, `${what} total tokens`);
      expectResource(r!.totals.apiDurationMs, res.totals.apiDurationMs, `${what} total API time`);
    }
  });
});

describe("a campaign's figures", () => {
  it('are the same for the CLI and the API (summarizeCampaign) as on its page', async () => {
    for (const campaignId of Object.keys(facts)) {
      const [summary, page] = await Promise.all([
        summarizeCampaign(t.db, campaignId),
        getCampaignOverview(t.db, campaignId),
      ]);
      expect(summary!.perTarget.length).toBeGreaterThan(0);
      expect(summary!.perTarget).toEqual(page!.perModel);
    }
  });
});
