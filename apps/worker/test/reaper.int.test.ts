import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, insertCampaign, savePlan, type TestDatabase } from '@gitbench/db';
import { createQueueClient, type QueueClient } from '@gitbench/queue';
import { dispatchAttempts } from '../src/campaign-handlers';
import { reapOnce } from '../src/reaper';
import { freePort, TestRedis } from './harness';

// No worker consumes this queue: jobs stay waiting, exactly as behind a long campaign's backlog.
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;
let redis: TestRedis;
let queue: QueueClient;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'reaper');
  redis = new TestRedis(await freePort());
  await redis.start();
  queue = createQueueClient({ redisUrl: redis.url, queueName: 'reaper' });
});
afterAll(async () => {
  await queue?.close();
  await redis?.stop();
  await t?.drop();
});

async function plannedCampaign(fixtures: number): Promise<string[]> {
  const campaignId = await insertCampaign(t.db, {
    name: 'reaper',
    createdBy: 'test',
    config: {},
    configHash: 'h',
    seed: 0,
    suiteVersion: 'test',
    trials: 1,
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
  const snaps = await t.db.fixtureSnapshot.findMany({ where: { campaignId } });
  const ids = await savePlan(
    t.db,
    campaignId,
    snaps.map((s) => ({ snapshotId: s.id, inputHash: 'i', repoState: 's', tar: Buffer.from('tar'), setupLog: '', buildInfo: {} })),
  );
  return ids!;
}

const reaper = { staleAfterMs: 60_000, redispatchAfterMs: 0 };

describe('the reaper', () => {
  it('leaves jobs that are still waiting in Redis alone, and re-sends the ones Redis lost', async () => {
    const ids = await plannedCampaign(5);
    expect(await dispatchAttempts(t.db, queue, ids)).toBe(5);

    const first = await reapOnce(t.db, queue, reaper);
    expect(first).toMatchObject({ dispatched: 0, stillWaiting: 5 });
    expect((await queue.counts()).waiting).toBe(5);

    // Redis restarts without persistence: every waiting job is gone, the attempts are still QUEUED.
    await queue.close();
    await redis.stop();
    await redis.start();
    queue = createQueueClient({ redisUrl: redis.url, queueName: 'reaper' });
    expect((await queue.counts()).waiting).toBe(0);

    const second = await reapOnce(t.db, queue, reaper);
    expect(second).toMatchObject({ dispatched: 5, stillWaiting: 0 });
    expect((await queue.counts()).waiting).toBe(5);
    const rows = await t.db.attempt.findMany({ where: { id: { in: ids } }, select: { dispatchCount: true, status: true } });
    expect(rows.map((r) => [r.status, r.dispatchCount])).toEqual(Array(5).fill(['QUEUED', 2]));
  });

  it('sends an attempt that was committed but never dispatched (a crash between the two)', async () => {
    const ids = await plannedCampaign(2);
    const r = await reapOnce(t.db, queue, reaper);
    expect(r).toMatchObject({ dispatched: 2, stillWaiting: 5 });
    const rows = await t.db.attempt.findMany({ where: { id: { in: ids } }, select: { dispatchCount: true } });
    expect(rows.map((x) => x.dispatchCount)).toEqual([1, 1]);
  });
});
