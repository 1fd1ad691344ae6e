import { isValidOutcome, modelAnswered } from '../campaign/attempt-status';
import type { AttemptRow } from './attempt-row';

/**
 * A summed resource with how much of it is actually known. `value` is null when nothing is known:
 * an unknown price is never reported as 0.
 */
export interface ResourceMetric {
  value: number | null;
  /** Attempts whose value is known and included. */
  known: number;
  /** Attempts that should have a value. */
  expected: number;
  /** Some expected values are unknown, so `value` is a lower bound. */
  partial: boolean;
}

export interface CostMetric extends ResourceMetric {
  /** Some included costs were estimated from a price table rather than reported by the provider. */
  estimated: boolean;
}

export interface ResourceSummary {
  /** Trial rounds (see below) in the attempt set, and how many of them are complete. */
  trialRounds: number;
  completeTrials: number;
  /** For rankings: sums over the attempts of complete rounds ÷ number of complete rounds. */
  perCompleteTrial: { costUsd: CostMetric; tokens: ResourceMetric; apiDurationMs: ResourceMetric };
  /** Operational context: sums over every attempt, failed ones included (they were paid for too). */
  totals: { costUsd: CostMetric; tokens: ResourceMetric; apiDurationMs: ResourceMetric };
  /** Some cost in either scope is unknown. */
  partialPricing: boolean;
}

type Measure = 'costUsd' | 'tokens' | 'apiDurationMs';

/**
 * A trial round is the set of attempts in the given rows that share campaign, target (model × effort ×
 * output mode) and trial number. It is complete when every one of them is VALID_PASS or VALID_FAIL.
 * Rows are expected to be the full scope being summarised (all of a target's attempts in a campaign,
 * or all of its attempts in one domain, ...): the round is relative to that scope, so "cost per
 * complete trial" of a target is the cost of one full pass over its fixtures.
 *
 * Per complete trial, an attempt "should have" a value when it is in a complete round (all of those
 * called the model). For totals, when the model answered (VALID_*, UNSCORED, SAFETY_BLOCKED) or a
 * value was recorded anyway (an infrastructure failure can still have been billed); an attempt that
 * never reached the model (queued, cancelled, hash mismatch) has nothing to be unknown about.
 */
export function summarizeResources(rows: readonly AttemptRow[]): ResourceSummary {
  const rounds = new Map<string, AttemptRow[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.campaignId, row.modelId, row.effort, row.outputMode, row.trial]);
    const round = rounds.get(key);
    if (round) round.push(row);
    else rounds.set(key, [row]);
  }
  const completeRounds = [...rounds.values()].filter((round) => round.every((r) => isValidOutcome(r.status)));
  const inCompleteRounds = completeRounds.flat();
  const completeTrials = completeRounds.length;

  const perTrial = (measure: Measure): ResourceMetric => {
    const metric = sumMetric(inCompleteRounds, measure, () => true);
    return { ...metric, value: metric.value === null || completeTrials === 0 ? null : metric.value / completeTrials };
  };
  const total = (measure: Measure): ResourceMetric =>
    sumMetric(rows, measure, (r) => modelAnswered(r.status) || r[measure] !== null);

  const perCompleteTrial = {
    costUsd: { ...perTrial('costUsd'), estimated: anyEstimated(inCompleteRounds) },
    tokens: perTrial('tokens'),
    apiDurationMs: perTrial('apiDurationMs'),
  };
  const totals = {
    costUsd: { ...total('costUsd'), estimated: anyEstimated(rows) },
    tokens: total('tokens'),
    apiDurationMs: total('apiDurationMs'),
  };
  return {
    trialRounds: rounds.size,
    completeTrials,
    perCompleteTrial,
    totals,
    partialPricing: perCompleteTrial.costUsd.partial || totals.costUsd.partial,
  };
}

function sumMetric(
  rows: readonly AttemptRow[],
  measure: Measure,
  expected: (row: AttemptRow) => boolean,
): ResourceMetric {
  let sum = 0;
  let known = 0;
  let expectedCount = 0;
  for (const row of rows) {
    if (!expected(row)) continue;
    expectedCount++;
    const value = row[measure];
    if (value === null) continue;
    sum += value;
    known++;
  }
  return { value: known > 0 ? sum : null, known, expected: expectedCount, partial: known < expectedCount };
}

function anyEstimated(rows: readonly AttemptRow[]): boolean {
  return rows.some((r) => r.costUsd !== null && r.costEstimated);
}

/**
 * Wall-clock duration of a campaign: from start to finish (or to `now` while it runs). Kept apart from
 * API time, which sums attempts that ran in parallel and is not additive with elapsed time.
 */
export function wallClockMs(
  span: { startedAt: Date | string | null; finishedAt: Date | string | null },
  now: Date = new Date(),
): number | null {
  if (span.startedAt === null) return null;
  const start = new Date(span.startedAt).getTime();
  const end = span.finishedAt === null ? now.getTime() : new Date(span.finishedAt).getTime();
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  return Math.max(0, end - start);
}
