import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireWorkerHeartbeats } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'beats');
});
afterAll(async () => {
  await t?.drop();
});

describe('worker heartbeats', () => {
  it('a worker silent past the window is no longer listed; a live one stays', async () => {
    const now = new Date();
    const row = (id: string, silentMs: number) => ({
      id,
      hostname: 'h',
      pid: 1,
      concurrency: 2,
      startedAt: now,
      lastSeenAt: new Date(now.getTime() - silentMs),
    });
    await t.db.workerHeartbeat.createMany({
      data: [row('wrk_killed', 3_600_000), row('wrk_alive', 1_000), row('wrk_slow', 100_000)],
    });
    expect(await expireWorkerHeartbeats(t.db, 150_000, now)).toBe(1);
    expect((await t.db.workerHeartbeat.findMany({ orderBy: { id: 'asc' } })).map((w) => w.id)).toEqual([
      'wrk_alive',
      'wrk_slow',
    ]);
  });
});
