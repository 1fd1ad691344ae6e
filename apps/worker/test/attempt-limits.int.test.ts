import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { createQueueClient, type QueueClient } from '@gitbench/queue';
import { startWorker, type RunningWorker } from '../src/worker';
import { readWorkerEnv } from '../src/env';
import type { AttemptExecutor } from '@gitbench/use-cases';
import { launch, loadFixtures, UPSTREAM_FIXTURES, waitFor } from './harness';

// An executor whose attempts never end and ignore being asked to stop: the worker's wall-clock limit
// must still end each one, as an attempt_timeout failure that says which limit it hit.
const removals: Record<string, string>[] = [];
const stuck = (): AttemptExecutor => ({
  buildKey: () => null,
  buildRepositories: async (fixtures, _labels, onBuilt) => {
    const built = fixtures.map(() => ({
      inputHash: 'h',
      repoState: 's',
      archive: Buffer.from(''),
      setupLog: '',
      buildInfo: {},
    }));
    built.forEach((b, i) => onBuilt?.(i, b));
    return built;
  },
  runAttempt: () => new Promise(() => undefined),
  removeSandboxes: async (labels) => {
    removals.push(labels);
    return 2;
  },
  removeOrphanSandboxes: async () => 0,
  describeSandbox: () => 'none',
});

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const queueName = `test-limits-${randomBytes(4).toString('hex')}`;

let t: TestDatabase;
let worker: RunningWorker;
let queue: QueueClient;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL);
  queue = createQueueClient({ redisUrl: REDIS_URL, queueName });
  worker = await startWorker(
    {
      databaseUrl: DATABASE_URL,
      databaseSchema: t.schema,
      redisUrl: REDIS_URL,
      queueName,
      concurrency: 2,
      heartbeatMs: 200,
      attemptTimeoutMs: 1_000,
    },
    stuck,
  );
});
afterAll(async () => {
  await worker?.stop();
  await queue?.close();
  await t?.drop();
});

describe('per-attempt limits in the worker', () => {
  it(
    'ends an attempt that outlives GITBENCH_ATTEMPT_TIMEOUT_MS as an infrastructure ' +
      'failure naming the limit, even when the executor ignores the stop',
    async () => {
      const fixtures = (await loadFixtures(path.resolve(UPSTREAM_FIXTURES))).slice(0, 1);
      const campaignId = await launch(t.db, queue, fixtures, {
        models: ['mock'],
        trials: 2,
        fixtures: { suiteDir: 'x', ids: [`${fixtures[0]!.domain}/${fixtures[0]!.id}`] },
      });
      const attempts = await waitFor(
        'both attempts to end',
        async () => {
          const rows = await t.db.attempt.findMany({ where: { campaignId } });
          return rows.length === 2 && rows.every((a) => a.status !== 'QUEUED' && a.status !== 'RUNNING')
            ? rows
            : undefined;
        },
        60_000,
      ).catch(async (err: Error) => {
        const c = await t.db.campaign.findUnique({ where: { id: campaignId } });
        const rows = await t.db.attempt.findMany({
          where: { campaignId },
          select: { status: true, errorMessage: true },
        });
        throw new Error(`${err.message}: campaign ${c?.status} ${c?.statusDetail ?? ''} ${JSON.stringify(rows)}`);
      });
      for (const a of attempts) {
        expect(a.status).toBe('INFRA_FAILURE');
        expect(a.errorClass).toBe('attempt_timeout');
        expect(a.errorMessage).toMatch(/wall-clock limit of 1 s \(GITBENCH_ATTEMPT_TIMEOUT_MS\)/);
      }
    },
    90_000,
  );

  it(
    'gives an agent attempt its own maxWallMs (plus its last command and ' +
      'GITBENCH_ATTEMPT_TIMEOUT_MS) before stopping it, and says which limits applied',
    async () => {
      const fixtures = (await loadFixtures(path.resolve(UPSTREAM_FIXTURES))).slice(0, 1);
      const campaignId = await launch(t.db, queue, fixtures, {
        models: ['oracle'],
        outputModes: ['agent'],
        agent: { limits: { maxWallMs: 2_000, commandTimeoutMs: 500 } },
        trials: 1,
        fixtures: { suiteDir: 'x', ids: [`${fixtures[0]!.domain}/${fixtures[0]!.id}`] },
      });
      const [a] = await waitFor(
        'the agent attempt to end',
        async () => {
          const rows = await t.db.attempt.findMany({ where: { campaignId } });
          return rows.length === 1 && rows.every((r) => r.status !== 'QUEUED' && r.status !== 'RUNNING')
            ? rows
            : undefined;
        },
        60_000,
      );
      expect(a!.status).toBe('INFRA_FAILURE');
      expect(a!.errorClass).toBe('attempt_timeout');
      // 2 s + 0.5 s + 1 s, not the single answer's 1 s; this executor ignores the stop, so it is let go 15 s later.
      // Node's timers run on a monotonic clock and can fire a millisecond before Date.now() says they are due
      // (a clean-clone run measured 18499 ms): the check allows 2 ms, far below the 15 s it tells apart.
      expect(a!.wallDurationMs).toBeGreaterThanOrEqual(3_500 + 15_000 - 2);
      expect(a!.errorMessage).toMatch(
        /wall-clock limit of 4 s .*maxWallMs \(2 s\).*commandTimeoutMs \(1 s\).*GITBENCH_ATTEMPT_TIMEOUT_MS \(1 s\)/,
      );
    },
    90_000,
  );

  it(
    "removes a cancelled campaign's sandboxes when the web " + 'app asks through the queue (it holds no Docker socket)',
    async () => {
      const reply = (await queue.enqueueAndWait(
        'campaign.cancel',
        { campaignId: 'cmp_cancelme', request: 1 },
        20_000,
      )) as { sandboxesRemoved: number };
      expect(reply).toEqual({ sandboxesRemoved: 2 });
      expect(removals).toContainEqual({ 'org.gitbench.campaign': 'cmp_cancelme' });
    },
  );

  it('refuses the local sandbox driver unless GITBENCH_UNSAFE_LOCAL_SANDBOX=1', () => {
    const base = { DATABASE_URL: 'postgresql://a@b/c', REDIS_URL: 'redis://x:1', GITBENCH_SANDBOX_DRIVER: 'local' };
    expect(() => readWorkerEnv(base)).toThrow(
      /GITBENCH_SANDBOX_DRIVER: .*refused unless GITBENCH_UNSAFE_LOCAL_SANDBOX=1/,
    );
    expect(readWorkerEnv({ ...base, GITBENCH_UNSAFE_LOCAL_SANDBOX: '1' }).GITBENCH_SANDBOX_DRIVER).toBe('local');
    expect(
      readWorkerEnv({ DATABASE_URL: 'postgresql://a@b/c', REDIS_URL: 'redis://x:1' }).GITBENCH_ATTEMPT_TIMEOUT_MS,
    ).toBe(15 * 60_000);
  });
});
