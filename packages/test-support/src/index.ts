/**
 * What tests, benchmarks and browser tests build their data with: a migrated database schema of their own,
 * seeded campaigns, trajectories and task-family outcomes. Production code never imports it (an import
 * rule says so), so none of this ships in the web app, the worker or the CLI.
 */
export {
  createTestDatabase,
  dropSchema,
  migrateAcross,
  MIGRATION_CAMPAIGN_ROWS,
  runSql,
  MIGRATIONS_DIR,
  type TestDatabase,
} from './test-database';
export { attemptRowsOf, prng, seedRandomCampaign, type RandomCampaignOptions } from './random-campaign';
export {
  seedCampaignPlans,
  type CampaignPlan,
  type DashboardSeed,
  type SeededAttempt,
  type SeededCampaign,
  type SeededFixture,
  type SeededTarget,
} from './campaign-plans';
export { seedDashboardCampaigns } from './dashboard-seed';
export { randomTrajectory, type RandomTrajectory, type RandomTrajectoryOptions } from './random-trajectory';
export { seedTrajectory, type SeedTrajectoryOptions } from './seed-trajectory';
export { seedFamilyCampaign } from './seed-families';
export { SEED_GGB_OUTCOMES } from './seed-ggb-outcomes';
export { SEED_GIST_EVIDENCE } from './seed-gist-evidence';
