import { toCsv } from '@gitbench/db';
import type { LeaderboardRow } from './leaderboard';

/**
 * Leaderboard rows flattened: every rate as numerator, denominator, value and interval; resources per
 * complete trial and in total, each with its partial flag; unknown stays empty, never 0.
 */
export function leaderboardCsv(rows: readonly LeaderboardRow[]): string {
  return toCsv(
    [
      'suite_version',
      'rank',
      'model',
      'effort',
      'output_mode',
      'simulated',
      'legacy_only',
      'campaigns',
      'passes',
      'valid',
      'mean_success',
      'ci_low',
      'ci_high',
      'pass_any_n',
      'pass_any_num',
      'pass_any_den',
      'stable_pass',
      'flaky',
      'stable_fail',
      'unknown',
      'trial_rounds',
      'complete_trials',
      'cost_per_complete_trial_usd',
      'cost_per_complete_trial_partial',
      'cost_estimated',
      'tokens_per_complete_trial',
      'api_ms_per_complete_trial',
      'total_cost_usd',
      'total_cost_partial',
      'total_tokens',
      'total_api_ms',
      'attempts',
      'excluded_infra',
      'excluded_unscored',
      'excluded_other',
    ],
    rows.map((r) => {
      const last = r.passAny.applicable ? r.passAny.points[r.passAny.points.length - 1] : undefined;
      const cl = r.classification.applicable ? r.classification : null;
      const { perTrial: p, totals: t } = r;
      return [
        r.suiteVersion,
        r.rank,
        r.modelId,
        r.effort,
        r.outputMode,
        r.simulated,
        r.legacyOnly,
        r.campaigns,
        r.meanSuccess.numerator,
        r.meanSuccess.denominator,
        r.meanSuccess.value,
        r.meanSuccess.interval?.low,
        r.meanSuccess.interval?.high,
        last?.n,
        last?.numerator,
        last?.denominator,
        cl?.stablePass,
        cl?.flaky,
        cl?.stableFail,
        cl?.unknown,
        r.trialRounds,
        r.completeTrials,
        p.costUsd.value,
        p.costUsd.partial,
        p.costUsd.estimated || t.costUsd.estimated,
        p.tokens.value,
        p.apiDurationMs.value,
        t.costUsd.value,
        t.costUsd.partial,
        t.tokens.value,
        t.apiDurationMs.value,
        r.attempts,
        r.excluded.infra,
        r.excluded.unscored,
        r.excluded.other,
      ];
    }),
  );
}
