import { ProviderRegistry } from '@gitbench/providers';
import { createSandboxDriver, DEPLOYMENT_LABEL, WORKER_LABEL } from '@gitbench/sandbox';
import { canonicalJson, newId, safetyReviewerFromEnv, sha256Hex, versionLabel } from '@gitbench/core';
import { detectProductVersion } from '@gitbench/engine';
import { createDb, openProviderKeys } from '@gitbench/db';
import { createEngineExecutor } from './engine-executor';
import { databaseIdentity, readWorkerEnv, UNSAFE_LOCAL_WARNING } from './env';
import { startWorker } from './worker';

const env = readWorkerEnv();
const unsafeLocal = env.GITBENCH_SANDBOX_DRIVER === 'local';
if (unsafeLocal) console.error(`[worker] ${UNSAFE_LOCAL_WARNING.replace('ran', 'runs')}`);
// Stored provider keys, opened with the deployment's secret and read again every 15 s (a key added or
// replaced on the settings page reaches running workers without a restart). Never logged.
let storedKeys: ReadonlyMap<string, string> = new Map();
const keysDb = env.GITBENCH_SECRET_KEY
  ? createDb({
      databaseUrl: env.DATABASE_URL,
      schema: env.GITBENCH_DATABASE_SCHEMA,
      maxConnections: 1,
      applicationName: 'gitbench-worker keys',
    })
  : null;
async function refreshKeys(): Promise<void> {
  if (!keysDb || !env.GITBENCH_SECRET_KEY) return;
  const opened = await openProviderKeys(keysDb, env.GITBENCH_SECRET_KEY);
  storedKeys = opened.keys;
  if (opened.unreadable.length)
    console.error(
      `[worker] stored provider keys sealed under another ` +
        `GITBENCH_SECRET_KEY: ${opened.unreadable.join(', ')} (run gitbench keys rotate)`,
    );
}
await refreshKeys().catch((err: Error) =>
  console.error(`[worker] reading stored provider keys failed: ${err.message}`),
);
setInterval(
  () =>
    refreshKeys().catch((err: Error) => console.error(`[worker] reading stored provider keys failed: ${err.message}`)),
  15_000,
).unref();
const registry = await ProviderRegistry.load({
  storedKeys: () => storedKeys,
  ...(env.GITBENCH_PROFILES ? { profilesFile: env.GITBENCH_PROFILES } : {}),
  cwd: process.cwd(),
  env: process.env,
});
const environmentKeys = registry.environmentKeys();
const workerId = newId('worker');
// Workers that share this database schema and queue are one deployment: they see each other's
// heartbeats, so they may remove each other's orphans, and only those.
const deployment = {
  database: databaseIdentity(env.DATABASE_URL),
  schema: env.GITBENCH_DATABASE_SCHEMA ?? 'public',
  queue: env.GITBENCH_QUEUE,
};
const deploymentId = sha256Hex(canonicalJson(deployment)).slice(0, 16);
// Containers are started ahead of the attempts that use them, so they carry this worker's label from
// the start: shutdown (and anyone cleaning up after a killed worker) finds them by it.
const driver = await createSandboxDriver({
  kind: env.GITBENCH_SANDBOX_DRIVER,
  image: env.GITBENCH_SANDBOX_IMAGE,
  labels: { [WORKER_LABEL]: workerId, [DEPLOYMENT_LABEL]: deploymentId },
  prestart: env.GITBENCH_WORKER_CONCURRENCY,
});
// The executor writes through its own small pool (the judge cache, and an agent attempt's trajectory as
// it runs); attempts' rows go through the worker's. Its log names both, since campaigns with no judge use it too.
const executorDb = createDb({
  databaseUrl: env.DATABASE_URL,
  schema: env.GITBENCH_DATABASE_SCHEMA,
  maxConnections: 2,
  applicationName: `gitbench-worker ${workerId} executor`,
  onConnectionError: (err) =>
    console.error(`[worker ${workerId}] executor database connection (trajectories, judge cache) lost: ${err.message}`),
});

// The checkout this worker runs from (or GITBENCH_VERSION when a build baked one in).
const productVersion = detectProductVersion(process.env, import.meta.dirname);
const worker = await startWorker(
  {
    id: workerId,
    productVersion,
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.GITBENCH_DATABASE_SCHEMA,
    redisUrl: env.REDIS_URL,
    queueName: env.GITBENCH_QUEUE,
    concurrency: env.GITBENCH_WORKER_CONCURRENCY,
    attemptTimeoutMs: env.GITBENCH_ATTEMPT_TIMEOUT_MS,
    safetyReviewer: safetyReviewerFromEnv(process.env),
    heartbeatMs: env.GITBENCH_HEARTBEAT_MS,
    orphanSweepMs: env.GITBENCH_ORPHAN_SWEEP_MS,
    reaper: {
      staleAfterMs: env.GITBENCH_STALE_AFTER_MS,
      redispatchAfterMs: env.GITBENCH_REDISPATCH_AFTER_MS,
      maxDispatches: env.GITBENCH_MAX_DISPATCHES,
      intervalMs: env.GITBENCH_REAPER_INTERVAL_MS,
    },
  },
  () =>
    createEngineExecutor({
      db: executorDb,
      driver,
      registry,
      deploymentId,
      buildSandboxes: env.GITBENCH_BUILD_CONCURRENCY,
      limits: {
        maxAnswerCommands: env.GITBENCH_MAX_ANSWER_COMMANDS,
        maxAttemptOutputBytes: env.GITBENCH_MAX_ATTEMPT_OUTPUT_BYTES,
        maxEvidenceBytes: env.GITBENCH_MAX_EVIDENCE_BYTES,
      },
      warnings: unsafeLocal ? [UNSAFE_LOCAL_WARNING] : [],
      // Keys from api_key_env are cut out of stored output like stored keys.
      secrets: () => [...storedKeys.values(), ...environmentKeys],
      agents: {
        stateDir: env.GITBENCH_STATE_DIR,
        labels: { [WORKER_LABEL]: workerId, [DEPLOYMENT_LABEL]: deploymentId },
      },
    }),
);
const sandbox = driver.describe();
console.log(
  `[worker ${worker.id}] ready: gitbench=${versionLabel(productVersion)} ` +
    `queue=${env.GITBENCH_QUEUE} concurrency=${env.GITBENCH_WORKER_CONCURRENCY} ` +
    `sandbox=${sandbox.driver}:${sandbox.image}${unsafeLocal ? ' (UNSAFE: no isolation)' : ''} ` +
    `attempt-timeout=${env.GITBENCH_ATTEMPT_TIMEOUT_MS}ms (agent attempts: +maxWallMs+commandTimeoutMs)` +
    (registry.profilesFile ? ` profiles=${registry.profilesFile}` : ' profiles=none (built-in models only)'),
);

// Ctrl-C in a terminal reaches every process of the foreground group, and a supervising script then
// forwards its own SIGTERM: signals this close together are one request to stop, not an impatient second.
const SAME_REQUEST_MS = 3_000;
let stopRequestedAt: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopRequestedAt !== undefined) {
      if (Date.now() - stopRequestedAt < SAME_REQUEST_MS) return;
      console.error(`[worker ${worker.id}] ${signal} again: exiting now`);
      process.exit(130);
    }
    stopRequestedAt = Date.now();
    console.log(`[worker ${worker.id}] ${signal}: stopping intake, giving back in-flight attempts, removing sandboxes`);
    // A stop that cannot finish (a database that does not answer) must not keep the process alive:
    // what it did not give back, the other workers' reapers take back once its heartbeat is stale.
    setTimeout(() => {
      console.error(`[worker ${worker.id}] shutdown did not finish in ${env.GITBENCH_SHUTDOWN_GRACE_MS} ms: exiting`);
      process.exit(1);
    }, env.GITBENCH_SHUTDOWN_GRACE_MS).unref();
    worker
      .stop()
      .then(() => driver.close())
      .then(() => executorDb.$disconnect())
      .then(
        () => process.exit(0),
        (err: Error) => {
          console.error(`[worker ${worker.id}] shutdown failed: ${err.message}`);
          process.exit(1);
        },
      );
  });
}
