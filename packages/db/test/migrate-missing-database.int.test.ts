import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../src';
import { MIGRATIONS_DIR } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const name = `gitbench_missing_${randomBytes(4).toString('hex')}`;
const missingUrl = (() => {
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
})();

afterAll(async () => {
  const url = new URL(DATABASE_URL);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}"`);
  await client.end();
});

describe('migrating a database that does not exist', () => {
  it('creates it and applies every migration, as the README says', async () => {
    const report = await applyMigrations({ databaseUrl: missingUrl, migrationsDir: MIGRATIONS_DIR });
    expect(report.applied.length).toBeGreaterThan(10);
    const again = await applyMigrations({ databaseUrl: missingUrl, migrationsDir: MIGRATIONS_DIR });
    expect(again.applied).toEqual([]);
  });
});
