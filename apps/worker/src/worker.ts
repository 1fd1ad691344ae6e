import os from 'node:os';
import { newId, UNKNOWN_VERSION, type ProductVersion, type SafetyReviewer } from '@gitbench/core';
import {
  createDb,
  DEFAULT_MAX_DISPATCHES,
  expireWorkerHeartbeats,
  DEFAULT_MAX_PLAN_DISPATCHES,
  type Db,
} from '@gitbench/db';
import { createQueueClient, jobCatalog, startQueueWorker, type JobHandlers, type QueueWorker } from '@gitbench/queue';
import type { AttemptExecutor } from '@gitbench/use-cases';
import { campaignHandlers } from './campaign-handlers';
import { WORKER_LABEL } from '@gitbench/sandbox';
import { QueueLossWatch } from './queue-loss';
import { reapOnce, resendLostAttempts, type ReaperConfig } from './reaper';

export interface WorkerConfig {
  /** Chosen by the caller when sandboxes must carry it from the start (see main.ts); else generated. */
  id?: string;
  databaseUrl: string;
  databaseSchema?: string;
  redisUrl: string;
  queueName: string;
  concurrency: number;
  heartbeatMs: number;
  /** Wall-clock limit of one attempt (default: the job catalog's attempt.run timeout). */
  attemptTimeoutMs?: number;
  /** Reviews finished campaigns' raw outputs (GITBENCH_SAFETY_REVIEW); none when absent. */
  safetyReviewer?: SafetyReviewer;
  reaper?: Partial<ReaperConfig> & { intervalMs?: number };
  /** How often sandboxes left by dead workers are looked for and removed. */
  orphanSweepMs?: number;
  /** This worker's GitBench version, recorded with every attempt outcome it writes (unknown if omitted). */
  productVersion?: ProductVersion;
}

export interface RunningWorker {
  id: string;
  db: Db;
  stop(): Promise<void>;
}

/**
 * Starts one worker process's moving parts: the queue consumer, the reaper, and a heartbeat row in
 * Postgres so the web app can tell which workers are alive. `stop` undoes them in order: stop the
 * reaper, stop taking jobs and abort in-flight attempts (they give their claims back), remove this
 * worker's sandboxes, drop the heartbeat, close Redis and Postgres.
 */
export async function startWorker(
  config: WorkerConfig,
  executorFor: (workerId: string) => AttemptExecutor,
): Promise<RunningWorker> {
  const id = config.id ?? newId('worker');
  const executor = executorFor(id);
  const db = createDb({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    maxConnections: config.concurrency + 4,
    applicationName: `gitbench-worker ${id}`,
    onConnectionError: (err) => console.error(`[worker ${id}] database connection lost: ${err.message}`),
  });
  const queue = createQueueClient({ redisUrl: config.redisUrl, queueName: config.queueName });
  const startedAt = new Date();
  const beat = () =>
    db.workerHeartbeat.upsert({
      where: { id },
      create: {
        id,
        hostname: os.hostname(),
        pid: process.pid,
        concurrency: config.concurrency,
        startedAt,
        lastSeenAt: new Date(),
      },
      update: { lastSeenAt: new Date() },
    });
  await beat();
  const heartbeatTimer = setInterval(() => {
    beat().catch((err: Error) => console.error(`[worker ${id}] heartbeat failed: ${err.message}`));
  }, config.heartbeatMs);

  const reaperConfig: ReaperConfig = {
    staleAfterMs: config.reaper?.staleAfterMs ?? Math.max(15_000, config.heartbeatMs * 5),
    redispatchAfterMs: config.reaper?.redispatchAfterMs ?? 60_000,
    maxDispatches: config.reaper?.maxDispatches ?? DEFAULT_MAX_DISPATCHES,
    maxPlanDispatches: config.reaper?.maxPlanDispatches ?? DEFAULT_MAX_PLAN_DISPATCHES,
    ...(config.safetyReviewer ? { safetyReviewer: config.safetyReviewer } : {}),
  };
  const log = (line: string) => console.error(`[worker ${id}] ${line}`);
  const queueLoss = new QueueLossWatch({
    queue,
    resend: (since) => resendLostAttempts(db, queue, reaperConfig, since),
    log,
  });
  queue.onConnect(
    () =>
      void queueLoss
        .check()
        .catch((err: Error) => log(`checking the queue after connecting to Redis failed: ${err.message}`)),
  );
  let reaping = false;
  const reaperTimer = setInterval(() => {
    if (reaping) return;
    reaping = true;
    // A check that fails (Redis away) is made again on reconnecting, which says why it failed if it does.
    queueLoss
      .check()
      .catch(() => undefined)
      .then(() => reapOnce(db, queue, reaperConfig))
      .then((r) => {
        if (r.reaped || r.dispatched || r.capped || r.replanned || r.planFailed)
          console.log(`[worker ${id}] reaper: ${JSON.stringify(r)}`);
      })
      .catch((err: Error) => console.error(`[worker ${id}] reaper failed: ${err.message}`))
      .finally(() => {
        reaping = false;
      });
  }, config.reaper?.intervalMs ?? 5_000);

  // A worker killed with SIGKILL leaves its pre-started and running containers behind. Any live
  // worker on the same engine removes them once their owner has been silent for a while. A worker
  // starts its containers before its first heartbeat, so one younger than that window is spared:
  // its owner may be starting, not dead (removing those failed a starting worker's first attempts).
  const sweepTimer = setInterval(() => {
    const silentFor = 3 * reaperConfig.staleAfterMs;
    const since = Date.now() - silentFor;
    db.workerHeartbeat
      .findMany({ where: { lastSeenAt: { gt: new Date(since) } }, select: { id: true } })
      .then((alive) => executor.removeOrphanSandboxes(new Set([id, ...alive.map((w) => w.id)]), since))
      .then((n) => {
        if (n > 0) console.log(`[worker ${id}] removed ${n} sandbox(es) of workers that are gone`);
      })
      // Workers silent for ten times the reaper's window are gone; the status page stops listing them.
      .then(() => expireWorkerHeartbeats(db, 10 * reaperConfig.staleAfterMs))
      .catch((err: Error) => console.error(`[worker ${id}] orphan sweep failed: ${err.message}`));
  }, config.orphanSweepMs ?? 60_000);

  const handlers: JobHandlers = {
    // The status page's Docker check rides on the ping: this worker's engine, asked now.
    'system.ping': async ({ pingId }) => {
      const engine = await (executor.sandboxEngine?.() ?? Promise.resolve(null)).then(
        (version) => ({ ok: true, detail: version }),
        (err: Error) => ({ ok: false, detail: err.message }),
      );
      return { pingId, workerId: id, at: new Date().toISOString(), sandbox: executor.describeSandbox(), engine };
    },
    ...campaignHandlers({
      db,
      queue,
      executor,
      workerId: id,
      heartbeatMs: Math.min(config.heartbeatMs, 2_000),
      attemptTimeoutMs: config.attemptTimeoutMs ?? jobCatalog['attempt.run'].timeoutMs,
      maxDispatches: reaperConfig.maxDispatches,
      ...(config.safetyReviewer ? { safetyReviewer: config.safetyReviewer } : {}),
      productVersion: config.productVersion ?? UNKNOWN_VERSION,
    }),
  };
  const consumer: QueueWorker = startQueueWorker(
    {
      redisUrl: config.redisUrl,
      queueName: config.queueName,
      concurrency: config.concurrency,
      log,
      explainLostJob: () => queueLoss.explains(),
    },
    handlers,
  );
  await consumer.worker.waitUntilReady();

  let stopping: Promise<void> | undefined;
  return {
    id,
    db,
    stop() {
      stopping ??= (async () => {
        clearInterval(reaperTimer);
        clearInterval(sweepTimer);
        clearInterval(heartbeatTimer);
        await consumer.close();
        await executor.removeSandboxes({ [WORKER_LABEL]: id }).catch(() => undefined);
        await db.workerHeartbeat.delete({ where: { id } }).catch(() => undefined);
        await queue.close();
        await db.$disconnect();
      })();
      return stopping;
    },
  };
}
