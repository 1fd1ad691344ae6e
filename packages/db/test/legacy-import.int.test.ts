import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLegacyImport } from '@gitbench/core';
import { importLegacyCampaign } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
import { UPSTREAM_RESULTS as RESULTS } from '../../core/test/fixtures/upstream-data';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL);
});
afterAll(async () => {
  await t?.drop();
});

describe('legacy import of upstream result files', () => {
  const files = readdirSync(RESULTS).filter((f) => f.endsWith('.json'));

  it.each(files)('%s: one finished one-trial legacy campaign, attempts and evidence as recorded', async (file) => {
    const text = readFileSync(path.join(RESULTS, file), 'utf8');
    const raw = JSON.parse(text) as { summary: { total_fixtures: number; total_passed: number } };
    const plan = planLegacyImport(file, text);
    const first = await importLegacyCampaign(t.db, file, plan);
    expect(first.created).toBe(true);
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { id: first.campaignId } });
    expect(campaign).toMatchObject({ legacy: true, trials: 1, status: 'COMPLETED', safetyReview: 'approved' });
    // The upstream harness commit that produced the file is the version of this campaign and its attempts.
    expect([campaign.productVersion, campaign.productDirty]).toEqual([
      'ce7f2a36565523f643a9f75c791710c2f82caf8d',
      null,
    ]);
    expect(
      await t.db.attempt.count({
        where: { campaignId: first.campaignId, productVersion: { not: 'ce7f2a36565523f643a9f75c791710c2f82caf8d' } },
      }),
    ).toBe(0);
    expect(await t.db.attempt.count({ where: { campaignId: campaign.id } })).toBe(raw.summary.total_fixtures);
    expect(await t.db.attempt.count({ where: { campaignId: campaign.id, status: 'VALID_PASS' } })).toBe(
      raw.summary.total_passed,
    );
    expect(await t.db.attemptTry.count({ where: { attempt: { campaignId: campaign.id } } })).toBe(
      raw.summary.total_fixtures,
    );

    const again = await importLegacyCampaign(t.db, file, plan);
    expect(again).toEqual({ campaignId: first.campaignId, created: false, attempts: raw.summary.total_fixtures });
    expect(await t.db.campaign.count({ where: { legacy: true, configHash: plan.fingerprint } })).toBe(1);
  });
});
