import { spawnSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `baseUrl` with its database replaced by `name`. */
export function databaseUrlFor(baseUrl: string, name: string): string {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A bench's own database, dropped and created empty, then migrated: figures start from nothing. */
export async function recreateDatabase(baseUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const client = new pg.Client({ connectionString: databaseUrlFor(baseUrl, 'postgres') });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const databaseUrl = databaseUrlFor(baseUrl, name);
  const migrated = spawnSync(process.execPath, ['--import', 'tsx', 'packages/db/src/migrate-cli.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (migrated.status !== 0) throw new Error(`migrating ${name} failed`);
  return databaseUrl;
}
