import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@gitbench/core';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { createQueueClient } from '@gitbench/queue';
import { startWorker, type RunningWorker } from '../src/worker';
import { readWorkerEnv } from '../src/env';
import type { AttemptExecutor } from '@gitbench/use-cases';

// These tests exercise heartbeats and pings only; no attempt reaches the executor.
const noAttempts = (): AttemptExecutor => ({
  buildKey: () => null,
  buildRepositories: async () => {
    throw new Error('no campaign in this test');
  },
  runAttempt: async () => {
    throw new Error('no campaign in this test');
  },
  removeSandboxes: async () => 0,
  sandboxEngine: async () => 'engine 0.0-test',
  removeOrphanSandboxes: async () => 0,
  describeSandbox: () => 'none',
});

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const queueName = `test-worker-${randomBytes(4).toString('hex')}`;

let t: TestDatabase;
let worker: RunningWorker;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL);
  worker = await startWorker(
    {
      databaseUrl: DATABASE_URL,
      databaseSchema: t.schema,
      redisUrl: REDIS_URL,
      queueName,
      concurrency: 2,
      heartbeatMs: 200,
    },
    noAttempts,
  );
});
afterAll(async () => {
  await worker?.stop();
  await t?.drop();
});

describe('the worker process', () => {
  it('announces itself with a heartbeat and answers pings through Redis', async () => {
    const beat = await t.db.workerHeartbeat.findUniqueOrThrow({ where: { id: worker.id } });
    // The next beat, however long a loaded machine takes to send it (the test's own timeout bounds the wait).
    let later = beat;
    while (later.lastSeenAt.getTime() <= beat.lastSeenAt.getTime()) {
      await new Promise((r) => setTimeout(r, 50));
      later = await t.db.workerHeartbeat.findUniqueOrThrow({ where: { id: worker.id } });
    }
    expect(later.lastSeenAt.getTime()).toBeGreaterThan(beat.lastSeenAt.getTime());
    const client = createQueueClient({ redisUrl: REDIS_URL, queueName });
    try {
      const reply = (await client.enqueueAndWait('system.ping', { pingId: newId('ping') }, 10_000)) as {
        workerId: string;
        engine: unknown;
      };
      expect(reply.workerId).toBe(worker.id);
      // The status page's Docker check is the worker's word on its engine (the web app has no socket).
      expect(reply.engine).toEqual({ ok: true, detail: 'engine 0.0-test' });
    } finally {
      await client.close();
    }
  });

  it('removes its heartbeat on an orderly stop', async () => {
    const other = await startWorker(
      {
        databaseUrl: DATABASE_URL,
        databaseSchema: t.schema,
        redisUrl: REDIS_URL,
        queueName,
        concurrency: 1,
        heartbeatMs: 1000,
      },
      noAttempts,
    );
    expect(await t.db.workerHeartbeat.count({ where: { id: other.id } })).toBe(1);
    await other.stop();
    expect(await t.db.workerHeartbeat.count({ where: { id: other.id } })).toBe(0);
  });

  it('refuses to start with a broken environment and names the variable', () => {
    expect(() => readWorkerEnv({ DATABASE_URL: 'not a url', REDIS_URL: 'redis://x:1' })).toThrow(/DATABASE_URL/);
    expect(() =>
      readWorkerEnv({ DATABASE_URL: 'postgresql://a@b/c', REDIS_URL: 'redis://x:1', GITBENCH_WORKER_CONCURRENCY: '0' }),
    ).toThrow(/GITBENCH_WORKER_CONCURRENCY/);
  });
});
