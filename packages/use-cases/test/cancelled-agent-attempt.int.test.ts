import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCampaign, listTrajectories, markCampaignCancelled, savePlan, startTrajectory } from '@gitbench/db';
import { createTestDatabase, runSql, type TestDatabase } from '@gitbench/test-support';
import { PlannedRows, runAttempt, type AttemptExecutor, type RunAttemptDeps } from '../src';

/**
 * An agent attempt whose campaign is cancelled while its loop runs ends with one write: the attempt's
 * CANCELLED row, its try and its trajectory's `cancelled` ending land in one transaction, so no reader
 * (and no crash between two writes) ever sees a cancelled attempt whose trajectory still runs.
 * Real Postgres; the executor is a stand-in that starts the trajectory and waits to be stopped.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

// Each change to an attempt's status and to a trajectory's ending is logged with its transaction.
const WRITE_LOG = `
  CREATE TABLE write_log (tbl text NOT NULL, txid bigint NOT NULL);
  CREATE FUNCTION log_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO write_log VALUES (TG_TABLE_NAME, txid_current()); RETURN NEW; END $$;
  CREATE TRIGGER attempt_ended AFTER UPDATE ON "Attempt" FOR EACH ROW
    WHEN (NEW.status = 'CANCELLED' AND OLD.status <> 'CANCELLED') EXECUTE FUNCTION log_write();
  CREATE TRIGGER trajectory_ended AFTER UPDATE ON "Trajectory" FOR EACH ROW
    WHEN (NEW."exitStatus" IS DISTINCT FROM OLD."exitStatus") EXECUTE FUNCTION log_write();`;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'uc_cancel');
  await runSql(DATABASE_URL, t.schema, WRITE_LOG);
});
afterAll(async () => {
  await t?.drop();
});

/** A planned agent-mode campaign of one attempt, QUEUED, and its dispatch job. */
async function plannedAgentAttempt() {
  const campaignId = await insertCampaign(t.db, {
    name: 'cancel mid-agent',
    createdBy: 'test',
    config: {},
    configHash: 'h',
    seed: 0,
    suiteVersion: 'test',
    trials: 1,
    targets: [
      { modelId: 'oracle', baseModel: 'oracle', reasoningEffort: null, outputMode: 'agent', profile: 'builtin' },
    ],
    fixtures: [
      {
        domain: 'git_clean',
        fixtureId: 'f001',
        difficulty: 'easy',
        tags: [],
        scoringType: 'state_assertions',
        definition: {},
      },
    ],
  });
  const [snap] = await t.db.fixtureSnapshot.findMany({ where: { campaignId }, select: { id: true } });
  const jobs = await savePlan(t.db, campaignId, [
    { snapshotId: snap!.id, inputHash: 'i', repoState: 's', tar: Buffer.from('tar'), setupLog: '', buildInfo: {} },
  ]);
  return { campaignId, job: jobs![0]! };
}

/** Starts the agent's trajectory, then the campaign is cancelled; runs until the worker stops it. */
function agentCancelledMidLoop(campaignId: string): AttemptExecutor {
  return {
    buildKey: () => null,
    buildRepositories: () => Promise.reject(new Error('not planned here')),
    removeSandboxes: async () => 0,
    removeOrphanSandboxes: async () => 0,
    describeSandbox: () => 'none',
    async runAttempt(attempt, signal) {
      await startTrajectory(t.db, {
        attemptId: attempt.attemptId,
        tryNumber: attempt.tryNumber,
        agent: 'gitbench',
        model: 'oracle',
        toolSet: 'shell',
      });
      await markCampaignCancelled(t.db, campaignId);
      // The heartbeat may have noticed the cancel already.
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      // The loop ended on the removed sandbox, as the real one does.
      return { status: 'INFRA_FAILURE', record: { errorClass: 'sandbox_error', errorMessage: 'the sandbox is gone' } };
    },
  };
}

describe('a cancelled agent attempt', () => {
  it('writes its CANCELLED row, its try and its trajectory ending in one transaction', async () => {
    const { campaignId, job } = await plannedAgentAttempt();
    const deps: RunAttemptDeps = {
      db: t.db,
      queue: { enqueueMany: () => Promise.reject(new Error('nothing is sent again')) },
      executor: agentCancelledMidLoop(campaignId),
      workerId: 'wrk_test',
      heartbeatMs: 50,
      attemptTimeoutMs: 60_000,
      maxDispatches: 3,
      planned: new PlannedRows(t.db),
      finish: { db: t.db },
      product: { productVersion: 'test', productDirty: false },
      log: () => undefined,
    };
    await runSql(DATABASE_URL, t.schema, 'TRUNCATE write_log');

    expect(await runAttempt(deps, job, new AbortController().signal)).toEqual({ aborted: 'cancelled' });

    const attempt = await t.db.attempt.findUniqueOrThrow({ where: { id: job.attemptId }, include: { tries: true } });
    expect(attempt.status).toBe('CANCELLED');
    expect(attempt.tries.map((x) => [x.status, x.errorClass])).toEqual([['CANCELLED', 'cancelled']]);
    const [trajectory] = await listTrajectories(t.db, job.attemptId);
    expect([trajectory?.status, trajectory?.exitStatus]).toEqual(['finished', 'cancelled']);
    // RUNNING -> CANCELLED, then the trajectory's ending: two tables, one transaction.
    const writes = await t.db.$queryRawUnsafe<{ tbl: string; txid: bigint }[]>('SELECT tbl, txid FROM write_log');
    expect(writes.map((w) => w.tbl).sort()).toEqual(['Attempt', 'Trajectory']);
    expect(new Set(writes.map((w) => w.txid)).size).toBe(1);
  });
});
