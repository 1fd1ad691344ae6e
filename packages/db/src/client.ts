import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

// For the reads that import this module alone (@gitbench/db/client), not the whole package.
export { Prisma };

export type Db = PrismaClient;

export interface DbConfig {
  databaseUrl: string;
  /** Postgres schema to use; tests give each file its own so none sees another's rows. */
  schema?: string;
  /** Pool size per process. */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so an operator (or a test) can tell which process holds a connection. */
  applicationName?: string;
  /**
   * How long a query waits for a pooled connection (or a new one to open) before it fails. Without a
   * limit, a pool whose connections are all stuck makes every caller wait forever.
   */
  acquireTimeoutMs?: number;
  /** Told about connections that died (ended by the server, network loss); the pool replaces them. */
  onConnectionError?: (err: Error) => void;
}

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

/** The pool under each client createDb made, for the statements run straight on it (see rawQuery). */
const pools = new WeakMap<Db, pg.Pool>();

/**
 * One raw statement, straight on the client's pool: the statements a campaign pays per attempt or per
 * fixture (claim, finish, completion, planning's write) skip Prisma's raw query path, whose argument
 * handling and query compilation cost more CPU than the statement itself. Values go as they are
 * (strings, numbers, booleans, arrays, Buffers; JSON already serialized); the statement casts them.
 * A client not made by createDb (none today) takes Prisma's path.
 */
export async function rawQuery<T>(
  db: Db,
  text: string,
  values: readonly unknown[],
): Promise<{ rows: T[]; rowCount: number }> {
  const pool = pools.get(db);
  if (!pool) {
    const rows = await db.$queryRawUnsafe<T[]>(text, ...values);
    return { rows, rowCount: rows.length };
  }
  const result = await pool.query(text, values as unknown[]);
  return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
}

/**
 * The values Prisma's $queryRaw gives, for statements run on the pool: int8 as a bigint, and a
 * timestamp without time zone (every DateTime column) as that instant in UTC, where pg would read it
 * in the host's time zone. numeric stays its text (Prisma gives a Decimal); callers read both with Number.
 */
const PRISMA_RAW_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (v: string) => BigInt(v);
    if (oid === pg.types.builtins.TIMESTAMP) return (v: string) => new Date(`${v.replace(' ', 'T')}Z`);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * A Prisma.sql statement run straight on the pool, its rows typed as $queryRaw's would be: a read
 * the CLI's and the pages' summaries make once per call. Prisma's first statement in a process
 * loads and instantiates its query compiler (Wasm, about 130 ms of CPU) and compiles every
 * statement there; a `gitbench campaign status` made only such reads, so it paid that on every
 * start for a few milliseconds of SQL.
 */
export async function sqlRows<T>(db: Db, query: Prisma.Sql): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRaw<T[]>(query);
  const result = await pool.query({ text: query.text, values: query.values as unknown[], types: PRISMA_RAW_TYPES });
  return result.rows as T[];
}

export function createDb(config: DbConfig): Db {
  const onError = config.onConnectionError ?? (() => undefined);
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.maxConnections ?? 10,
    connectionTimeoutMillis: config.acquireTimeoutMs ?? 15_000,
    // A peer that vanished without closing the connection is noticed instead of waited on.
    keepAlive: true,
    ...(config.applicationName ? { application_name: config.applicationName.slice(0, 63) } : {}),
    // Raw SQL is not schema-qualified by Prisma; the search path makes it land in the same schema.
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  // An idle connection the server ends emits 'error' on the pool, which without a listener is an
  // uncaught exception that kills the process; the pool has already dropped that connection.
  pool.on('error', onError);
  const adapter = new ResilientPrismaPg(pool, {
    ...(config.schema ? { schema: config.schema } : {}),
    disposeExternalPool: true,
    onPoolError: onError,
    onConnectionError: onError,
  });
  const client = new PrismaClient({ adapter });
  pools.set(client, pool);
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
