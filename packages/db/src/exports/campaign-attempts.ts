import type { Db } from '../client';
import { csvLine } from './csv';

export const ATTEMPT_EXPORT_COLUMNS = [
  'id',
  'trial',
  'modelId',
  'reasoningEffort',
  'outputMode',
  'domain',
  'fixtureId',
  'difficulty',
  'status',
  'passed',
  'score',
  'tryCount',
  'inputTokens',
  'outputTokens',
  'reasoningTokens',
  'totalTokens',
  'costUsd',
  'costEstimated',
  'apiDurationMs',
  // What judging the attempt cost (LLM judge members, the history judge): operational, never inside costUsd.
  'judgeCalls',
  'judgeTotalTokens',
  'judgeCostUsd',
  'wallDurationMs',
  'inputHash',
  'promptHash',
  'expectedHash',
  'scorerConfigHash',
  'requestConfigHash',
  'outputHash',
  'sandboxImage',
  'errorClass',
  'errorMessage',
  'startedAt',
  'finishedAt',
  'productVersion',
  'productDirty',
] as const;

/** Rows read per query: memory stays flat however large the campaign. */
const PAGE_ROWS = 1000;

const select = Object.fromEntries(ATTEMPT_EXPORT_COLUMNS.map((c) => [c, true])) as Record<
  (typeof ATTEMPT_EXPORT_COLUMNS)[number],
  true
>;
// Unique within a campaign (a target is model × output mode, a fixture domain × id), so keyset pages
// from the last row's id never skip or repeat a row.
const order = [
  { domain: 'asc' },
  { fixtureId: 'asc' },
  { modelId: 'asc' },
  { outputMode: 'asc' },
  { trial: 'asc' },
] as const;

async function* attemptPages(db: Db, campaignId: string) {
  let after: string | undefined;
  for (;;) {
    const page = await db.attempt.findMany({
      where: { campaignId },
      select,
      orderBy: [...order],
      take: PAGE_ROWS,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    });
    if (page.length > 0) yield page;
    if (page.length < PAGE_ROWS) return;
    after = page[page.length - 1]!.id;
  }
}

/**
 * Every attempt of a campaign (the raw evidence behind its aggregates), as CSV or JSON: one row per
 * attempt, unknown values empty (CSV) or null (JSON), never 0. Streamed in pages of rows, so an export
 * of any size is never held whole in memory; null when the campaign does not exist.
 */
export async function campaignAttemptsExport(
  db: Db,
  campaignId: string,
  format: 'csv' | 'json',
): Promise<AsyncIterable<string> | null> {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: {
      id: true,
      name: true,
      legacy: true,
      trials: true,
      configHash: true,
      suiteVersion: true,
      status: true,
      config: true,
      productVersion: true,
      productDirty: true,
    },
  });
  if (!campaign) return null;
  if (format === 'csv') {
    return (async function* () {
      yield csvLine(ATTEMPT_EXPORT_COLUMNS);
      for await (const page of attemptPages(db, campaignId)) {
        yield page.map((a) => csvLine(ATTEMPT_EXPORT_COLUMNS.map((c) => (a as Record<string, unknown>)[c]))).join('');
      }
    })();
  }
  return (async function* () {
    yield `{"campaign":${JSON.stringify(campaign)},\n"attempts":[`;
    let first = true;
    for await (const page of attemptPages(db, campaignId)) {
      yield page.map((a) => `${first ? ((first = false), '\n') : ',\n'}${JSON.stringify(a)}`).join('');
    }
    yield '\n]}\n';
  })();
}

/** All of an export in one string: for callers that want it whole (tests, small campaigns). */
export async function collectExport(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
