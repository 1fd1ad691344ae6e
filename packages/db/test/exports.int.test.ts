import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_EXPORT_COLUMNS, campaignAttemptsExport, collectExport, insertCampaign } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';

let t: TestDatabase;
let campaignId: string;
const FIXTURES = 70;
const TRIALS = 9;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'export');
  campaignId = await insertCampaign(t.db, {
    name: 'export',
    createdBy: 'test',
    config: {},
    configHash: 'h',
    seed: 0,
    suiteVersion: 'test',
    trials: TRIALS,
    targets: [
      { modelId: 'a', baseModel: 'a', reasoningEffort: null, outputMode: 'text', profile: 'builtin' },
      { modelId: 'b', baseModel: 'b', reasoningEffort: null, outputMode: 'text', profile: 'builtin' },
    ],
    fixtures: Array.from({ length: FIXTURES }, (_, i) => ({
      domain: `d${i % 3}`,
      fixtureId: `f${String(i).padStart(3, '0')}`,
      difficulty: 'easy',
      tags: [],
      scoringType: 'exact_match',
      definition: {},
    })),
  });
  const c = await t.db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    include: { targets: true, fixtures: true },
  });
  let n = 0;
  await t.db.attempt.createMany({
    data: c.targets.flatMap((target) =>
      c.fixtures.flatMap((f) =>
        Array.from({ length: TRIALS }, (_, i) => ({
          id: `att_x${n++}`,
          campaignId,
          targetId: target.id,
          fixtureSnapshotId: f.id,
          trial: i + 1,
          modelId: target.modelId,
          outputMode: target.outputMode,
          domain: f.domain,
          fixtureId: f.fixtureId,
          difficulty: f.difficulty,
          status: 'VALID_FAIL' as const,
          errorMessage: n % 7 === 0 ? 'a message, with "quotes"\nand a line break' : null,
          // One attempt was judged by a paid judge: its spend is exported beside the target's cost.
          ...(n === 1 ? { judgeCalls: 3, judgeTotalTokens: 2760, judgeCostUsd: 0.0012 } : {}),
        })),
      ),
    ),
  });
});
afterAll(async () => {
  await t?.drop();
});

describe('campaign exports stream in pages', () => {
  const total = 2 * FIXTURES * TRIALS;

  it('CSV: every attempt once, in a stable order, over several pages', async () => {
    const chunks: string[] = [];
    for await (const chunk of (await campaignAttemptsExport(t.db, campaignId, 'csv'))!) chunks.push(chunk);
    // Header, then one chunk per page of rows: the export was never one string.
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const text = chunks.join('');
    expect(text.startsWith(`${ATTEMPT_EXPORT_COLUMNS.join(',')}\n`)).toBe(true);
    const ids = [...text.matchAll(/^(att_x\d+),/gm)].map((m) => m[1]);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(text).toContain('"a message, with ""quotes""\nand a line break"');
    expect(await collectExport((await campaignAttemptsExport(t.db, campaignId, 'csv'))!)).toBe(text);
  });

  it('JSON: one document with the campaign and every attempt', async () => {
    const parsed = JSON.parse(await collectExport((await campaignAttemptsExport(t.db, campaignId, 'json'))!)) as {
      campaign: { id: string };
      attempts: { id: string; domain: string; fixtureId: string; modelId: string; trial: number }[];
    };
    expect(parsed.campaign.id).toBe(campaignId);
    expect(parsed.attempts).toHaveLength(total);
    const keys = parsed.attempts.map(
      (a) => `${a.domain}/${a.fixtureId}/${a.modelId}/${String(a.trial).padStart(2, '0')}`,
    );
    expect(keys).toEqual([...keys].sort());
  });

  it('carries what judging each attempt cost, empty or null where nothing was judged', async () => {
    const csv = await collectExport((await campaignAttemptsExport(t.db, campaignId, 'csv'))!);
    const header = csv.split('\n', 1)[0]!.split(',');
    const cell = (id: string, column: string) =>
      csv
        .split('\n')
        .find((l) => l.startsWith(`${id},`))!
        .split(',')[header.indexOf(column)];
    expect([
      cell('att_x0', 'judgeCalls'),
      cell('att_x0', 'judgeTotalTokens'),
      cell('att_x0', 'judgeCostUsd'),
      cell('att_x0', 'costUsd'),
    ]).toEqual(['3', '2760', '0.0012', '']);
    expect([cell('att_x1', 'judgeCalls'), cell('att_x1', 'judgeCostUsd')]).toEqual(['', '']);
    const json = JSON.parse(await collectExport((await campaignAttemptsExport(t.db, campaignId, 'json'))!)) as {
      attempts: Record<string, unknown>[];
    };
    expect(json.attempts.find((a) => a.id === 'att_x0')).toMatchObject({
      judgeCalls: 3,
      judgeTotalTokens: 2760,
      judgeCostUsd: 0.0012,
      costUsd: null,
    });
  });

  it('is null for a campaign that does not exist', async () => {
    expect(await campaignAttemptsExport(t.db, 'cmp_none', 'csv')).toBeNull();
  });
});
