import { randomBytes } from 'node:crypto';
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
