import { rateOf, type Rate } from '../aggregation/rate';
import { GGB_SCENARIOS, type GgbOutcome, type GgbScenario, type GistOutcome, type RepoTaskOutcome } from './outcome';

/**
 * The task families' metrics over a set of attempts (one target of a campaign, say), computed as the
 * papers define them. The caller passes every attempt the suite planned, including those that have
 * no quality outcome (`outcome: null`: still running, or an infrastructure failure): the papers'
 * denominators are fixed at every task of the suite, so an attempt that did not finish counts as not
 * completed, not as absent. Pages show such a figure beside the campaign's completeness.
 */

export interface FamilyAttempt<O> {
  /** `domain/id`, for the per-task breakdown. */
  fixture: string;
  outcome: O | null;
  /** The run's model cost in USD; null when unknown (never taken as 0). */
  costUsd: number | null;
}

export interface AlphaTerm {
  fixture: string;
  /** T: 1 when the task was executed (GitTaskBench ties T to the execution completion criterion). */
  t: 0 | 1;
  marketValueUsd: number;
  quality: number;
  costUsd: number;
  /** T × MV × Q − C */
  net: number;
}

export interface RepoTaskMetrics {
  /** Execution completion rate: Process true / every task. */
  ecr: Rate;
  /** Task pass rate: Result true / every task. */
  tpr: Rate;
  alpha: {
    /** Mean of T × MV × Q − C over the attempts whose cost is known; null when there is none. */
    value: number | null;
    /** Attempts in the mean, and attempts left out because their cost is unknown. */
    n: number;
    unknownCost: number;
    meanT: number | null;
    meanMarketValueUsd: number | null;
    meanQuality: number | null;
    meanCostUsd: number | null;
    terms: AlphaTerm[];
  };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

export function repoTaskMetrics(attempts: readonly FamilyAttempt<RepoTaskOutcome>[]): RepoTaskMetrics {
  const total = attempts.length;
  const processed = attempts.filter((a) => a.outcome?.process).length;
  const resulted = attempts.filter((a) => a.outcome?.result).length;
  const terms: AlphaTerm[] = [];
  let unknownCost = 0;
  for (const a of attempts) {
    if (!a.outcome) continue;
    if (a.costUsd === null) {
      unknownCost++;
      continue;
    }
    const t = a.outcome.process ? 1 : 0;
    terms.push({
      fixture: a.fixture,
      t,
      marketValueUsd: a.outcome.marketValueUsd,
      quality: a.outcome.quality,
      costUsd: a.costUsd,
      net: t * a.outcome.marketValueUsd * a.outcome.quality - a.costUsd,
    });
  }
  return {
    ecr: rateOf(processed, total),
    tpr: rateOf(resulted, total),
    alpha: {
      value: mean(terms.map((x) => x.net)),
      n: terms.length,
      unknownCost,
      meanT: mean(terms.map((x) => x.t)),
      meanMarketValueUsd: mean(terms.map((x) => x.marketValueUsd)),
      meanQuality: mean(terms.map((x) => x.quality)),
      meanCostUsd: mean(terms.map((x) => x.costUsd)),
      terms,
    },
  };
}

/** A mean of per-attempt rates, with how many attempts it is over. */
export interface MeanRate {
  value: number | null;
  n: number;
}

export interface GistMetrics {
  /** Execution fidelity: gists with the original's outcome and output / every task. */
  fidelity: Rate;
  /** Mean line execution rate over the gists that ran (as the paper computes it). */
  lineExecution: MeanRate;
  /** Mean line existence rate over the gists that exist and parse. */
  lineExistence: MeanRate;
  /** Why the others have no fidelity, by the paper's error classes. */
  failures: Record<string, number>;
}

export function gistMetrics(attempts: readonly FamilyAttempt<GistOutcome>[]): GistMetrics {
  const exec = attempts.flatMap((a) => (a.outcome?.lineExecutionRate != null ? [a.outcome.lineExecutionRate] : []));
  const exist = attempts.flatMap((a) => (a.outcome?.lineExistenceRate != null ? [a.outcome.lineExistenceRate] : []));
  const failures: Record<string, number> = {};
  for (const a of attempts) {
    const why = a.outcome ? a.outcome.failure : 'not_finished';
    if (why) failures[why] = (failures[why] ?? 0) + 1;
  }
  return {
    fidelity: rateOf(attempts.filter((a) => a.outcome?.fidelity).length, attempts.length),
    lineExecution: { value: mean(exec), n: exec.length },
    lineExistence: { value: mean(exist), n: exist.length },
    failures,
  };
}

/**
 * A GitGoodBench attempt: its scenario and difficulty band come from the fixture, so an unfinished one still counts.
 */
export interface GgbAttempt extends FamilyAttempt<GgbOutcome> {
  scenario: GgbScenario;
  difficulty: string;
}

export interface GgbRates {
  attempts: number;
  /** Success: the run ended without a system error / every attempt. */
  success: Rate;
  /** Solve: solved / every attempt except those the judge left unscored. */
  solve: Rate;
  /** Attempts the judge could not decide: out of the solve denominator, never scored another way. */
  unscored: number;
}

export interface GgbMetrics {
  overall: GgbRates;
  byScenario: { scenario: GgbScenario; rates: GgbRates }[];
  /** Per scenario type and difficulty band (the paper's Table 4), bands in easy, medium, hard order. */
  byBand: { scenario: GgbScenario; difficulty: string; rates: GgbRates }[];
}

function ggbRates(attempts: readonly GgbAttempt[]): GgbRates {
  const unscored = attempts.filter((a) => a.outcome?.success && a.outcome.solved === null).length;
  return {
    attempts: attempts.length,
    success: rateOf(attempts.filter((a) => a.outcome?.success).length, attempts.length),
    solve: rateOf(attempts.filter((a) => a.outcome?.solved === true).length, attempts.length - unscored),
    unscored,
  };
}

const BAND_ORDER = ['easy', 'medium', 'hard'];
const bandRank = (d: string) => (BAND_ORDER.includes(d) ? BAND_ORDER.indexOf(d) : BAND_ORDER.length);

/**
 * GitGoodBench's two rates (paper section 4), overall, per scenario type and per difficulty band.
 * Every planned attempt is in the denominators (an attempt that did not finish is neither a success
 * nor solved), except that the judge's undecided ones leave the solve rate's.
 */
export function ggbMetrics(attempts: readonly GgbAttempt[]): GgbMetrics {
  const byScenario = GGB_SCENARIOS.flatMap((scenario) => {
    const of = attempts.filter((a) => a.scenario === scenario);
    return of.length ? [{ scenario, rates: ggbRates(of) }] : [];
  });
  const bands = new Map<string, GgbAttempt[]>();
  for (const a of attempts) {
    const key = `${a.scenario}\u0000${a.difficulty}`;
    bands.set(key, [...(bands.get(key) ?? []), a]);
  }
  const byBand = [...bands.values()]
    .map((of) => ({ scenario: of[0]!.scenario, difficulty: of[0]!.difficulty, rates: ggbRates(of) }))
    .sort(
      (x, y) =>
        GGB_SCENARIOS.indexOf(x.scenario) - GGB_SCENARIOS.indexOf(y.scenario) ||
        bandRank(x.difficulty) - bandRank(y.difficulty) ||
        x.difficulty.localeCompare(y.difficulty),
    );
  return { overall: ggbRates(attempts), byScenario, byBand };
}
