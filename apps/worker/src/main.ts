import { ProviderRegistry } from '@gitbench/providers';
import { createSandboxDriver } from '@gitbench/sandbox';
import { createDb } from '@gitbench/db';
import { createEngineExecutor } from './engine-executor';
import { readWorkerEnv } from './env';
import { startWorker, WORKER_LABEL } from './worker';

const env = readWorkerEnv();
const registry = await ProviderRegistry.load({
  ...(env.GITBENCH_PROFILES ? { profilesFile: env.GITBENCH_PROFILES } : {}),
  cwd: process.cwd(),
  env: process.env,
});
const driver = await createSandboxDriver({ kind: env.GITBENCH_SANDBOX_DRIVER, image: env.GITBENCH_SANDBOX_IMAGE });
// The executor's judge cache writes through its own small pool; attempts' rows go through the worker's.
const executorDb = createDb({ databaseUrl: env.DATABASE_URL, schema: env.GITBENCH_DATABASE_SCHEMA, maxConnections: 2 });

const worker = await startWorker(
  {
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.GITBENCH_DATABASE_SCHEMA,
    redisUrl: env.REDIS_URL,
    queueName: env.GITBENCH_QUEUE,
    concurrency: env.GITBENCH_WORKER_CONCURRENCY,
    heartbeatMs: env.GITBENCH_HEARTBEAT_MS,
    buildConcurrency: env.GITBENCH_BUILD_CONCURRENCY,
    reaper: {
      staleAfterMs: env.GITBENCH_STALE_AFTER_MS,
      redispatchAfterMs: env.GITBENCH_REDISPATCH_AFTER_MS,
      intervalMs: env.GITBENCH_REAPER_INTERVAL_MS,
    },
  },
  (workerId) => createEngineExecutor({ db: executorDb, driver, registry, workerLabels: { [WORKER_LABEL]: workerId } }),
);
const sandbox = driver.describe();
console.log(
  `[worker ${worker.id}] ready: queue=${env.GITBENCH_QUEUE} concurrency=${env.GITBENCH_WORKER_CONCURRENCY} sandbox=${sandbox.driver}:${sandbox.image}` +
    (registry.profilesFile ? ` profiles=${registry.profilesFile}` : ' profiles=none (built-in models only)'),
);

let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    signals += 1;
    if (signals > 1) {
      console.error(`[worker ${worker.id}] second ${signal}: exiting now`);
      process.exit(130);
    }
    console.log(`[worker ${worker.id}] ${signal}: stopping intake, giving back in-flight attempts, removing sandboxes`);
    worker
      .stop()
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
