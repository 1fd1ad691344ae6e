import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyEnding } from '@gitbench/core';
import { dropSchema, migrateAcross, MIGRATION_CAMPAIGN_ROWS } from '@gitbench/test-support';

const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const MIGRATION = '_sandbox_error_class';
const schema = `sec_${process.pid}`;
let client: pg.Client;

/** Rows stored before a failed sandbox had one error class: a thrown failure's 'sandbox', beside others. */
const OLD_ROWS = `${MIGRATION_CAMPAIGN_ROWS}
INSERT INTO "Attempt" ("id","campaignId","targetId","fixtureSnapshotId","trial","modelId","outputMode","domain",
  "fixtureId","difficulty","status","errorClass")
  VALUES ('a1','c1','t1','f1',1,'m','text','d','f001','easy','INFRA_FAILURE','sandbox'),
    ('a2','c1','t1','f1',2,'m','text','d','f001','easy','INFRA_FAILURE','sandbox_error'),
    ('a3','c1','t1','f1',3,'m','text','d','f001','easy','INFRA_FAILURE','transient');
INSERT INTO "AttemptTry" ("id","attemptId","tryNumber","workerId","status","startedAt","errorClass")
  VALUES ('try1','a1',1,'w','INFRA_FAILURE',now(),'sandbox'), ('try2','a3',1,'w','INFRA_FAILURE',now(),'transient');
`;

beforeAll(async () => {
  client = await migrateAcross(databaseUrl, schema, MIGRATION, OLD_ROWS);
});
afterAll(async () => {
  await client?.end();
  await dropSchema(databaseUrl, schema);
});

describe('the migration to one error class for a failed sandbox', () => {
  it("renames the stored 'sandbox' to the class a failed sandbox now gets, and nothing else", async () => {
    const name = classifyEnding({ failure: 'sandbox' }).errorClass;
    expect(name).toBe(classifyEnding({ outcome: 'SANDBOX_ERROR' }).errorClass);
    const attempts = await client.query('SELECT "id", "errorClass" FROM "Attempt" ORDER BY "id"');
    expect(attempts.rows).toEqual([
      { id: 'a1', errorClass: name },
      { id: 'a2', errorClass: name },
      { id: 'a3', errorClass: 'transient' },
    ]);
    const tries = await client.query('SELECT "id", "errorClass" FROM "AttemptTry" ORDER BY "id"');
    expect(tries.rows).toEqual([
      { id: 'try1', errorClass: name },
      { id: 'try2', errorClass: 'transient' },
    ]);
  });
});
