import pg from 'pg';

/**
 * Browser tests launch campaigns. In the database and queue of `npm run demo` those campaigns would
 * land on the demo's leaderboard and be run by the demo's worker, so the tests take a database and a
 * queue of their own, named after the configured ones (`gitbench` -> `gitbench_e2e`), unless
 * GITBENCH_E2E_DATABASE_URL / GITBENCH_E2E_QUEUE name them.
 *
 * Playwright loads its config in the runner and again in each test worker, which inherits the
 * runner's environment: a marker keeps the suffix from being added twice.
 */
export function useOwnDatabaseAndQueue(env: NodeJS.ProcessEnv): void {
  if (env.GITBENCH_E2E_ISOLATED === '1') return;
  const base = new URL(env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench');
  base.pathname = `/${decodeURIComponent(base.pathname.slice(1)) || 'gitbench'}_e2e`;
  env.DATABASE_URL = env.GITBENCH_E2E_DATABASE_URL ?? base.toString();
  env.GITBENCH_QUEUE = env.GITBENCH_E2E_QUEUE ?? `${env.GITBENCH_QUEUE ?? 'gitbench'}_e2e`;
  env.GITBENCH_E2E_ISOLATED = '1';
}

/** Creates the tests' database when it does not exist yet (migrations run after this). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Drops and re-creates the tests' own database, so every run starts empty: what an earlier run left
 * (a live trajectory's campaign still running, unpublished campaigns) must not change what a spec
 * sees. Only a database whose name ends in `_e2e` is ever dropped; any other is only created.
 */
export async function resetDatabase(databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!name.endsWith('_e2e')) return ensureDatabase(databaseUrl);
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
