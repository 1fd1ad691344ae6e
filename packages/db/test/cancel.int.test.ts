import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markCampaignCancelled, insertCampaign, savePlan } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'cancel');
});
afterAll(async () => {
  await t?.drop();
});

/** A planned campaign of fixtures x trials attempts, all QUEUED. */
async function plannedCampaign(fixtures: number, trials: number): Promise<string> {
  const campaignId = await insertCampaign(t.db, {
    name: 'big',
    createdBy: 'test',
    config: {},
    configHash: 'h',
    seed: 0,
    suiteVersion: 'test',
    trials,
    targets: [{ modelId: 'mock', baseModel: 'mock', reasoningEffort: null, outputMode: 'text', profile: 'builtin' }],
    fixtures: Array.from({ length: fixtures }, (_, i) => ({
      domain: 'log',
      fixtureId: `f${i}`,
      difficulty: 'easy',
      tags: [],
      scoringType: 'exact_match',
      definition: {},
    })),
  });
  const snaps = await t.db.fixtureSnapshot.findMany({ where: { campaignId }, select: { id: true } });
  await savePlan(
    t.db,
    campaignId,
    snaps.map((s) => ({
      snapshotId: s.id,
      inputHash: 'i',
      repoState: 's',
      tar: Buffer.from('tar'),
      setupLog: '',
      buildInfo: {},
    })),
  );
  return campaignId;
}

describe('cancelling a campaign', () => {
  it('works at 20,000 attempts: queued ones stop, running ones are left to notice at their heartbeat', async () => {
    const campaignId = await plannedCampaign(200, 100);
    const running = await t.db.attempt.findMany({ where: { campaignId }, take: 7, select: { id: true } });
    await t.db.attempt.updateMany({
      where: { id: { in: running.map((r) => r.id) } },
      data: { status: 'RUNNING', claimToken: 'x', heartbeatAt: new Date() },
    });

    const started = performance.now();
    const result = await markCampaignCancelled(t.db, campaignId);
    console.log(`cancelled 20,000 attempts in ${Math.round(performance.now() - started)} ms`);
    expect(result).toEqual({ cancelled: true, stoppedQueued: 20_000 - 7 });
    const counts = await t.db.attempt.groupBy({ by: ['status'], where: { campaignId }, _count: { _all: true } });
    expect(Object.fromEntries(counts.map((c) => [c.status, c._count._all]))).toEqual({ CANCELLED: 19_993, RUNNING: 7 });
    const c = await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
    expect(c.status).toBe('CANCELLED');
    expect(c.cancelledAt).not.toBeNull();
    // A second cancel finds nothing to do and says so.
    expect(await markCampaignCancelled(t.db, campaignId)).toEqual({ cancelled: false, stoppedQueued: 0 });
  }, 120_000);
});
