import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '@gitbench/db';
import { seedDashboardCampaigns } from '@gitbench/test-support';
import { DASHBOARD_SEED_FILE } from './support';

// Run by global-setup as `node --import tsx e2e/seed-dashboard.ts`, once per run on the freshly reset
// database: the dashboard seed's campaigns (models figures/*, domains figures-*), with every attempt
// written to DASHBOARD_SEED_FILE for dashboard-figures.spec.ts to compute the expected figures from.
// Seeding in the spec itself would seed again whenever Playwright restarts its worker after a failure.
const db = createDb({
  databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench',
  maxConnections: 2,
});
const seeded = await seedDashboardCampaigns(db, 'figures');
await db.$disconnect();
const file = path.resolve(import.meta.dirname, '..', DASHBOARD_SEED_FILE);
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(seeded));
console.log(`dashboard figures seeded: ${seeded.campaigns.length} campaigns, ${seeded.attempts.length} attempts`);
