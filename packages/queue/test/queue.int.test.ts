import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '@gitbench/core';
import { createQueueClient, jobCatalog, parsePayload, startQueueWorker } from '../src';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const queueName = `test-${randomBytes(4).toString('hex')}`;
const client = createQueueClient({ redisUrl: REDIS_URL, queueName });
const seen: string[] = [];
const worker = startQueueWorker(
  { redisUrl: REDIS_URL, queueName, concurrency: 2 },
  {
    'system.ping': async ({ pingId }) => {
      seen.push(pingId);
      return { pingId, echoed: true };
    },
    'campaign.plan': async () => {
      throw new Error('not used in this test');
    },
    'campaign.cancel': async () => {
      throw new Error('not used in this test');
    },
    'attempt.run': async () => {
      throw new Error('not used in this test');
    },
  },
);

afterAll(async () => {
  await worker.close();
  await client.close();
});

describe('the typed job catalog on a real BullMQ worker', () => {
  it('processes a job and returns its result', async () => {
    const pingId = newId('ping');
    const result = await client.enqueueAndWait('system.ping', { pingId }, 10_000);
    expect(result).toEqual({ pingId, echoed: true });
    expect(seen).toContain(pingId);
  });

  it('collapses a duplicate enqueue of the same row into one job', async () => {
    const pingId = newId('ping');
    await client.enqueue('system.ping', { pingId });
    await client.enqueue('system.ping', { pingId });
    await client.enqueueAndWait('system.ping', { pingId: newId('ping') }, 10_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.filter((s) => s === pingId)).toHaveLength(1);
  });

  it('rejects an invalid payload before it reaches Redis', async () => {
    await expect(client.enqueue('system.ping', { pingId: 'has:colon' })).rejects.toThrow();
    expect(() => parsePayload('system.ping', { nope: 1 })).toThrow(/pingId/);
    expect(Object.keys(jobCatalog)).toContain('system.ping');
  });
});

describe("the worker's errors", () => {
  it('jobs lost from a Redis restarted empty make one line, not a stack trace each', () => {
    const lines: string[] = [];
    const quiet = startQueueWorker(
      { redisUrl: REDIS_URL, queueName: `${queueName}-errors`, concurrency: 1, log: (l) => lines.push(l) },
      {
        'system.ping': async () => undefined,
        'campaign.plan': async () => undefined,
        'campaign.cancel': async () => undefined,
        'attempt.run': async () => undefined,
      },
    );
    for (let i = 0; i < 12; i++) quiet.worker.emit('error', new Error(`Missing key for job att_${i}. moveToFinished`));
    quiet.worker.emit('error', new Error('connection reset'));
    expect(lines).toEqual([
      "queue: job att_0 is missing from Redis; its attempt's " +
        'outcome is in Postgres, and the reaper re-sends what was lost',
      'queue error: connection reset',
    ]);
    return quiet.close();
  });

  it(
    'says nothing of lost jobs that the loss of the ' + 'whole queue explains, and the usual line for the others',
    async () => {
      const lines: string[] = [];
      const asked: string[] = [];
      const quiet = startQueueWorker(
        {
          redisUrl: REDIS_URL,
          queueName: `${queueName}-explained`,
          concurrency: 1,
          log: (l) => lines.push(l),
          explainLostJob: async (jobId) => {
            asked.push(jobId);
            return jobId !== 'att_9';
          },
        },
        {
          'system.ping': async () => undefined,
          'campaign.plan': async () => undefined,
          'campaign.cancel': async () => undefined,
          'attempt.run': async () => undefined,
        },
      );
      for (const i of [1, 2, 9]) quiet.worker.emit('error', new Error(`Missing key for job att_${i}. moveToDelayed`));
      await new Promise((r) => setImmediate(r));
      expect(asked).toEqual(['att_1', 'att_2', 'att_9']);
      expect(lines).toEqual([
        "queue: job att_9 is missing from Redis; its attempt's " +
          'outcome is in Postgres, and the reaper re-sends what was lost',
      ]);
      return quiet.close();
    },
  );
});
