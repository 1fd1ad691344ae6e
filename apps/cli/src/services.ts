import type { Db } from '@gitbench/db/client';
import { sqlRows, type SqlDb } from '@gitbench/db/pool';
import { createSqlDb } from '@gitbench/db/sql-db';
import { sql } from '@gitbench/db/sql';
import type { QueueClient } from '@gitbench/queue';
import { redacted, type CliEnv } from './env';
import { InfrastructureError } from './exit';

export interface Services {
  db: Db;
  /** Only for the commands that hand work to the workers (create, retry). */
  queue?: QueueClient;
  close(): Promise<void>;
}

/**
 * One PING on a connection that does not retry: BullMQ's own connections wait for Redis forever
 * (right for workers), which would leave a command hanging without a word.
 */
async function pingRedis(url: string): Promise<void> {
  const { createRedis } = await import('@gitbench/queue');
  const redis = createRedis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 5_000,
  });
  // The socket's error (ECONNREFUSED, ...) says more than the rejected connect ("Connection is closed").
  let cause: Error | undefined;
  redis.on('error', (err: Error) => (cause ??= err));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new InfrastructureError(
      `cannot reach Redis at ${redacted(url)} (REDIS_URL): ${(cause ?? (err as Error)).message}`,
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * Connects to Postgres and proves it answers with GitBench's tables, so an unreachable server or an
 * unmigrated database is one clear message, not a stack trace halfway. No Prisma client yet: a command
 * that only reads (campaign status) never loads Prisma's runtime.
 */
async function openSqlDb(env: CliEnv): Promise<SqlDb> {
  const db = createSqlDb({
    databaseUrl: env.DATABASE_URL,
    ...(env.GITBENCH_DATABASE_SCHEMA ? { schema: env.GITBENCH_DATABASE_SCHEMA } : {}),
    maxConnections: 4,
  });
  try {
    const [row] = await sqlRows<{ table: string | null }>(
      db,
      sql`SELECT to_regclass('"Campaign"')::text AS "table"`,
    ).catch((err: Error) => {
      // The driver's reason (ECONNREFUSED ..., password authentication failed ...) is its message's last line.
      const reason = err.message.trim().split('\n').filter(Boolean).pop();
      throw new InfrastructureError(
        `cannot reach PostgreSQL at ${redacted(env.DATABASE_URL)} (DATABASE_URL): ${reason}`,
      );
    });
    if (!row?.table) {
      throw new InfrastructureError(
        `the database at ${redacted(env.DATABASE_URL)} has no ` +
          `GitBench tables: run npm run db:migrate (or npm run setup)`,
      );
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/** Connects to Postgres (and Redis when asked) and proves both answer before a command does anything. */
export async function openServices(env: CliEnv, opts: { queue: boolean }): Promise<Services> {
  const sqlDb = await openSqlDb(env);
  let queue: QueueClient | undefined;
  const close = async () => {
    await queue?.close().catch(() => undefined);
    await sqlDb.close();
  };
  try {
    const db = await sqlDb.prisma();
    if (opts.queue) {
      await pingRedis(env.REDIS_URL);
      // Loaded only by the commands that queue work: BullMQ is most of a read-only command's start-up.
      const { createQueueClient } = await import('@gitbench/queue');
      queue = createQueueClient({ redisUrl: env.REDIS_URL, queueName: env.GITBENCH_QUEUE });
    }
    return { db, ...(queue ? { queue } : {}), close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Opens the services for one command and closes them whatever happens. */
export async function withServices<T>(
  env: CliEnv,
  opts: { queue: boolean },
  fn: (services: Services) => Promise<T>,
): Promise<T> {
  const services = await openServices(env, opts);
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

/** The database alone, for a command that reads through plain SQL (Prisma's client made only if it writes). */
export async function withSqlDb<T>(env: CliEnv, fn: (db: SqlDb) => Promise<T>): Promise<T> {
  const db = await openSqlDb(env);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}
