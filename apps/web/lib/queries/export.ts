import type { Db } from '@gitbench/db';
import type { LeaderboardRow } from './leaderboard';

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = v instanceof Date ? v.toISOString() : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

/**
 * Leaderboard rows flattened: every rate as numerator, denominator, value and interval; resources per
 * complete trial and in total, each with its partial flag; unknown stays empty, never 0.
 */
export function leaderboardCsv(rows: readonly LeaderboardRow[]): string {
  return toCsv(
    [
      'rank', 'model', 'effort', 'output_mode', 'simulated', 'legacy_only', 'campaigns', 'passes', 'valid', 'mean_success', 'ci_low', 'ci_high',
      'pass_any_n', 'pass_any_num', 'pass_any_den', 'stable_pass', 'flaky', 'stable_fail', 'unknown', 'trial_rounds', 'complete_trials',
      'cost_per_complete_trial_usd', 'cost_per_complete_trial_partial', 'cost_estimated', 'tokens_per_complete_trial', 'api_ms_per_complete_trial',
      'total_cost_usd', 'total_cost_partial', 'total_tokens', 'total_api_ms', 'attempts', 'excluded_infra', 'excluded_unscored', 'excluded_other',
    ],
    rows.map((r) => {
      const last = r.passAny.applicable ? r.passAny.points[r.passAny.points.length - 1] : undefined;
      const cl = r.classification.applicable ? r.classification : null;
      const { perTrial: p, totals: t } = r;
      return [
        r.rank, r.modelId, r.effort, r.outputMode, r.simulated, r.legacyOnly, r.campaigns, r.meanSuccess.numerator, r.meanSuccess.denominator,
        r.meanSuccess.value, r.meanSuccess.interval?.low, r.meanSuccess.interval?.high, last?.n, last?.numerator, last?.denominator,
        cl?.stablePass, cl?.flaky, cl?.stableFail, cl?.unknown, r.trialRounds, r.completeTrials,
        p.costUsd.value, p.costUsd.partial, p.costUsd.estimated || t.costUsd.estimated, p.tokens.value, p.apiDurationMs.value,
        t.costUsd.value, t.costUsd.partial, t.tokens.value, t.apiDurationMs.value, r.attempts, r.excluded.infra, r.excluded.unscored, r.excluded.other,
      ];
    }),
  );
}

const ATTEMPT_COLUMNS = [
  'id', 'trial', 'modelId', 'reasoningEffort', 'outputMode', 'domain', 'fixtureId', 'difficulty', 'status', 'passed', 'score',
  'tryCount', 'inputTokens', 'outputTokens', 'reasoningTokens', 'totalTokens', 'costUsd', 'costEstimated', 'apiDurationMs',
  'wallDurationMs', 'inputHash', 'promptHash', 'expectedHash', 'scorerConfigHash', 'requestConfigHash', 'outputHash', 'sandboxImage',
  'errorClass', 'errorMessage', 'startedAt', 'finishedAt',
] as const;

/** Every attempt of a campaign (the raw evidence behind its aggregates), as CSV or JSON. */
export async function campaignAttemptsExport(db: Db, campaignId: string, format: 'csv' | 'json'): Promise<string | null> {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, name: true, legacy: true, trials: true, configHash: true, suiteVersion: true, status: true, config: true },
  });
  if (!campaign) return null;
  const attempts = await db.attempt.findMany({
    where: { campaignId },
    select: Object.fromEntries(ATTEMPT_COLUMNS.map((c) => [c, true])) as Record<(typeof ATTEMPT_COLUMNS)[number], true>,
    orderBy: [{ domain: 'asc' }, { fixtureId: 'asc' }, { modelId: 'asc' }, { outputMode: 'asc' }, { trial: 'asc' }],
  });
  if (format === 'json') return JSON.stringify({ campaign, attempts }, null, 1);
  return toCsv([...ATTEMPT_COLUMNS], attempts.map((a) => ATTEMPT_COLUMNS.map((c) => (a as Record<string, unknown>)[c])));
}
