import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Fixture } from '@gitbench/core';
import type { AuditActor, Db } from '@gitbench/db';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { loadSuiteDir } from '@gitbench/engine';
import { createQueueClient, type QueueClient } from '@gitbench/queue';
import { DockerSandboxDriver, WORKER_LABEL } from '@gitbench/sandbox';
import { createCampaign, type CreateCampaignDeps } from '@gitbench/use-cases';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export { UPSTREAM_FIXTURES } from '../../../packages/core/test/fixtures/upstream-data';

/** The upstream fixtures through the same loader as the CLI and the web; a test suite must load cleanly. */
export async function loadFixtures(dir: string): Promise<Fixture[]> {
  const suite = await loadSuiteDir(dir);
  if (suite.errors.length)
    throw new Error(`fixtures in ${dir} do not load: ${JSON.stringify(suite.errors.slice(0, 3))}`);
  return suite.fixtures;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A Redis server of the test's own, so restarting it disturbs no other test. No persistence, like ours. */
export class TestRedis {
  private proc?: ChildProcess;
  constructor(readonly port: number) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start() {
    this.proc = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 100; i++) {
      const q = createQueueClient({ redisUrl: this.url, queueName: 'probe' });
      try {
        await q.counts();
        await q.close();
        return;
      } catch {
        await q.close().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`redis-server on ${this.port} did not start`);
  }
  async stop() {
    if (!this.proc) return;
    const p = this.proc;
    this.proc = undefined;
    p.kill('SIGKILL');
    await new Promise((r) => p.once('exit', r));
  }
}

export interface WorkerProcess {
  proc: ChildProcess;
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A real worker process (the same entry point as production), for SIGKILL and restart tests. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const output: string[] = [];
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  proc.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  await new Promise<void>((resolve, reject) => {
    // Generous: the worker compiles its TypeScript at start through tsx, which took over 30 s at load 30.
    // A worker that never got ready is killed, so that it cannot take jobs from a later test.
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`worker not ready in 120 s:\n${output.join('')}`));
    }, 120_000);
    const check = () => {
      if (output.join('').includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output.join('')}`));
    });
  });
  return {
    proc,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      // A process killed by a signal keeps exitCode null; its exit event has already fired.
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill(signal);
      return new Promise((r) => proc.once('exit', (code) => r(code)));
    },
  };
}

/** Removes the sandboxes of worker processes that are gone (those that never announced an id had none). */
export async function removeSandboxesOf(workers: WorkerProcess[]): Promise<void> {
  const ids = workers.flatMap((w) => announcedId(w) ?? []);
  if (ids.length === 0) return;
  const docker = new DockerSandboxDriver({ image: 'none' });
  for (const id of ids) await docker.removeByLabels({ [WORKER_LABEL]: id });
}

/** The GitBench version campaigns created by these tests record. */
export const CREATOR_VERSION = { version: 'creator-0123abc', dirty: false, source: 'GITBENCH_VERSION' } as const;

/** Who the audit log names for the campaigns these tests create. */
export const TEST_ACTOR: AuditActor = { userId: null, email: 'test@localhost', via: 'cli' };

/** `profiles` names the profile serving a model id; any other model is built in. */
export function deps(
  db: Db,
  fixtures: Fixture[],
  queue: QueueClient,
  profiles: Record<string, string> = {},
): CreateCampaignDeps {
  return {
    db,
    queue,
    loadSuite: async () => ({ version: 'test', fixtures, invalid: [] }),
    profileFor: (modelId) => ({ profile: profiles[modelId] ?? 'builtin' }),
    productVersion: CREATOR_VERSION,
  };
}

export async function launch(
  db: Db,
  queue: QueueClient,
  fixtures: Fixture[],
  config: Record<string, unknown>,
  profiles: Record<string, string> = {},
): Promise<string> {
  const created = await createCampaign(
    deps(db, fixtures, queue, profiles),
    { name: 'test', createdBy: 'test', ...config },
    TEST_ACTOR,
  );
  if (!created.ok) throw new Error(`campaign rejected: ${JSON.stringify(created.errors)}`);
  return created.campaignId;
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 250,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`,
  );
}

/** Waits for the campaign to complete; on a time-out, says where it stands and what the workers logged. */
export async function finished(db: Db, campaignId: string, workers: WorkerProcess[], timeoutMs: number) {
  try {
    return await waitFor(
      `campaign ${campaignId} to complete`,
      async () => {
        const c = await db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
        if (c.status === 'FAILED') throw new Error(`campaign failed: ${c.statusDetail}`);
        return c.status === 'COMPLETED' ? c : undefined;
      },
      timeoutMs,
    );
  } catch (err) {
    const counts = await db.attempt.groupBy({ by: ['status'], where: { campaignId }, _count: { _all: true } });
    const c = await db.campaign.findUnique({ where: { id: campaignId }, select: { status: true, statusDetail: true } });
    const logs = workers.map((w) => w.output.join('').slice(-1500)).join('\n---\n');
    throw new Error(
      `${(err as Error).message}; campaign ${JSON.stringify(c)}; ` +
        `attempts ${JSON.stringify(counts.map((g) => [g.status, g._count._all]))}\nworker logs:\n${logs}`,
    );
  }
}

/** Exactly one outcome per attempt: one terminal status, and one scored try behind it. */
export async function expectOneOutcomeEach(db: Db, campaignId: string, expected: number) {
  const attempts = await db.attempt.findMany({
    where: { campaignId },
    include: { tries: { orderBy: { tryNumber: 'asc' } } },
  });
  expect(attempts).toHaveLength(expected);
  for (const a of attempts) {
    expect(['VALID_PASS', 'VALID_FAIL'], `attempt ${a.id}: ${a.errorClass} ${a.errorMessage}`).toContain(a.status);
    const scored = a.tries.filter((x) => x.status === 'VALID_PASS' || x.status === 'VALID_FAIL');
    expect(scored, `attempt ${a.id} has ${scored.length} scored tries`).toHaveLength(1);
    expect(scored[0]!.status).toBe(a.status);
    expect(a.tries.at(-1)!.status).toBe(a.status);
  }
  return attempts;
}

function announcedId(w: WorkerProcess): string | undefined {
  return /\[worker (wrk_[A-Za-z0-9]+)\] ready/.exec(w.output.join(''))?.[1];
}

/** The id a worker process announced in its ready line. */
export function workerIdOf(w: WorkerProcess): string {
  const id = announcedId(w);
  if (!id) throw new Error(`worker announced no id:\n${w.output.join('').slice(-1000)}`);
  return id;
}

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';

/** A worker process's environment for a test: short heartbeats and reaper delays, so recovery is quick to watch. */
export function testWorkerEnv(
  redisUrl: string,
  queueName: string,
  schema: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL,
    REDIS_URL: redisUrl,
    GITBENCH_QUEUE: queueName,
    GITBENCH_DATABASE_SCHEMA: schema,
    GITBENCH_WORKER_CONCURRENCY: '3',
    GITBENCH_HEARTBEAT_MS: '500',
    GITBENCH_STALE_AFTER_MS: '4000',
    GITBENCH_REDISPATCH_AFTER_MS: '3000',
    GITBENCH_REAPER_INTERVAL_MS: '500',
    GITBENCH_ORPHAN_SWEEP_MS: '1000',
    ...extra,
  };
}

/**
 * What a campaign test file runs on, set up and torn down with the file: Postgres in a schema of
 * its own, a Redis of its own, and the worker processes it starts (killed after each test, so a
 * failed test leaves no reaper behind to disturb the next one's campaigns in the shared schema).
 */
export function campaignTestBed(prefix: string) {
  const bed = {
    t: undefined as unknown as TestDatabase,
    redis: undefined as unknown as TestRedis,
    queue: undefined as QueueClient | undefined,
    workers: [] as WorkerProcess[],
    /** A fresh queue of this test's own, closed with the test. */
    newQueue(name: string): { queue: QueueClient; name: string } {
      const queueName = `${name}-${Date.now()}`;
      bed.queue = createQueueClient({ redisUrl: bed.redis.url, queueName });
      return { queue: bed.queue, name: queueName };
    },
    async startWorkers(n: number, queueName: string, extra: Record<string, string> = {}): Promise<WorkerProcess[]> {
      const env = testWorkerEnv(bed.redis.url, queueName, bed.t.schema, extra);
      const started = await Promise.all(Array.from({ length: n }, () => startWorkerProcess(env)));
      bed.workers.push(...started);
      return started;
    },
    /** Stops every worker in order (SIGTERM) and closes the test's queue. */
    async stopAll(): Promise<void> {
      await Promise.all(bed.workers.splice(0).map((w) => w.stop()));
      await bed.queue?.close();
      bed.queue = undefined;
    },
  };
  beforeAll(async () => {
    bed.t = await createTestDatabase(DATABASE_URL, prefix);
    bed.redis = new TestRedis(await freePort());
    await bed.redis.start();
  });
  afterEach(async () => {
    const killed = bed.workers.splice(0);
    await Promise.all(killed.map((w) => w.stop('SIGKILL')));
    // A worker killed with SIGKILL leaves the containers it started ahead of need; in production the
    // next worker of its deployment removes them, but no later worker serves a test's deployment.
    await removeSandboxesOf(killed);
    await bed.queue?.close().catch(() => undefined);
    bed.queue = undefined;
  });
  afterAll(async () => {
    await bed.redis?.stop();
    await bed.t?.drop();
  });
  return bed;
}
