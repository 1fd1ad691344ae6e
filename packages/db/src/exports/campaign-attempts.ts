import type { Db } from '../client';
import { toCsv } from './csv';

export const ATTEMPT_EXPORT_COLUMNS = [
  'id', 'trial', 'modelId', 'reasoningEffort', 'outputMode', 'domain', 'fixtureId', 'difficulty', 'status', 'passed', 'score',
  'tryCount', 'inputTokens', 'outputTokens', 'reasoningTokens', 'totalTokens', 'costUsd', 'costEstimated', 'apiDurationMs',
  'wallDurationMs', 'inputHash', 'promptHash', 'expectedHash', 'scorerConfigHash', 'requestConfigHash', 'outputHash', 'sandboxImage',
  'errorClass', 'errorMessage', 'startedAt', 'finishedAt',
] as const;

/**
 * Every attempt of a campaign (the raw evidence behind its aggregates), as CSV or JSON: one row per
 * attempt, unknown values empty (CSV) or null (JSON), never 0. Null when the campaign does not exist.
 */
export async function campaignAttemptsExport(db: Db, campaignId: string, format: 'csv' | 'json'): Promise<string | null> {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, name: true, legacy: true, trials: true, configHash: true, suiteVersion: true, status: true, config: true },
  });
  if (!campaign) return null;
  const attempts = await db.attempt.findMany({
    where: { campaignId },
    select: Object.fromEntries(ATTEMPT_EXPORT_COLUMNS.map((c) => [c, true])) as Record<(typeof ATTEMPT_EXPORT_COLUMNS)[number], true>,
    orderBy: [{ domain: 'asc' }, { fixtureId: 'asc' }, { modelId: 'asc' }, { outputMode: 'asc' }, { trial: 'asc' }],
  });
  if (format === 'json') return JSON.stringify({ campaign, attempts }, null, 1);
  return toCsv([...ATTEMPT_EXPORT_COLUMNS], attempts.map((a) => ATTEMPT_EXPORT_COLUMNS.map((c) => (a as Record<string, unknown>)[c])));
}
