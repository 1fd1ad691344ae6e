import { toCsv } from '@gitbench/db';
import type { LeaderboardRow } from './leaderboard';

/** Leaderboard rows flattened: every rate as numerator, denominator, value and interval; unknown stays empty. */
export function leaderboardCsv(rows: readonly LeaderboardRow[]): string {
  return toCsv(
    ['rank', 'model', 'effort', 'output_mode', 'campaigns', 'passes', 'valid', 'mean_success', 'ci_low', 'ci_high', 'pass_any_n', 'pass_any_num', 'pass_any_den', 'stable_pass', 'flaky', 'stable_fail', 'unknown', 'cost_per_trial_usd', 'cost_partial', 'tokens_per_trial', 'api_ms_per_trial', 'attempts', 'excluded_infra', 'excluded_unscored', 'excluded_other', 'legacy_only'],
    rows.map((r) => {
      const last = r.passAny.applicable ? r.passAny.points[r.passAny.points.length - 1] : undefined;
      const cl = r.classification.applicable ? r.classification : null;
      return [
        r.rank, r.modelId, r.effort, r.outputMode, r.campaigns, r.meanSuccess.numerator, r.meanSuccess.denominator, r.meanSuccess.value,
        r.meanSuccess.interval?.low, r.meanSuccess.interval?.high, last?.n, last?.numerator, last?.denominator, cl?.stablePass, cl?.flaky,
        cl?.stableFail, cl?.unknown, r.perTrial.costUsd.value, r.perTrial.costUsd.partial, r.perTrial.tokens.value, r.perTrial.apiDurationMs.value,
        r.attempts, r.excluded.infra, r.excluded.unscored, r.excluded.other, r.legacyOnly,
      ];
    }),
  );
}
