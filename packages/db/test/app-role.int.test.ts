import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createDb, grantAppRole } from '../src';
import { MIGRATIONS_DIR } from '@gitbench/test-support';

/**
 * The deployment's two database roles, on the real server: a migration role that owns the database
 * (not a superuser) and the app role it sets up. Both roles and the database are this file's own.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const tag = randomBytes(4).toString('hex');
const dbName = `gitbench_roles_${tag}`;
const migrator = `gitbench_migrate_${tag}`;
const app = `gitbench_app_${tag}`;
const urlAs = (user: string, database = dbName) => {
  const url = new URL(DATABASE_URL);
  url.username = user;
  url.password = 'not-the-default-0123';
  url.pathname = `/${database}`;
  return url.toString();
};
let admin: pg.Client;

/** Runs one statement as a role; resolves to the Postgres error code, or 'ok'. */
async function as(user: string, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: urlAs(user) });
  await client.connect();
  try {
    await client.query(sql);
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: urlAs(new URL(DATABASE_URL).username || 'postgres', 'postgres') });
  await admin.connect();
  await admin.query(`CREATE ROLE ${migrator} LOGIN NOSUPERUSER CREATEROLE PASSWORD 'not-the-default-0123'`);
  await admin.query(`CREATE DATABASE ${dbName} OWNER ${migrator}`);
});
afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`DROP ROLE IF EXISTS ${app}`);
  await admin.query(`DROP ROLE IF EXISTS ${migrator}`);
  await admin.end();
});

describe('separate roles for migrating and for the app', () => {
  it(
    'the app role reads and writes rows but cannot alter, drop, ' +
      'truncate or create; the migration role keeps migrating',
    async () => {
      await applyMigrations({ databaseUrl: urlAs(migrator), migrationsDir: MIGRATIONS_DIR });
      await grantAppRole(urlAs(migrator), { user: app, password: 'app-password-0123' });

      // Rows, through the app's own client.
      const db = createDb({ databaseUrl: urlAs(app), maxConnections: 1 });
      const now = new Date();
      await db.workerHeartbeat.create({
        data: { id: 'wrk_roles', hostname: 'h', pid: 1, concurrency: 1, startedAt: now, lastSeenAt: now },
      });
      await db.workerHeartbeat.update({ where: { id: 'wrk_roles' }, data: { lastSeenAt: new Date() } });
      expect(await db.workerHeartbeat.count()).toBe(1);
      await db.workerHeartbeat.delete({ where: { id: 'wrk_roles' } });
      await db.$disconnect();

      // Not the schema (42501: insufficient privilege or must be owner).
      expect(await as(app, 'ALTER TABLE "Attempt" ADD COLUMN "sneaky" int')).toBe('42501');
      expect(await as(app, 'DROP TABLE "AuditEvent"')).toBe('42501');
      expect(await as(app, 'TRUNCATE "AuditEvent"')).toBe('42501');
      expect(await as(app, 'CREATE TABLE "Mine" (id int)')).toBe('42501');
      expect(await as(app, 'CREATE INDEX "mine" ON "Attempt" ("modelId")')).toBe('42501');
      // The migration record: read by the status page, never written.
      expect(await as(app, 'SELECT count(*) FROM "_prisma_migrations"')).toBe('ok');
      expect(await as(app, `DELETE FROM "_prisma_migrations"`)).toBe('42501');

      // A later migration, by the migration role: applied, and its table is the app's to write at once.
      const dir = mkdtempSync(path.join(tmpdir(), 'gitbench-roles-'));
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      mkdirSync(path.join(dir, '99999999999999_later'));
      writeFileSync(
        path.join(dir, '99999999999999_later', 'migration.sql'),
        'CREATE TABLE "Later" ("id" SERIAL PRIMARY KEY, "note" TEXT);\nALTER TABLE "Attempt" ADD COLUMN "later" INT;\n',
      );
      expect((await applyMigrations({ databaseUrl: urlAs(migrator), migrationsDir: dir })).applied).toEqual([
        '99999999999999_later',
      ]);
      expect(await as(app, `INSERT INTO "Later" ("note") VALUES ('x')`)).toBe('ok');
      expect(await as(app, 'DROP TABLE "Later"')).toBe('42501');
      // What the app could do while it connected as the database's owner.
      expect(await as(migrator, 'ALTER TABLE "Later" ADD COLUMN "owner" int')).toBe('ok');

      // Setting it up again (every deployment's migrate run) changes nothing it may do, and the app role is never a
      // migrator.
      await grantAppRole(urlAs(migrator), { user: app, password: 'app-password-0123' });
      expect(await as(app, 'ALTER TABLE "Later" ADD COLUMN "x" int')).toBe('42501');
      const { rows } = await admin.query(
        'SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = $1',
        [app],
      );
      expect(rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false }]);
      await expect(grantAppRole(urlAs(migrator), { user: app, password: 'short' })).rejects.toThrow(/at least 12/);
    },
  );
});
