import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';

let t: TestDatabase;
let admin: pg.Client;
let db: Db;
const errors: Error[] = [];

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'conn');
  admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  // Two connections: one that is never given back shows at once.
  db = createDb({
    databaseUrl: DATABASE_URL,
    schema: t.schema,
    maxConnections: 2,
    acquireTimeoutMs: 3_000,
    applicationName: `conn-test ${t.schema}`,
    onConnectionError: (e) => errors.push(e),
  });
});
afterAll(async () => {
  await db?.$disconnect();
  await admin?.end();
  await t?.drop();
});

const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);

describe('a pool whose connections are ended by the server', () => {
  it('gets back every connection of a transaction that died, so the pool never runs dry', async () => {
    for (let i = 0; i < 4; i++) {
      const died = db.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        await terminate(row!.pid);
        await tx.$queryRaw`SELECT 1`;
      });
      await expect(died).rejects.toThrow();
    }
    // Four dead transactions on a pool of two: a leak would make this wait out the acquire timeout.
    expect(await db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    await expect(db.$transaction(async (tx) => tx.workerHeartbeat.count())).resolves.toBe(0);
  });

  it(
    'survives idle connections being ended, and fails a query ' + 'fast instead of hanging when none can be had',
    async () => {
      await Promise.all([db.$queryRaw`SELECT pg_sleep(0.05)::text`, db.$queryRaw`SELECT pg_sleep(0.05)::text`]);
      const ended = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
        [`conn-test ${t.schema}`],
      );
      expect(ended.rowCount).toBe(2);
      await new Promise((r) => setTimeout(r, 200));
      expect(errors.length, 'the ended idle connections were reported, not thrown').toBeGreaterThan(0);
      expect(await db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);

      const [a, b] = [
        db.$transaction(() => new Promise((r) => setTimeout(r, 4_500)), { timeout: 10_000 }),
        db.$transaction(() => new Promise((r) => setTimeout(r, 4_500)), { timeout: 10_000 }),
      ];
      const started = Date.now();
      await expect(db.$queryRaw`SELECT 1`).rejects.toThrow(/timeout|timed out/i);
      expect(Date.now() - started).toBeLessThan(4_400);
      await Promise.all([a, b]);
    },
    30_000,
  );
});
