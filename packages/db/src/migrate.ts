import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * Applies the committed SQL migrations (prisma/migrations/<name>/migration.sql) and records them in
 * Prisma's own `_prisma_migrations` table with Prisma's checksum (sha256 of the file), so that
 * `prisma migrate deploy` on a machine with the native engine treats them as applied.
 * Needed because the Wasm schema engine cannot run `migrate deploy` against Postgres here.
 *
 * Each migration and its bookkeeping row commit in one transaction: a failing migration leaves
 * nothing half-applied. A session advisory lock serialises concurrent runners (web and worker
 * starting together).
 */
export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration?: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

const LOCK_KEY = 72_657_301; // arbitrary, constant across processes

const BOOKKEEPING_DDL = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function listMigrations(
  migrationsDir: string,
): Promise<{ name: string; sql: string; checksum: string }[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new MigrationError(`invalid schema name '${name}'`);
  return `"${name}"`;
}

/** Postgres's error for a database that does not exist. */
const INVALID_CATALOG_NAME = '3D000';

/**
 * A connection to the database, created first when it does not exist yet (through the server's
 * `postgres` database, with the same credentials). When it cannot be created, one line says so.
 */
async function connectCreatingDatabase(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    return client;
  } catch (err) {
    if ((err as { code?: string }).code !== INVALID_CATALOG_NAME) throw err;
  }
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  } catch (err) {
    // Another process may have created it meanwhile.
    if ((err as { code?: string }).code !== '42P04') {
      throw new MigrationError(
        `database "${name}" does not exist and could not be created ` +
          `(${(err as Error).message}); create it, e.g. createdb ${name}`,
      );
    }
  } finally {
    await admin.end().catch(() => undefined);
  }
  const created = new pg.Client({ connectionString: databaseUrl });
  await created.connect();
  return created;
}

export async function applyMigrations(opts: {
  databaseUrl: string;
  migrationsDir: string;
  schema?: string;
}): Promise<MigrationReport> {
  const schema = opts.schema ?? 'public';
  const client = await connectCreatingDatabase(opts.databaseUrl);
  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(BOOKKEEPING_DDL);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
    const recorded = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    for (const m of await listMigrations(opts.migrationsDir)) {
      const row = recorded.get(m.name);
      if (row) {
        if (row.finished_at === null) {
          throw new MigrationError(
            `migration ${m.name} is recorded as started but never finished; resolve it before migrating`,
            m.name,
          );
        }
        if (row.checksum !== m.checksum) {
          throw new MigrationError(
            `migration ${m.name} was edited after it was applied (checksum ${row.checksum.slice(0, 12)} ` +
              `in the database, ${m.checksum.slice(0, 12)} on disk); add a new migration instead`,
            m.name,
          );
        }
        report.alreadyApplied.push(m.name);
        continue;
      }
      try {
        await client.query('BEGIN');
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query('COMMIT');
        report.applied.push(m.name);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new MigrationError(`migration ${m.name} failed and was rolled back: ${(err as Error).message}`, m.name);
      }
    }
    return report;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
