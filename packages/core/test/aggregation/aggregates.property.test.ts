import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignQuadrants,
  campaignCompleteness,
  compareTargets,
  GROUP_DIMENSIONS,
  mcnemarExact,
  summarizeAttempts,
  summarizeSeries,
  type AttemptRow,
  type CampaignFactsById,
} from '../../src/aggregation';
import { ATTEMPT_STATUSES } from '../../src/campaign';
import { naiveGroup, naiveGroupId, naiveMcNemarP, naiveWilson } from './naive';

const DIFFICULTY_OF: Record<string, string> = { f1: 'easy', f2: 'hard', f3: 'easy' };

/** Random campaigns (one maybe legacy) and attempts with unique identities and trials within plan. */
const worldArb = fc
  .record({
    trials1: fc.integer({ min: 1, max: 4 }),
    trials2: fc.integer({ min: 1, max: 4 }),
    legacy2: fc.boolean(),
    rows: fc.array(
      fc.record({
        campaignId: fc.constantFrom('c1', 'c2'),
        target: fc.constantFrom(['m1', null, 'text'], ['m1', null, 'json_schema'], ['m2#high', 'high', 'text']),
        domain: fc.constantFrom('log', 'merge'),
        fixtureId: fc.constantFrom('f1', 'f2', 'f3'),
        trial: fc.integer({ min: 1, max: 4 }),
        status: fc.constantFrom(...ATTEMPT_STATUSES, 'VALID_PASS', 'VALID_FAIL', 'VALID_PASS', 'VALID_FAIL'),
        tokens: fc.option(fc.integer({ min: 0, max: 5000 })),
        costUsd: fc.option(fc.integer({ min: 0, max: 1000 })),
        costEstimated: fc.boolean(),
        apiDurationMs: fc.option(fc.integer({ min: 0, max: 60_000 })),
      }),
      { maxLength: 120 },
    ),
  })
  .map(({ trials1, trials2, legacy2, rows }) => {
    const campaigns: CampaignFactsById = {
      c1: { trials: trials1, legacy: false },
      c2: { trials: legacy2 ? 1 : trials2, legacy: legacy2 },
    };
    const seen = new Set<string>();
    const attempts: AttemptRow[] = [];
    for (const r of rows) {
      const [modelId, effort, outputMode] = r.target as [string, string | null, 'text' | 'json_schema'];
      const trial = ((r.trial - 1) % campaigns[r.campaignId]!.trials) + 1;
      const id = [r.campaignId, modelId, outputMode, r.domain, r.fixtureId, trial].join('|');
      if (seen.has(id)) continue;
      seen.add(id);
      attempts.push({
        campaignId: r.campaignId,
        modelId,
        effort,
        outputMode,
        domain: r.domain,
        fixtureId: r.fixtureId,
        difficulty: DIFFICULTY_OF[r.fixtureId]!,
        trial,
        status: r.status,
        tokens: r.tokens,
        costUsd: r.costUsd,
        costEstimated: r.costEstimated,
        apiDurationMs: r.apiDurationMs,
      });
    }
    return { campaigns, rows: attempts };
  });

describe('aggregates agree with a naive recomputation', () => {
  it('for every grouping', () => {
    fc.assert(
      fc.property(worldArb, fc.subarray([...GROUP_DIMENSIONS]), ({ campaigns, rows }, by) => {
        const summaries = summarizeAttempts(rows, campaigns, by);
        const groupIds = [...new Set(rows.map((r) => naiveGroupId(r, by)))];
        expect(summaries).toHaveLength(groupIds.length);
        for (const s of summaries) {
          const members = rows.filter((r) => {
            const k = s.key;
            return (
              (k.campaignId === undefined || k.campaignId === r.campaignId) &&
              (k.modelId === undefined ||
                (k.modelId === r.modelId && k.effort === r.effort && k.outputMode === r.outputMode)) &&
              (k.domain === undefined || k.domain === r.domain) &&
              (k.difficulty === undefined || k.difficulty === r.difficulty) &&
              (k.fixtureId === undefined || k.fixtureId === r.fixtureId)
            );
          });
          expect(new Set(members.map((r) => naiveGroupId(r, by))).size).toBe(1);
          const n = naiveGroup(members, campaigns);

          expect(s.attempts).toBe(n.attempts);
          expect([s.meanSuccess.numerator, s.meanSuccess.denominator]).toEqual([n.passing, n.valid]);
          expect(s.meanSuccess.value).toBe(n.valid === 0 ? null : n.passing / n.valid);
          const w = naiveWilson(n.passing, n.valid);
          if (w === null) expect(s.meanSuccess.interval).toBeNull();
          else {
            expect(s.meanSuccess.interval!.low).toBeCloseTo(w.low, 9);
            expect(s.meanSuccess.interval!.high).toBeCloseTo(w.high, 9);
          }

          if (n.classes === 'n/a') expect(s.classification.applicable).toBe(false);
          else
            expect(s.classification).toEqual({
              applicable: true,
              stable_pass: n.classes.stable_pass,
              stable_fail: n.classes.stable_fail,
              flaky: n.classes.flaky,
              unknown: n.classes.unknown,
              partialEvidence: n.classes.partial,
              legacySeriesLeftOut: n.classes.legacy,
            });

          if (n.passAny === 'n/a') expect(s.passAnyAtN.applicable).toBe(false);
          else if (s.passAnyAtN.applicable) {
            expect(s.passAnyAtN.points.map((p) => ({ n: p.n, num: p.numerator, den: p.denominator }))).toEqual(
              n.passAny,
            );
          } else expect.unreachable('pass_any_at_n should apply');

          const r = s.resources;
          expect([r.completeTrials, r.trialRounds]).toEqual([n.completeTrials, n.rounds]);
          expect(r.perCompleteTrial.costUsd.value).toBe(n.perTrialCost);
          expect(r.perCompleteTrial.tokens.value).toBe(n.perTrialTokens);
          expect(r.perCompleteTrial.apiDurationMs.value).toBe(n.perTrialApi);
          expect(r.totals.costUsd.value).toBe(n.totalCost);
          expect(r.totals.tokens.value).toBe(n.totalTokens);
          expect(r.totals.apiDurationMs.value).toBe(n.totalApi);
          expect(r.partialPricing).toBe(n.partialPricing);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('per series: pass_any flags are monotone and agree with the group curve of that single series', () => {
    fc.assert(
      fc.property(worldArb, ({ campaigns, rows }) => {
        for (const s of summarizeSeries(rows, campaigns)) {
          if (!Array.isArray(s.passAnyAtN)) {
            expect(s.series.legacy).toBe(true);
            continue;
          }
          const flags = s.passAnyAtN.filter((f): f is boolean => f !== null);
          // Once passed, always passed; nulls only after the last valid attempt.
          expect(flags.indexOf(true) === -1 || flags.slice(flags.indexOf(true)).every(Boolean)).toBe(true);
          expect(s.passAnyAtN.slice(flags.length).every((f) => f === null)).toBe(true);
          expect(flags.length).toBe(Math.min(s.meanSuccess.denominator, s.series.plannedTrials));
          expect(flags.at(-1) ?? false).toBe(
            s.meanSuccess.numerator > 0 && s.meanSuccess.denominator <= s.series.plannedTrials,
          );
        }
      }),
    );
  });

  it('completeness: complete exactly when every planned attempt is valid and the review allows it', () => {
    fc.assert(
      fc.property(
        worldArb,
        fc.integer({ min: 0, max: 130 }),
        fc.constantFrom('not_configured', 'pending', 'approved', 'blocked'),
        ({ rows }, planned, safetyReview) => {
          const counts: Record<string, number> = {};
          for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
          const c = campaignCompleteness({ plannedAttempts: planned, statusCounts: counts, safetyReview });
          const expected =
            planned > 0 &&
            rows.length >= planned &&
            rows.every((r) => r.status === 'VALID_PASS' || r.status === 'VALID_FAIL') &&
            (safetyReview === 'not_configured' || safetyReview === 'approved');
          expect(c.complete).toBe(expected);
          expect(c.parts.judgeScoring.ok).toBe(!rows.some((r) => r.status === 'UNSCORED'));
        },
      ),
    );
  });
});

describe('comparisons agree with naive counts', () => {
  it('mcnemarExact matches direct summation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (b, c) => {
        const p = mcnemarExact(b, c).pValue;
        expect(p).toBeCloseTo(naiveMcNemarP(b, c), 10);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('compareTargets counts discordant fixtures', () => {
    fc.assert(
      fc.property(worldArb, ({ rows }) => {
        const first = rows.filter((r) => r.modelId === 'm1' && r.outputMode === 'text');
        const second = rows.filter((r) => r.modelId === 'm2#high');
        const verdict = (set: AttemptRow[], d: string, f: string) => {
          const v = set.filter(
            (r) => r.domain === d && r.fixtureId === f && (r.status === 'VALID_PASS' || r.status === 'VALID_FAIL'),
          );
          if (v.length === 0) return undefined;
          const p = v.filter((r) => r.status === 'VALID_PASS').length;
          return 2 * p > v.length ? 'pass' : 2 * p < v.length ? 'fail' : 'tie';
        };
        let b = 0;
        let c = 0;
        for (const d of ['log', 'merge'])
          for (const f of ['f1', 'f2', 'f3']) {
            const x = verdict(first, d, f);
            const y = verdict(second, d, f);
            if (x === 'pass' && y === 'fail') b++;
            if (x === 'fail' && y === 'pass') c++;
          }
        const result = compareTargets(first, second);
        expect([result.b, result.c]).toEqual([b, c]);
      }),
    );
  });

  it('quadrants: half the placed points at least are on each side of each median', () => {
    const point = fc.record({
      x: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
      y: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 30 }), (points) => {
        const { placed, unplaced, medianX, medianY } = assignQuadrants(points);
        expect(placed.length + unplaced.length).toBe(points.length);
        if (placed.length === 0) return;
        const cheap = placed.filter((p) => p.quadrant === 'best_value' || p.quadrant === 'economy');
        const good = placed.filter((p) => p.quadrant === 'best_value' || p.quadrant === 'premium');
        expect(cheap.every((p) => p.x <= medianX!)).toBe(true);
        expect(good.every((p) => p.y >= medianY!)).toBe(true);
        expect(2 * cheap.length).toBeGreaterThanOrEqual(placed.length);
        expect(2 * good.length).toBeGreaterThanOrEqual(placed.length);
      }),
    );
  });
});
