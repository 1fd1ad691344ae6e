import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '@gitbench/core';
import { campaignHeaderSelect, createDb, Prisma, sqlRows, summarizeCampaign } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;
const tz = process.env.TZ;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'sqlrows');
  // pg reads a timestamp without time zone in the host's zone; Prisma reads it as UTC. A zone far
  // from UTC makes the difference show.
  process.env.TZ = 'America/Los_Angeles';
});
afterAll(async () => {
  process.env.TZ = tz;
  await t?.drop();
});

async function campaign(): Promise<string> {
  const id = newId('campaign');
  await t.db.campaign.create({
    data: {
      id,
      name: 'c',
      createdBy: 'u',
      status: 'RUNNING',
      config: { a: [1, 'x'] },
      configHash: 'h',
      seed: 7,
      suiteVersion: 'v',
      trials: 2,
      startedAt: new Date('2026-03-04T05:06:07.891Z'),
      productDirty: true,
    },
  });
  return id;
}

it(
  "gives a statement's rows the values Prisma's $queryRaw gives: " +
    'bigint counts, UTC timestamps, parsed JSON, enums as text',
  async () => {
    const id = await campaign();
    const q = Prisma.sql`SELECT count(*) OVER () AS n, "startedAt", "createdAt", "config", "status", "seed",
    "productDirty", 1.5::float8 AS f
                         FROM "Campaign" WHERE "id" = ${id}`;
    const [viaPool] = await sqlRows<Record<string, unknown>>(t.db, q);
    const [viaPrisma] = await t.db.$queryRaw<Record<string, unknown>[]>(q);
    expect(viaPool).toEqual(viaPrisma);
    expect(viaPool!.n).toBe(1n);
    expect((viaPool!.startedAt as Date).toISOString()).toBe('2026-03-04T05:06:07.891Z');
  },
);

it("summarizeCampaign's header is the row Prisma's client reads, in any time zone", async () => {
  const id = await campaign();
  const summary = await summarizeCampaign(t.db, id);
  expect(summary?.campaign).toEqual(await t.db.campaign.findUnique({ where: { id }, select: campaignHeaderSelect }));
  expect(await summarizeCampaign(t.db, 'cmp_none')).toBeNull();
});

it(
  'a client that read only through sqlRows closes its connections ' +
    'on $disconnect, instead of keeping them idle for 10 s',
  async () => {
    const applicationName = `sqlrows-${process.pid}-${Date.now()}`;
    const db = createDb({ databaseUrl: DATABASE_URL, schema: t.schema, applicationName });
    await sqlRows(db, Prisma.sql`SELECT 1`);
    const open = async () =>
      Number(
        (
          await sqlRows<{ n: bigint }>(
            t.db,
            Prisma.sql`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ${applicationName}`,
          )
        )[0]!.n,
      );
    expect(await open()).toBe(1);
    await db.$disconnect();
    await expect.poll(open, { timeout: 2_000 }).toBe(0);
  },
);
