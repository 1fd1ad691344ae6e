import pg from 'pg';
// Types only: this module must load without Prisma's runtime (see SqlDb); nor does it import ./client, which
// imports it (createSqlDb, in ./sql-db, is what loads the client when one is needed).
import type { PrismaClient as Db } from './generated/prisma/client';
import type { Sql } from './sql';

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

/** The pool under each client createDb made and each SqlDb, for the statements run straight on it (see rawQuery). */
const pools = new WeakMap<SqlSource, pg.Pool>();

export function registerPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/**
 * A database reached through its connection pool alone: the plain-SQL reads (sqlRows, rawQuery) run
 * on it, and Prisma's client, over the same pool, is made only when a caller needs it (`prisma()`: a
 * write, an ORM read). A `gitbench campaign status` reads a finished campaign without ever loading
 * Prisma's runtime, which was about a sixth of that command's start-up.
 */
export class SqlDb {
  #prisma: Promise<Db> | undefined;

  constructor(
    readonly pool: pg.Pool,
    private readonly makePrisma: (pool: pg.Pool) => Promise<Db>,
  ) {
    pools.set(this, pool);
  }

  /** Prisma's client over this pool, made on the first call. */
  prisma(): Promise<Db> {
    this.#prisma ??= this.makePrisma(this.pool);
    return this.#prisma;
  }

  /** Closes the pool (through Prisma's client when one was made, which then ends it). */
  async close(): Promise<void> {
    if (this.#prisma) await (await this.#prisma).$disconnect();
    else if (!this.pool.ending) await this.pool.end();
  }
}

/** Where the plain-SQL reads run: Prisma's client made by createDb, or a pool with no client yet. */
export type SqlSource = Db | SqlDb;

/** Prisma's client for a write or an ORM read, made now if the source had none. */
export async function prismaOf(db: SqlSource): Promise<Db> {
  return db instanceof SqlDb ? db.prisma() : db;
}

export function createPool(config: DbConfig): pg.Pool {
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
  pool.on('error', config.onConnectionError ?? (() => undefined));
  return pool;
}

/**
 * One raw statement, straight on the client's pool: the statements a campaign pays per attempt or per
 * fixture (claim, finish, completion, planning's write) skip Prisma's raw query path, whose argument
 * handling and query compilation cost more CPU than the statement itself. Values go as they are
 * (strings, numbers, booleans, arrays, Buffers; JSON already serialized); the statement casts them.
 * A client not made by createDb (none today) takes Prisma's path.
 */
export async function rawQuery<T>(
  db: SqlSource,
  text: string,
  values: readonly unknown[],
): Promise<{ rows: T[]; rowCount: number }> {
  const pool = pools.get(db);
  if (!pool) {
    const rows = await (db as Db).$queryRawUnsafe<T[]>(text, ...values);
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

/** A statement as sql (./sql) or Prisma.sql builds it: both give pg's text and values. */
type Statement = Sql | { readonly text: string; readonly values: readonly unknown[] };

/**
 * A statement run straight on the pool, its rows typed as $queryRaw's would be: a read the CLI's and
 * the pages' summaries make once per call. Prisma's first statement in a process loads and
 * instantiates its query compiler (Wasm, about 130 ms of CPU) and compiles every statement there; a
 * `gitbench campaign status` made only such reads, so it paid that on every start for a few
 * milliseconds of SQL.
 */
export async function sqlRows<T>(db: SqlSource, query: Statement): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return (db as Db).$queryRawUnsafe<T[]>(query.text, ...query.values);
  const result = await pool.query({ text: query.text, values: query.values as unknown[], types: PRISMA_RAW_TYPES });
  return result.rows as T[];
}
