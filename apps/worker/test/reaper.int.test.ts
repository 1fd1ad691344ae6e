import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  claimAttempt,
  insertCampaign,
  redispatchAttempts,
  requeueInfraFailures,
  savePlan,
  type DispatchJob,
} from '@gitbench/db';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { createQueueClient, type QueueClient } from '@gitbench/queue';
import { reapOnce, resendLostAttempts, type ReaperConfig } from '../src/reaper';
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

async function newCampaign(fixtures: number): Promise<string> {
  return insertCampaign(t.db, {
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
}

/** A campaign as planning leaves it: attempts written as dispatch 1, not yet sent. */
async function plannedCampaign(fixtures: number): Promise<{ campaignId: string; jobs: DispatchJob[] }> {
  const campaignId = await newCampaign(fixtures);
  const snaps = await t.db.fixtureSnapshot.findMany({ where: { campaignId } });
  const jobs = await savePlan(
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
  return { campaignId, jobs: jobs! };
}

async function restartRedis() {
  await queue.close();
  await redis.stop();
  await redis.start();
  queue = createQueueClient({ redisUrl: redis.url, queueName: 'reaper' });
}

const reaper: ReaperConfig = { staleAfterMs: 60_000, redispatchAfterMs: 0, maxDispatches: 5, maxPlanDispatches: 3 };
const dispatchCounts = async (campaignId: string) =>
  (await t.db.attempt.findMany({ where: { campaignId }, select: { status: true, dispatchCount: true } })).map((r) => [
    r.status,
    r.dispatchCount,
  ]);

describe('the reaper', () => {
  // Each test starts from an empty queue, with the earlier tests' campaigns out of the way.
  beforeEach(async () => {
    await t.db.campaign.updateMany({ data: { status: 'CANCELLED' } });
    await restartRedis();
  });

  it('leaves jobs that are still waiting in Redis alone, and re-sends the ones Redis lost', async () => {
    const { campaignId, jobs } = await plannedCampaign(5);
    await queue.enqueueMany('attempt.run', jobs);

    const first = await reapOnce(t.db, queue, reaper);
    expect(first).toMatchObject({ dispatched: 0, stillWaiting: 5 });
    expect((await queue.counts()).waiting).toBe(5);

    // Redis restarts without persistence: every waiting job is gone, the attempts are still QUEUED.
    await restartRedis();
    expect((await queue.counts()).waiting).toBe(0);

    const second = await reapOnce(t.db, queue, reaper);
    expect(second).toMatchObject({ dispatched: 5, stillWaiting: 0 });
    expect((await queue.counts()).waiting).toBe(5);
    expect(await dispatchCounts(campaignId)).toEqual(Array(5).fill(['QUEUED', 2]));
  });

  it(
    'sends an attempt whose worker stopped heartbeating again ' +
      'at once, although its old job still looks alive in Redis',
    async () => {
      const { campaignId, jobs } = await plannedCampaign(2);
      await queue.enqueueMany('attempt.run', jobs);
      // A worker claimed the first and died: its heartbeat is a minute old, its job still in Redis.
      const [lost] = jobs;
      expect(await claimAttempt(t.db, lost!.attemptId, 'wrk_dead')).not.toBeNull();
      await t.db.attempt.update({
        where: { id: lost!.attemptId },
        data: { heartbeatAt: new Date(Date.now() - 61_000) },
      });
      const r = await reapOnce(t.db, queue, reaper);
      expect(r).toMatchObject({ reaped: 1, dispatched: 1, stillWaiting: 1 });
      const rows = await t.db.attempt.findMany({
        where: { campaignId },
        select: { id: true, status: true, dispatchCount: true },
      });
      expect(rows.find((a) => a.id === lost!.attemptId)).toMatchObject({ status: 'QUEUED', dispatchCount: 2 });
      expect(rows.find((a) => a.id !== lost!.attemptId)).toMatchObject({ status: 'QUEUED', dispatchCount: 1 });
      expect(await queue.liveJobs('attempt.run', [{ attemptId: lost!.attemptId, dispatch: 2 }])).toEqual(
        new Set([`${lost!.attemptId}_d2`]),
      );
    },
  );

  it(
    'after Redis lost the queue, sends every lost attempt at once, ' +
      "inside the reaper's window, and leaves those sent since alone",
    async () => {
      const { campaignId, jobs } = await plannedCampaign(4);
      await queue.enqueueMany('attempt.run', jobs);
      await restartRedis();
      const since = new Date();
      // Sent again after the loss (by a planner, or another worker that noticed first): in the new Redis.
      const [fresh] = await redispatchAttempts(t.db, [jobs[0]!], 5).then((r) => r.jobs);
      await queue.enqueueMany('attempt.run', [fresh!]);
      // The reaper itself sends nothing yet: the jobs were sent within its window.
      expect(await reapOnce(t.db, queue, { ...reaper, redispatchAfterMs: 60_000 })).toMatchObject({ dispatched: 0 });
      expect(await resendLostAttempts(t.db, queue, reaper, since)).toEqual({ sent: 3, capped: 0 });
      expect(await dispatchCounts(campaignId)).toEqual(Array(4).fill(['QUEUED', 2]));
      expect((await queue.counts()).waiting).toBe(4);
      expect(await resendLostAttempts(t.db, queue, reaper, since)).toEqual({ sent: 0, capped: 0 });
    },
  );

  it('sends an attempt that was committed but never sent (a crash between the two), as a new dispatch', async () => {
    const { campaignId } = await plannedCampaign(2);
    const r = await reapOnce(t.db, queue, reaper);
    expect(r).toMatchObject({ dispatched: 2 });
    expect(await dispatchCounts(campaignId)).toEqual([
      ['QUEUED', 2],
      ['QUEUED', 2],
    ]);
  });

  it("never sends a fresh campaign's attempts a second time while its planner sends them", async () => {
    await restartRedis();
    // The planner has written the attempts and not yet sent them: the moment the reaper used to
    // find them "never dispatched" and send every one again, 137 ms before the planner did.
    const { campaignId, jobs } = await plannedCampaign(20);
    const during = await reapOnce(t.db, queue, { ...reaper, redispatchAfterMs: 60_000 });
    await queue.enqueueMany('attempt.run', jobs);
    expect(during).toMatchObject({ dispatched: 0 });
    expect((await queue.counts()).waiting).toBe(20);
    expect(await dispatchCounts(campaignId)).toEqual(Array(20).fill(['QUEUED', 1]));
  });

  it('two reapers racing over the same lost jobs send each attempt once', async () => {
    const { campaignId } = await plannedCampaign(30);
    // Sent an hour ago and lost since: both reapers see every attempt due at dispatch 1.
    await t.db.attempt.updateMany({ where: { campaignId }, data: { dispatchedAt: new Date(Date.now() - 3_600_000) } });
    const hourly = { ...reaper, redispatchAfterMs: 60_000 };
    const [a, b] = await Promise.all([reapOnce(t.db, queue, hourly), reapOnce(t.db, queue, hourly)]);
    expect(a.dispatched + b.dispatched).toBe(30);
    expect((await queue.counts()).waiting).toBe(30);
    expect(await dispatchCounts(campaignId)).toEqual(Array(30).fill(['QUEUED', 2]));
  });

  it(
    'stops sending an attempt past the dispatch cap, says why, ' + 'and retry brings it back with a fresh count',
    async () => {
      const { campaignId } = await plannedCampaign(1);
      const capped = { ...reaper, maxDispatches: 2 };
      expect(await reapOnce(t.db, queue, capped)).toMatchObject({ dispatched: 1 });
      await restartRedis();
      expect(await reapOnce(t.db, queue, capped)).toMatchObject({ dispatched: 0, capped: 1 });
      const [attempt] = await t.db.attempt.findMany({ where: { campaignId } });
      expect(attempt).toMatchObject({ status: 'INFRA_FAILURE', errorClass: 'dispatch_limit', dispatchCount: 2 });
      expect(attempt!.errorMessage).toMatch(/sent to workers 2 times without an outcome.*last try: none started/);
      // Its campaign has nothing left to run: it completes (incomplete, with an infrastructure failure).
      expect((await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } })).status).toBe('COMPLETED');

      const retry = await requeueInfraFailures(t.db, campaignId);
      expect(retry).toEqual({ attempts: [{ attemptId: attempt!.id, dispatch: 3 }] });
      expect(await t.db.attempt.findUniqueOrThrow({ where: { id: attempt!.id } })).toMatchObject({
        status: 'QUEUED',
        dispatchBase: 2,
        dispatchCount: 3,
        errorClass: null,
      });
      expect((await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } })).status).toBe('RUNNING');
      await restartRedis();
      // Counted afresh since the retry: one more dispatch is allowed before the cap.
      expect(await reapOnce(t.db, queue, capped)).toMatchObject({ dispatched: 1, capped: 0 });
    },
  );

  it(
    'plans again, as a new job, a campaign whose plan job ' +
      'is gone; past the cap the campaign fails with the reason',
    async () => {
      const campaignId = await newCampaign(1);
      // Plan job 1 failed for good: BullMQ keeps it as failed, so adding its id again would do nothing.
      await t.db.campaign.update({
        where: { id: campaignId },
        data: { statusDetail: 'planning failed: boom (try 3 of 3)' },
      });
      expect(await reapOnce(t.db, queue, reaper)).toMatchObject({ replanned: 1 });
      const jobs = await queue.liveJobs('campaign.plan', [{ campaignId, dispatch: 2 }]);
      expect([...jobs]).toEqual([`${campaignId}_p2`]);
      await restartRedis();
      expect(await reapOnce(t.db, queue, reaper)).toMatchObject({ replanned: 1 });
      await restartRedis();
      expect(await reapOnce(t.db, queue, reaper)).toMatchObject({ replanned: 0, planFailed: 1 });
      const failed = await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
      expect(failed.status).toBe('FAILED');
      expect(failed.statusDetail).toMatch(/handed to workers 3 times without finishing.*last: planning failed: boom/);

      const retry = await requeueInfraFailures(t.db, campaignId);
      expect(retry).toEqual({ attempts: [], plan: { campaignId, dispatch: 4 } });
      expect(await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } })).toMatchObject({
        status: 'PLANNING',
        statusDetail: null,
        planDispatchBase: 3,
      });
    },
  );
});
