import { isSimulatedModelId } from '../models/model-id';
import { isHumanModelId } from '../models/human';
import type { Mode } from '../mode';
import { LEGACY_NOT_APPLICABLE, type NotApplicable } from './attempt-row';
import type { PassAnyPoint } from './pass-any';
import { rateOf, type Rate } from './rate';

/**
 * A target's figures over a set of campaigns: what the leaderboard, a campaign's page, the CLI's
 * status and the API's summary show of it. Defined here once; db sums the stored CampaignStats
 * rows into TargetSums, and targetFigures turns those into figures.
 */

/** A target: model (canonical `base#effort`) × effort × output mode, and the agent that drives the model. */
export interface TargetKey {
  modelId: string;
  effort: string | null;
  outputMode: Mode;
  /** A third-party agent (claude-code, codex, ...) in agent mode; null or absent: GitBench's own loop. */
  agent?: string | null;
}

/** Whether two targets are one: same model, output mode and agent (an absent agent is our own loop). */
type TargetIdentity = { modelId: string; outputMode: string; agent?: string | null };

export function sameTarget(a: TargetIdentity, b: TargetIdentity): boolean {
  return a.modelId === b.modelId && a.outputMode === b.outputMode && (a.agent ?? null) === (b.agent ?? null);
}

/** A summed resource: `value` is null when nothing is known, so it renders "—", never 0. */
export interface Resource {
  value: number | null;
  known: number;
  expected: number;
  partial: boolean;
  estimated?: boolean;
}

export function resource(sum: number, known: number, expected: number, divisor = 1, estimated?: boolean): Resource {
  return {
    value: known > 0 && divisor > 0 ? sum / divisor : null,
    known,
    expected,
    partial: known < expected,
    ...(estimated === undefined ? {} : { estimated }),
  };
}

export interface PassAnySummary {
  applicable: true;
  points: PassAnyPoint[];
}

/** One n of pass_any_at_n, summed over campaigns: passing series and series with a valid attempt. */
export interface PassAnyCell {
  modelId: string;
  outputMode: string;
  agent?: string | null;
  n: number;
  num: number;
  den: number;
}

/** Element-wise sums of CampaignStats' pass_any arrays, as passAnyAtN defines them. */
export function passAnyFromSums(
  rows: readonly { n: number; num: number; den: number }[],
): PassAnySummary | NotApplicable {
  if (rows.length === 0) return LEGACY_NOT_APPLICABLE;
  const maxN = Math.max(...rows.map((r) => r.n));
  const points: PassAnyPoint[] = [];
  for (let n = 1; n <= maxN; n++) {
    const r = rows.find((x) => x.n === n);
    points.push({ n, ...rateOf(r?.num ?? 0, r?.den ?? 0) });
  }
  return { applicable: true, points };
}

export interface Classification {
  applicable: true;
  stablePass: number;
  stableFail: number;
  flaky: number;
  unknown: number;
  fixtures: number;
}

export function classificationOf(
  r: { stablePass: number; stableFail: number; flaky: number; unknown: number; classified: number },
  anyCurrent: boolean,
): Classification | NotApplicable {
  if (!anyCurrent) return LEGACY_NOT_APPLICABLE;
  return {
    applicable: true,
    stablePass: r.stablePass,
    stableFail: r.stableFail,
    flaky: r.flaky,
    unknown: r.unknown,
    fixtures: r.classified,
  };
}

/** Three resources, summed: cost, tokens and API time. */
interface ResourceSums {
  costUsd: number;
  costKnown: number;
  costEstimated: number;
  tokens: number;
  tokensKnown: number;
  apiMs: number;
  apiKnown: number;
}

/**
 * A target's stored figures summed over campaigns (db's sumTargets): the additive counts, and the
 * resources over every attempt and over the complete trial rounds only. A round is one campaign's
 * attempts of the target with one trial number; it is complete when every one has a valid outcome.
 */
export interface TargetSums extends TargetKey {
  campaigns: number;
  attempts: number;
  valid: number;
  passes: number;
  infraFailures: number;
  unscored: number;
  otherExcluded: number;
  /** Fixtures classified (stable or flaky), over the campaigns that are not legacy imports. */
  classified: number;
  stablePass: number;
  stableFail: number;
  flaky: number;
  unknown: number;
  anyCurrent: boolean;
  anyLegacy: boolean;
  allLegacy: boolean;
  /** The most trials any summed campaign planned: 1 means every series has one attempt, so no stability. */
  maxTrials: number;
  /** Over every attempt, failed ones included; `expected` counts the attempts that should carry each. */
  total: ResourceSums & { costExpected: number; tokensExpected: number; apiExpected: number };
  trialRounds: number;
  completeTrials: number;
  /** Over the complete trial rounds only; every attempt of such a round called the model. */
  inCompleteTrials: ResourceSums & { attempts: number };
}

/** One target summed over a set of campaigns: a leaderboard row. */
export interface TargetFigures extends TargetKey {
  rank: number;
  campaigns: number;
  attempts: number;
  /** Mean one-attempt success: passing valid attempts ÷ valid attempts, with its Wilson interval. */
  meanSuccess: Rate;
  excluded: { infra: number; unscored: number; other: number };
  passAny: PassAnySummary | NotApplicable;
  classification: Classification | NotApplicable;
  /** Ranking scope: sums over the complete trial rounds ÷ their number. */
  perTrial: { costUsd: Resource; tokens: Resource; apiDurationMs: Resource };
  /** Operational context: sums over every attempt, failed ones included. */
  totals: { costUsd: Resource; tokens: Resource; apiDurationMs: Resource };
  trialRounds: number;
  completeTrials: number;
  /** Every summed campaign ran one trial: stable and flaky say nothing, a series is a single trial. */
  singleTrial: boolean;
  legacyOnly: boolean;
  includesLegacy: boolean;
  /** A seeded coin, not a model (see isSimulatedModelId): every display says so. */
  simulated: boolean;
}

function figuresOf(s: TargetSums, passAny: readonly PassAnyCell[]): TargetFigures {
  const round = s.inCompleteTrials;
  const t = s.total;
  return {
    rank: 0,
    modelId: s.modelId,
    effort: s.effort,
    outputMode: s.outputMode,
    agent: s.agent ?? null,
    campaigns: s.campaigns,
    attempts: s.attempts,
    meanSuccess: rateOf(s.passes, s.valid),
    excluded: { infra: s.infraFailures, unscored: s.unscored, other: s.otherExcluded },
    passAny: passAnyFromSums(passAny.filter((p) => sameTarget(p, s))),
    classification: classificationOf(s, s.anyCurrent),
    perTrial: {
      costUsd: resource(round.costUsd, round.costKnown, round.attempts, s.completeTrials, round.costEstimated > 0),
      tokens: resource(round.tokens, round.tokensKnown, round.attempts, s.completeTrials),
      apiDurationMs: resource(round.apiMs, round.apiKnown, round.attempts, s.completeTrials),
    },
    totals: {
      costUsd: resource(t.costUsd, t.costKnown, t.costExpected, 1, t.costEstimated > 0),
      tokens: resource(t.tokens, t.tokensKnown, t.tokensExpected),
      apiDurationMs: resource(t.apiMs, t.apiKnown, t.apiExpected),
    },
    trialRounds: s.trialRounds,
    completeTrials: s.completeTrials,
    singleTrial: s.maxTrials <= 1,
    legacyOnly: s.allLegacy,
    includesLegacy: s.anyLegacy,
    simulated: isSimulatedModelId(s.modelId),
  };
}

/**
 * The lower bound of a rate's Wilson 95% interval: what the ranking orders by. Thin evidence gets a
 * wide interval and a low bound, so 3/3 (bound 0.44) ranks below 90/96 (bound 0.87) although its mean
 * is higher. No evidence ranks last.
 */
export function rankingBound(rate: Rate): number {
  return rate.interval?.low ?? -1;
}

/**
 * Every target's figures, ranked by the lower bound of its Wilson interval (ties: higher mean, then
 * more evidence, then by name). Human baselines (`human:<name>`) keep their place in the order but no rank.
 */
export function targetFigures(sums: readonly TargetSums[], passAny: readonly PassAnyCell[]): TargetFigures[] {
  const rows = sums.map((s) => figuresOf(s, passAny));
  rows.sort(
    (a, b) =>
      rankingBound(b.meanSuccess) - rankingBound(a.meanSuccess) ||
      (b.meanSuccess.value ?? -1) - (a.meanSuccess.value ?? -1) ||
      b.meanSuccess.denominator - a.meanSuccess.denominator ||
      a.modelId.localeCompare(b.modelId) ||
      a.outputMode.localeCompare(b.outputMode) ||
      (a.agent ?? '').localeCompare(b.agent ?? ''),
  );
  // A person's baseline is shown beside the models, never ranked among them: rank 0 means unranked.
  let rank = 0;
  for (const r of rows) r.rank = isHumanModelId(r.modelId) ? 0 : ++rank;
  return rows;
}
