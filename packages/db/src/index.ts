export { createDb, sqlRows, type Db, type DbConfig } from './client';
export { applyMigrations, listMigrations, MigrationError, type MigrationReport } from './migrate';
export { grantAppRole, type AppRole } from './app-role';
export { snapshotSchema } from './schema-snapshot';
export * from './generated/prisma/client';
export { createTestDatabase, dropSchema, runSql, MIGRATIONS_DIR, type TestDatabase } from './testing';
export { attemptRowsOf, prng, seedRandomCampaign, type RandomCampaignOptions } from './random-campaign';
export {
  seedCampaignPlans,
  seedDashboardCampaigns,
  type CampaignPlan,
  type DashboardSeed,
  type SeededAttempt,
  type SeededCampaign,
  type SeededFixture,
  type SeededTarget,
} from './dashboard-seed';
export { randomTrajectory, type RandomTrajectory, type RandomTrajectoryOptions } from './random-trajectory';
export * from './campaigns';
export * from './stats';
export * from './exports';
export * from './trajectories';
export * from './audit';
export { seedFamilyCampaign, SEED_GGB_OUTCOMES, SEED_GIST_EVIDENCE } from './seed-families';
export * from './provider-keys';
export { expireWorkerHeartbeats } from './worker-heartbeats';
export { jsonbSafe, jsonbText } from './jsonb-text';
