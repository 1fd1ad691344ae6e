import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations, createDb, quoteIdent, type Db } from '@gitbench/db';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../prisma/migrations');

export interface TestDatabase {
  db: Db;
  schema: string;
  databaseUrl: string;
  drop(): Promise<void>;
}

/** A freshly migrated Postgres schema of its own, so a test never sees another test's rows. */
export async function createTestDatabase(databaseUrl: string, prefix = 't'): Promise<TestDatabase> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  await applyMigrations({ databaseUrl, migrationsDir: MIGRATIONS_DIR, schema });
  const db = createDb({ databaseUrl, schema, maxConnections: 4 });
  return {
    db,
    schema,
    databaseUrl,
    async drop() {
      await db.$disconnect();
      await dropSchema(databaseUrl, schema);
    },
  };
}

export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function runSql(databaseUrl: string, schema: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A campaign (c1) with one target (t1, text mode) and one fixture (f1): what a migration's test's rows hang on. */
export const MIGRATION_CAMPAIGN_ROWS = `
INSERT INTO "Campaign" ("id","name","createdBy","config","configHash","seed","suiteVersion","trials")
  VALUES ('c1','c','u','{}','h',0,'v',1);
INSERT INTO "CampaignTarget" ("id","campaignId","modelId","baseModel","outputMode","profile")
  VALUES ('t1','c1','m','m','text','p');
INSERT INTO "FixtureSnapshot" ("id","campaignId","domain","fixtureId","difficulty","tags","definition","scoringType")
  VALUES ('f1','c1','d','f001','easy','{}','{}','state_assertions');
`;

/**
 * A migration's test: every migration but the one whose name ends with `migration` applied to a schema
 * of its own, `rows` written there as the code before it wrote them, then every migration. Returns a
 * client whose search path is the schema (the caller ends it and drops the schema).
 */
export async function migrateAcross(
  databaseUrl: string,
  schema: string,
  migration: string,
  rows: string,
): Promise<pg.Client> {
  const before = await mkdtemp(path.join(tmpdir(), 'gb-migrations-'));
  try {
    for (const name of await readdir(MIGRATIONS_DIR)) {
      if (!name.endsWith(migration))
        await cp(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    await applyMigrations({ databaseUrl, migrationsDir: before, schema });
  } finally {
    await rm(before, { recursive: true, force: true });
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`SET search_path TO ${quoteIdent(schema)}`);
  await client.query(rows);
  await applyMigrations({ databaseUrl, migrationsDir: MIGRATIONS_DIR, schema });
  return client;
}
