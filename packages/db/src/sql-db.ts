import { createPool, SqlDb, type DbConfig } from './pool';

/**
 * A pool for plain-SQL reads, with Prisma's client left for later (see SqlDb): the client's module is
 * imported only when a caller first asks for it, so a read-only command never loads Prisma's runtime.
 */
export function createSqlDb(config: DbConfig): SqlDb {
  return new SqlDb(createPool(config), (pool) =>
    import('./client').then(({ prismaOnPool }) => prismaOnPool(pool, config)),
  );
}
