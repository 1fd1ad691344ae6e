import { describe, expect, it } from 'vitest';
import {
  campaignCompleteness,
  classifySeries,
  buildSeries,
  countStatuses,
  isRankingEligible,
  passAnyAtN,
  summarizeAttempts,
  summarizeResources,
  summarizeSeries,
  wallClockMs,
  type CampaignFactsById,
} from '../../src/aggregation';
import { row, series } from './helpers';

const campaigns: CampaignFactsById = { cmp_1: { trials: 3, legacy: false }, cmp_old: { trials: 1, legacy: true } };

describe('mean success, classification and pass_any_at_n', () => {
  const rows = [
    ...series('PPP', { fixtureId: 'f1' }),
    ...series('FFF', { fixtureId: 'f2' }),
    ...series('FPF', { fixtureId: 'f3' }),
    ...series('F-P', { fixtureId: 'f4' }),
    ...series('---', { fixtureId: 'f5' }),
  ];

  it('counts only valid attempts in mean success', () => {
    const [target] = summarizeAttempts(rows, campaigns, ['target']);
    expect(target!.meanSuccess).toMatchObject({ numerator: 5, denominator: 11 });
    expect(target!.meanSuccess.value).toBeCloseTo(5 / 11);
    expect(target!.attempts).toBe(15);
    expect(target!.statusCounts).toEqual({ VALID_PASS: 5, VALID_FAIL: 6, INFRA_FAILURE: 4 });
  });

  it('classifies each series; short series are classified on their valid attempts and marked partial', () => {
    const byFixture = Object.fromEntries(
      summarizeSeries(rows, campaigns).map((s) => [s.series.fixtureId, s.classification]),
    );
    expect(byFixture.f1).toMatchObject({ class: 'stable_pass', evidence: 'full' });
    expect(byFixture.f2).toMatchObject({ class: 'stable_fail', evidence: 'full' });
    expect(byFixture.f3).toMatchObject({ class: 'flaky', passes: 1, valid: 3 });
    expect(byFixture.f4).toMatchObject({ class: 'flaky', evidence: 'partial', valid: 2 });
    expect(byFixture.f5).toMatchObject({ class: 'unknown', valid: 0 });
    const [target] = summarizeAttempts(rows, campaigns, ['target']);
    expect(target!.classification).toEqual({
      applicable: true,
      stable_pass: 1,
      stable_fail: 1,
      flaky: 2,
      unknown: 1,
      partialEvidence: 2,
      legacySeriesLeftOut: 0,
    });
  });

  it('computes pass_any_at_n over series that have n valid attempts', () => {
    const [target] = summarizeAttempts(rows, campaigns, ['target']);
    const points = target!.passAnyAtN.applicable ? target!.passAnyAtN.points : [];
    // n=1: f1 P, f2 F, f3 F, f4 F (its first valid attempt) → 1/4; f5 has none.
    // n=2: f1, f3 pass; f2 no; f4 has F,P → pass → 3/4. n=3: f4 has only 2 valid → 2/3.
    expect(points.map((p) => [p.n, p.numerator, p.denominator])).toEqual([
      [1, 1, 4],
      [2, 3, 4],
      [3, 2, 3],
    ]);
    const f4 = summarizeSeries(rows, campaigns).find((s) => s.series.fixtureId === 'f4')!;
    expect(f4.passAnyAtN).toEqual([false, true, null]);
  });

  it('groups by domain, fixture, difficulty and campaign', () => {
    const more = [...rows, ...series('PPF', { fixtureId: 'f1', domain: 'merge', modelId: 'other' })];
    const keys = summarizeAttempts(more, campaigns, ['target', 'domain']).map((g) => g.key);
    expect(keys).toEqual([
      { modelId: 'm', effort: null, outputMode: 'text', domain: 'log' },
      { modelId: 'other', effort: null, outputMode: 'text', domain: 'merge' },
    ]);
    const fixtures = summarizeAttempts(more, campaigns, ['fixture']);
    expect(fixtures.map((g) => `${g.key.domain}/${g.key.fixtureId}`)).toEqual([
      'log/f1',
      'log/f2',
      'log/f3',
      'log/f4',
      'log/f5',
      'merge/f1',
    ]);
  });
});

describe('legacy campaigns', () => {
  const legacy = [
    row({ campaignId: 'cmp_old', fixtureId: 'a' }),
    row({ campaignId: 'cmp_old', fixtureId: 'b', status: 'VALID_FAIL' }),
  ];

  it('still report mean success but refuse stability and pass_any_at_n', () => {
    const [group] = summarizeAttempts(legacy, campaigns, ['campaign']);
    expect(group!.meanSuccess).toMatchObject({ numerator: 1, denominator: 2, value: 0.5 });
    expect(group!.classification).toMatchObject({ applicable: false, reason: 'legacy_campaign' });
    expect(group!.passAnyAtN).toMatchObject({ applicable: false, reason: 'legacy_campaign' });
    for (const s of summarizeSeries(legacy, campaigns)) {
      expect(s.classification.applicable).toBe(false);
      expect(s.passAnyAtN).toMatchObject({ applicable: false });
    }
  });

  it('are left out of stability and pass_any_at_n when mixed with repeated campaigns, and counted', () => {
    const [group] = summarizeAttempts([...legacy, ...series('PFP')], campaigns, ['target']);
    expect(group!.classification).toMatchObject({ applicable: true, flaky: 1, legacySeriesLeftOut: 2 });
    expect(group!.passAnyAtN).toMatchObject({ applicable: true, legacySeriesLeftOut: 2 });
    expect(group!.meanSuccess).toMatchObject({ numerator: 3, denominator: 5 });
  });

  it('refuses classification of a single legacy series', () => {
    expect(classifySeries(buildSeries(legacy, campaigns)[0]!).applicable).toBe(false);
    expect(passAnyAtN(buildSeries(legacy, campaigns)).applicable).toBe(false);
  });
});

describe('resources', () => {
  it('averages over complete trial rounds only and totals over everything', () => {
    const rows = [
      ...series('PPF', { fixtureId: 'f1', costUsd: 1, tokens: 10, apiDurationMs: 100 }),
      ...series('PF-', { fixtureId: 'f2', costUsd: 2, tokens: 20, apiDurationMs: 200 }),
    ];
    const r = summarizeResources(rows);
    expect(r.trialRounds).toBe(3);
    expect(r.completeTrials).toBe(2); // trial 3 has an infrastructure failure
    expect(r.perCompleteTrial.costUsd).toMatchObject({ value: 3, known: 4, expected: 4, partial: false });
    expect(r.perCompleteTrial.tokens.value).toBe(30);
    expect(r.totals.costUsd.value).toBe(9);
    expect(r.totals.apiDurationMs.value).toBe(900);
    expect(r.partialPricing).toBe(false);
  });

  it('never turns unknown cost into 0, and flags partial pricing', () => {
    const unknown = summarizeResources(series('PP', { costUsd: null }));
    expect(unknown.perCompleteTrial.costUsd).toMatchObject({ value: null, known: 0, expected: 2, partial: true });
    expect(unknown.totals.costUsd.value).toBeNull();
    expect(unknown.partialPricing).toBe(true);

    const mixed = summarizeResources([
      row({ costUsd: 0.5, costEstimated: true }),
      row({ fixtureId: 'f2', costUsd: null }),
    ]);
    expect(mixed.perCompleteTrial.costUsd).toMatchObject({ value: 0.5, partial: true, estimated: true });
  });

  it('does not expect a price from attempts that never reached the model', () => {
    const r = summarizeResources([
      row({ status: 'HASH_MISMATCH', costUsd: null }),
      row({ fixtureId: 'f2', status: 'QUEUED', costUsd: null }),
    ]);
    expect(r.totals.costUsd).toMatchObject({ value: null, expected: 0, partial: false });
    expect(r.completeTrials).toBe(0);
    expect(r.perCompleteTrial.costUsd.value).toBeNull();
  });

  it('measures wall-clock time apart from API time', () => {
    expect(wallClockMs({ startedAt: '2025-01-01T00:00:00Z', finishedAt: '2025-01-01T00:01:00Z' })).toBe(60_000);
    expect(wallClockMs({ startedAt: null, finishedAt: null })).toBeNull();
    expect(wallClockMs({ startedAt: new Date(1000), finishedAt: null }, new Date(4000))).toBe(3000);
  });
});

describe('completeness', () => {
  it('is complete when every planned attempt is valid and the review allows it', () => {
    const c = campaignCompleteness({
      plannedAttempts: 3,
      statusCounts: { VALID_PASS: 2, VALID_FAIL: 1 },
      safetyReview: 'not_configured',
    });
    expect(c.complete).toBe(true);
    expect(isRankingEligible({ complete: c.complete, legacy: false })).toBe(true);
    expect(isRankingEligible({ complete: c.complete, legacy: true })).toBe(false);
  });

  it('names the failing part and why', () => {
    const c = campaignCompleteness({
      plannedAttempts: 10,
      statusCounts: countStatuses([
        row({ status: 'VALID_PASS' }),
        row({ status: 'INFRA_FAILURE' }),
        row({ status: 'UNSCORED' }),
        row({ status: 'UNSCORED' }),
        row({ status: 'SAFETY_BLOCKED' }),
      ]),
      safetyReview: 'pending',
    });
    expect(c.complete).toBe(false);
    expect(c.parts.targetAttempts.reasons.map((r) => [r.code, r.count])).toEqual([
      ['INFRA_FAILURE', 1],
      ['missing_attempts', 5],
    ]);
    expect(c.parts.judgeScoring.reasons.map((r) => [r.code, r.count])).toEqual([['UNSCORED', 2]]);
    expect(c.parts.safetyReview.reasons.map((r) => r.code)).toEqual(['SAFETY_BLOCKED', 'safety_review']);
    expect(c.parts.safetyReview.reasons[1]!.message).toMatch(/pending/);
  });

  it('does not call an empty plan complete', () => {
    expect(campaignCompleteness({ plannedAttempts: 0, statusCounts: {}, safetyReview: 'approved' }).complete).toBe(
      false,
    );
  });
});
