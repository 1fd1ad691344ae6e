import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCampaignStats } from '@gitbench/db';
import { createTestDatabase, seedRandomCampaign, type TestDatabase } from '@gitbench/test-support';
import { getCampaignFixtureTable, getCampaignOverview } from '../lib/queries/campaign';

// What judging cost a campaign is summed from the attempts' judge columns (the worker writes them from
// the judges' calls), beside the targets' figures and never inside them.
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'overview');
});
afterAll(async () => {
  await t?.drop();
});

describe('the campaign overview', () => {
  it('sums what judging cost, leaving out and counting attempts of unknown cost, apart from the targets', async () => {
    const c = await seedRandomCampaign(t.db, 21, { validShare: 1 });
    await refreshCampaignStats(t.db, c.campaignId);
    const before = await getCampaignOverview(t.db, c.campaignId);
    expect(before!.judging).toBeNull();

    const ids = (
      await t.db.attempt.findMany({
        where: { campaignId: c.campaignId },
        select: { id: true },
        orderBy: { id: 'asc' },
        take: 4,
      })
    ).map((a) => a.id);
    const judged = [
      { judgeCalls: 2, judgeTotalTokens: 1840, judgeCostUsd: 0.0008 },
      { judgeCalls: 3, judgeTotalTokens: 900, judgeCostUsd: 0.003 },
      // A verdict from the campaign's cache: judged, no call.
      { judgeCalls: 0, judgeTotalTokens: null, judgeCostUsd: null },
      // A judge whose endpoint reports no cost.
      { judgeCalls: 1, judgeTotalTokens: 100, judgeCostUsd: null },
    ];
    for (const [i, data] of judged.entries()) await t.db.attempt.update({ where: { id: ids[i]! }, data });
    const after = await getCampaignOverview(t.db, c.campaignId);
    expect(after!.judging).toMatchObject({ attempts: 4, calls: 6, totalTokens: 2840, unknownCost: 1 });
    expect(after!.judging!.costUsd).toBeCloseTo(0.0038, 10);
    // The targets' figures are the same as before: judging is not in them.
    expect(after!.perModel.map((r) => [r.totals, r.perTrial])).toEqual(
      before!.perModel.map((r) => [r.totals, r.perTrial]),
    );
    expect(before!.perModel.some((r) => r.totals.costUsd.value !== null)).toBe(true);
  });
});

describe("the campaign's fixture table", () => {
  it('clamps a page from the URL to the pages there are, instead of failing on it', async () => {
    const c = await seedRandomCampaign(t.db, 22, { validShare: 1 });
    const first = (await getCampaignFixtureTable(t.db, c.campaignId, { page: 1, pageSize: 1 }))!;
    const last = Math.ceil(first.total / 1);
    expect(last).toBeGreaterThan(1);
    for (const page of [1e20, Number.MAX_VALUE, Infinity]) {
      const table = (await getCampaignFixtureTable(t.db, c.campaignId, { page, pageSize: 1 }))!;
      expect(table.page).toBe(last);
      expect(table.rows.length).toBeGreaterThan(0);
    }
    for (const page of [NaN, -3, 0, 1.5])
      expect((await getCampaignFixtureTable(t.db, c.campaignId, { page, pageSize: 1 }))!.page).toBe(1);
  });
});
