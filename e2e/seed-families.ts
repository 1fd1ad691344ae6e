import { createDb } from '@gitbench/db';
import { seedFamilyCampaign } from '@gitbench/test-support';

// Run by families.spec.ts as `node --import tsx e2e/seed-families.ts`: one finished campaign of the task
// families with evidence records as the worker writes them; prints its ids as JSON on the last line.
const db = createDb({
  databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench',
  maxConnections: 2,
});
const seeded = await seedFamilyCampaign(db, `Task families (seeded ${new Date().toISOString().slice(0, 19)})`);
// Published, as a reviewed campaign is: viewers (who read it in families.spec.ts) see raw outputs only then.
await db.campaign.update({ where: { id: seeded.campaignId }, data: { publishedAt: new Date(), publishedBy: 'e2e' } });
await db.$disconnect();
console.log(JSON.stringify(seeded));
