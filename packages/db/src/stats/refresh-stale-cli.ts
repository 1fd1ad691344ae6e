import { createDb } from '../client';
import { refreshStaleCampaignStats } from './refresh-stale';

// Run by scripts/setup.sh after the migrations: rebuilds stats that a migration marked stale or that
// no process refreshed (a campaign cancelled while nobody looked), so pages never read old figures.
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL is not set (e.g. postgresql://postgres@127.0.0.1:5432/gitbench)');
  process.exit(2);
}
const db = createDb({ databaseUrl, maxConnections: 2 });
try {
  const refreshed = await refreshStaleCampaignStats(db);
  console.log(`campaign stats: ${refreshed.length} campaign(s) refreshed`);
} catch (err) {
  console.error(`refreshing campaign stats failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
