import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { Prisma, PrismaClient } from './generated/prisma/client';
import { createPool, registerPool, type DbConfig } from './pool';

// For the reads that import this module alone (@gitbench/db/client), not the whole package.
export { Prisma };
export { rawQuery, sqlRows, type DbConfig } from './pool';

export type Db = PrismaClient;

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;

/**
 * Prisma's transaction manager releases a transaction's connection only after its COMMIT or ROLLBACK
 * succeeded. When the connection died mid-transaction, that statement fails and the connection was
 * never returned: a few lost connections emptied the pool and froze the process. Here a failed COMMIT
 * or ROLLBACK hands the connection back as broken, so the pool drops it and opens a new one.
 */
function releaseBrokenConnections(tx: Transaction): Transaction {
  const inner = tx as unknown as { client: pg.PoolClient; cleanup?: () => void };
  let discarded = false;
  const discard = (err: unknown) => {
    if (discarded) return;
    discarded = true;
    inner.cleanup?.();
    try {
      inner.client.release(err instanceof Error ? err : new Error(String(err)));
    } catch {
      // Released already: nothing is held.
    }
  };
  const executeRaw = tx.executeRaw.bind(tx);
  const commit = tx.commit.bind(tx);
  const rollback = tx.rollback.bind(tx);
  return Object.assign(tx, {
    async executeRaw(query: Parameters<Transaction['executeRaw']>[0]) {
      try {
        return await executeRaw(query);
      } catch (err) {
        if (query.sql === 'COMMIT' || query.sql === 'ROLLBACK') discard(err);
        throw err;
      }
    },
    commit: async () => (discarded ? undefined : commit()),
    rollback: async () => (discarded ? undefined : rollback()),
  });
}

class ResilientPrismaPg extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) =>
      releaseBrokenConnections(await startTransaction(isolationLevel));
    return adapter;
  }
}

export function createDb(config: DbConfig): Db {
  return prismaOnPool(createPool(config), config);
}

/** Prisma's client over a pool createPool made; ending the client ends the pool. */
export function prismaOnPool(pool: pg.Pool, config: DbConfig): Db {
  const onError = config.onConnectionError ?? (() => undefined);
  const adapter = new ResilientPrismaPg(pool, {
    ...(config.schema ? { schema: config.schema } : {}),
    disposeExternalPool: true,
    onPoolError: onError,
    onConnectionError: onError,
  });
  const client = new PrismaClient({ adapter });
  registerPool(client, pool);
  // Prisma ends the pool only if its adapter connected, that is after a statement of Prisma's own; a
  // client that ran only sqlRows and rawQuery would keep idle connections, and its process alive, for
  // the pool's idle timeout (10 s) after $disconnect.
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ending) await pool.end();
  };
  return client;
}
