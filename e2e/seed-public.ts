import { createDb } from '@gitbench/db';
import { seedCampaignPlans, type CampaignPlan } from '@gitbench/test-support';

// Run by public-leaderboard.spec.ts as `node --import tsx e2e/seed-public.ts`: two finished campaigns of
// their own suite, one to be published (model public/open) and one never published (public/hidden).
// Prints their ids and an attempt of each as the last line of JSON.
const db = createDb({
  databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench',
  maxConnections: 2,
});
const fixtures = ['f001', 'f002', 'f003'].map((fixtureId, i) => ({
  domain: 'public-merge',
  fixtureId,
  difficulty: ['easy', 'medium', 'hard'][i]!,
}));
const skill = { 'public/open': { merge: 0.7 }, 'public/hidden': { merge: 0.4 } };
const plan = (name: string, modelId: string): CampaignPlan => ({
  name,
  trials: 2,
  suiteVersion: 'public-suite',
  targets: [{ modelId, effort: null, outputMode: 'text' }],
  fixtures,
  skill,
});
const seeded = await seedCampaignPlans(db, 'public', [
  plan('public published', 'public/open'),
  plan('public unpublished', 'public/hidden'),
]);
await db.$disconnect();
const [published, unpublished] = seeded.campaigns;
const attemptOf = (campaignId: string) => seeded.attempts.find((a) => a.campaignId === campaignId)!.id;
console.log(
  JSON.stringify({
    published: { id: published!.id, attempt: attemptOf(published!.id) },
    unpublished: { id: unpublished!.id, attempt: attemptOf(unpublished!.id) },
  }),
);
