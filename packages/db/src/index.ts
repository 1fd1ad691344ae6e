export { createDb, type Db, type DbConfig } from './client';
export { applyMigrations, listMigrations, MigrationError, type MigrationReport } from './migrate';
export { snapshotSchema } from './schema-snapshot';
export * from './generated/prisma/client';
export { createTestDatabase, dropSchema, runSql, MIGRATIONS_DIR, type TestDatabase } from './testing';
export { attemptRowsOf, prng, seedRandomCampaign, type RandomCampaignOptions } from './random-campaign';
export * from './campaigns';
export * from './stats';
export * from './exports';
