import 'server-only';
import { newId, type ProductVersion } from '@gitbench/core';
import { createDb, type Db } from '@gitbench/db';
import { ProviderRegistry } from '@gitbench/providers';
import { createQueueClient, type QueueClient } from '@gitbench/queue';
import { detectProductVersion } from '@gitbench/engine';
import { webEnv } from './env';

// One set of clients per server process, created on first use.
const globalForServices = globalThis as unknown as {
  gitbenchServices?: { db: Db; queue: QueueClient };
  gitbenchRegistry?: Promise<ProviderRegistry>;
  gitbenchVersion?: ProductVersion;
};

/**
 * This server's GitBench version (GITBENCH_VERSION, else the checkout it runs from), recorded with each campaign it
 * creates.
 */
export function productVersion(): ProductVersion {
  globalForServices.gitbenchVersion ??= detectProductVersion(process.env, webEnv().GITBENCH_ROOT);
  return globalForServices.gitbenchVersion;
}

export function services() {
  if (!globalForServices.gitbenchServices) {
    const env = webEnv();
    globalForServices.gitbenchServices = {
      db: createDb({ databaseUrl: env.DATABASE_URL, maxConnections: 5 }),
      queue: createQueueClient({ redisUrl: env.REDIS_URL, queueName: env.GITBENCH_QUEUE }),
    };
  }
  return globalForServices.gitbenchServices;
}

/**
 * The provider registry, loaded once like the worker's (same profile file, same rules), so the web
 * accepts exactly the models a worker can run. The web never calls a model; it only asks which
 * profile serves a model id.
 */
export function providerRegistry(): Promise<ProviderRegistry> {
  if (!globalForServices.gitbenchRegistry) {
    const env = webEnv();
    globalForServices.gitbenchRegistry = ProviderRegistry.load({
      ...(env.GITBENCH_PROFILES ? { profilesFile: env.GITBENCH_PROFILES } : {}),
      cwd: env.GITBENCH_ROOT,
      env: process.env,
    });
    // A bad profile file is reported on every request until it is fixed, not cached as a failure.
    globalForServices.gitbenchRegistry.catch(() => (globalForServices.gitbenchRegistry = undefined));
  }
  return globalForServices.gitbenchRegistry;
}

export interface ServiceCheck {
  name: 'PostgreSQL' | 'Redis' | 'Worker' | 'Docker';
  ok: boolean;
  /** Not known either way: Docker, when no worker is alive to report on it (nothing is asked then). */
  unknown?: boolean;
  detail: string;
  ms: number;
  /** When the check started (ISO): a page left open shows how old its answer is. */
  checkedAt: string;
}

/** A check that cannot be made now, and why: shown as unknown, neither reachable nor not. */
class NotKnown extends Error {}

async function timed(name: ServiceCheck['name'], fn: () => Promise<string>): Promise<ServiceCheck> {
  const started = Date.now();
  const checkedAt = new Date(started).toISOString();
  try {
    const detail = await fn();
    return { name, ok: true, detail, ms: Date.now() - started, checkedAt };
  } catch (err) {
    if (err instanceof NotKnown)
      return { name, ok: false, unknown: true, detail: err.message, ms: Date.now() - started, checkedAt };
    return { name, ok: false, detail: (err as Error).message, ms: Date.now() - started, checkedAt };
  }
}

const WORKER_FRESH_MS = 20_000;

/** What a worker answers to `system.ping` (apps/worker/src/worker.ts). */
interface WorkerPing {
  workerId: string;
  sandbox?: string;
  engine?: { ok: boolean; detail: string | null } | null;
}

export async function checkServices(): Promise<ServiceCheck[]> {
  const env = webEnv();
  const { db, queue } = services();
  // One ping answers for the worker and for Docker: the web app holds no Docker socket (compose), so a
  // live worker reports on the engine it runs sandboxes with. With no worker alive nobody would take the
  // ping, and waiting out its 5 s would hold the page for nothing: Docker is then unknown, at once.
  const alive = db.workerHeartbeat.findMany({
    where: { lastSeenAt: { gt: new Date(Date.now() - WORKER_FRESH_MS) } },
    orderBy: { lastSeenAt: 'desc' },
  });
  let ping: Promise<WorkerPing> | null = null;
  const pingWorker = () =>
    (ping ??= queue.enqueueAndWait('system.ping', { pingId: newId('ping') }, 5_000) as Promise<WorkerPing>);
  return Promise.all([
    timed('PostgreSQL', async () => {
      const rows = await db.$queryRaw<{ version: string; migrations: bigint }[]>`
        SELECT current_setting('server_version') AS version,
               (SELECT count(*) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL) AS migrations`;
      return `PostgreSQL ${rows[0]?.version}, ${rows[0]?.migrations} migrations applied`;
    }),
    timed('Redis', async () => {
      const counts = await queue.counts();
      return `queue '${env.GITBENCH_QUEUE}': ${counts.waiting ?? 0} waiting, ${counts.active ?? 0} active`;
    }),
    timed('Worker', async () => {
      const workers = await alive;
      if (workers.length === 0)
        throw new Error('no worker has sent a heartbeat in the last 20 s (start one: npm run demo)');
      const reply = await pingWorker();
      return `${workers.length} alive; ping answered by ${reply.workerId}`;
    }),
    timed('Docker', async () => {
      if ((await alive.catch(() => [])).length === 0)
        throw new NotKnown('unknown: no worker is alive to report on its Docker engine (the web app has none)');
      const reply = await pingWorker().catch((err: Error) => {
        throw new Error(`no worker answered to report on its Docker engine (${err.message})`);
      });
      if (!reply.engine) throw new Error(`worker ${reply.workerId} did not report on its sandbox engine`);
      if (!reply.engine.ok)
        throw new Error(`worker ${reply.workerId} cannot reach its Docker engine: ${reply.engine.detail}`);
      return `${reply.engine.detail}; sandbox ${reply.sandbox ?? 'unknown'} (reported by worker ${reply.workerId})`;
    }),
  ]);
}
