import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  campaignTestBed,
  expectOneOutcomeEach,
  finished,
  launch,
  loadFixtures,
  UPSTREAM_FIXTURES,
  waitFor,
  workerIdOf,
} from './harness';

/**
 * Postgres ends the workers' connections mid-campaign, over and over, the way an operator's
 * pg_terminate_backend (or a database failover) does. Workers must neither crash nor freeze: they keep
 * heartbeating, finish the campaign by themselves, and count every attempt exactly once.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const FIXTURE_IDS = [
  'blame_forensics/f001',
  'branch_cleanup/f001',
  'merge_conflicts/f002',
  'git_clean/f002',
  'git_grep/f001',
  'commit_squash/f001',
];
const TERMINATIONS = 6;

const bed = campaignTestBed('pgkill');
let admin: pg.Client;
const fixtures = await loadFixtures(UPSTREAM_FIXTURES);

beforeAll(async () => {
  admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
});

/** Ends every connection these workers hold (their main pool and their judge cache's). */
async function terminate(workerIds: string[]): Promise<number> {
  const { rows } = await admin.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
      WHERE datname = current_database() AND split_part(application_name, ' ', 2) = ANY($1::text[])`,
    [workerIds],
  );
  return rows.filter((r) => r.ended).length;
}

describe('losing the database connection', () => {
  it(
    'workers survive repeated pg_terminate_backend, keep heartbeating, ' + 'and finish the campaign exactly once',
    async () => {
      const { queue, name } = bed.newQueue('pgkill');
      // A small pool makes a leaked connection show at once, as it did in production.
      const workers = await bed.startWorkers(2, name, { GITBENCH_WORKER_CONCURRENCY: '2' });
      const ids = workers.map(workerIdOf);
      const campaignId = await launch(bed.t.db, queue, fixtures, {
        models: ['oracle', 'mock'],
        trials: 3,
        fixtures: { suiteDir: 'upstream', ids: FIXTURE_IDS },
      });

      let ended = 0;
      for (let i = 0; i < TERMINATIONS; i++) {
        await new Promise((r) => setTimeout(r, 600 + 150 * i));
        ended += await terminate(ids);
      }
      expect(ended, 'connections ended').toBeGreaterThan(TERMINATIONS);
      const lastKill = new Date();

      await finished(bed.t.db, campaignId, workers, 180_000);
      await expectOneOutcomeEach(bed.t.db, campaignId, 2 * FIXTURE_IDS.length * 3);
      for (const w of workers) expect(w.proc.exitCode, `worker exited:\n${w.output.join('').slice(-2000)}`).toBeNull();
      // Both still prove they are alive, after the last connection was ended.
      await waitFor(
        'both workers to heartbeat after the last termination',
        async () =>
          (await bed.t.db.workerHeartbeat.count({ where: { id: { in: ids }, lastSeenAt: { gt: lastKill } } })) === 2,
        15_000,
      );
      // And both still answer an orderly stop.
      for (const w of bed.workers.splice(0)) expect(await w.stop('SIGTERM')).toBe(0);
    },
    300_000,
  );
});
