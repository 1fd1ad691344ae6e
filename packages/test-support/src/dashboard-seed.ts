import type { Db } from '@gitbench/db';
import { prng } from './random-campaign';
import { seedCampaignPlans, type CampaignPlan, type DashboardSeed, type SeededFixture } from './campaign-plans';

/**
 * Campaigns for tests of the dashboard's figures: every attempt is returned as plain data, so a test
 * can compute each figure again with loops of its own and compare it with what the pages read.
 *
 * The set is built to reach the edges of the methodology: three trials (flaky fixtures) and two, a campaign kept
 * incomplete by excluded attempts (infrastructure failure, unscored, cancelled, safety blocked, still queued) and by
 * attempts never written, one kept incomplete only by a pending safety review, one only by an attempt never written, a
 * legacy import of one trial for a model that also runs in current campaigns, retried attempts whose earlier tries
 * failed (only the settling try counts), and unknown cost, tokens and API time on some attempts. Model ids and domains
 * carry `prefix`, so a database shared with other tests can tell these apart.
 */

const DIFFICULTIES = ['easy', 'medium', 'hard'];

export async function seedDashboardCampaigns(db: Db, prefix: string, seed = 7): Promise<DashboardSeed> {
  const rand = prng(seed);
  const alpha = `${prefix}/alpha`;
  const beta = `${prefix}/beta`;
  const gamma = `${prefix}/gamma#high`;
  const fixtures = (domain: string, n: number, first = 1): SeededFixture[] =>
    Array.from({ length: n }, (_, i) => ({
      domain: `${prefix}-${domain}`,
      fixtureId: `f${String(first + i).padStart(3, '0')}`,
      difficulty: DIFFICULTIES[(first + i) % DIFFICULTIES.length]!,
    }));
  // Each model better at some domains than the other, so a comparison has discordant fixtures both ways.
  const skill = {
    [alpha]: { merge: 0.85, rebase: 0.3, log: 0.8 },
    [beta]: { merge: 0.3, rebase: 0.6, log: 0.35 },
    [gamma]: { merge: 0.6, rebase: 0.6, log: 0.6 },
  };
  const suite = `${prefix}-suite`;
  const plans: CampaignPlan[] = [
    {
      name: `${prefix} three trials`,
      trials: 3,
      suiteVersion: suite,
      targets: [
        { modelId: alpha, effort: null, outputMode: 'text' },
        { modelId: alpha, effort: null, outputMode: 'json_schema' },
        { modelId: beta, effort: null, outputMode: 'text' },
        { modelId: gamma, effort: 'high', outputMode: 'text' },
      ],
      fixtures: [...fixtures('merge', 6), ...fixtures('rebase', 5)],
      skill,
    },
    {
      name: `${prefix} two trials`,
      trials: 2,
      suiteVersion: suite,
      targets: [
        { modelId: alpha, effort: null, outputMode: 'text' },
        { modelId: beta, effort: null, outputMode: 'text' },
      ],
      // Overlaps the first campaign's merge fixtures, and adds a domain the first never ran.
      fixtures: [...fixtures('merge', 4, 3), ...fixtures('log', 4)],
      skill,
    },
    {
      name: `${prefix} incomplete`,
      trials: 3,
      suiteVersion: suite,
      targets: [
        { modelId: alpha, effort: null, outputMode: 'text' },
        { modelId: beta, effort: null, outputMode: 'text' },
      ],
      fixtures: fixtures('merge', 5),
      skill,
      excluded: { statuses: ['INFRA_FAILURE', 'UNSCORED', 'CANCELLED', 'SAFETY_BLOCKED', 'QUEUED'], every: 4 },
      missing: { every: 9, at: 5 },
    },
    {
      name: `${prefix} review pending`,
      trials: 1,
      suiteVersion: suite,
      safetyReview: 'pending',
      targets: [{ modelId: alpha, effort: null, outputMode: 'text' }],
      fixtures: fixtures('rebase', 3),
      skill,
    },
    {
      // Every attempt it wrote is valid: only the one never written keeps it incomplete.
      name: `${prefix} one attempt never written`,
      trials: 1,
      suiteVersion: suite,
      targets: [{ modelId: gamma, effort: 'high', outputMode: 'text' }],
      fixtures: fixtures('log', 4),
      skill,
      missing: { every: 4, at: 2 },
    },
    {
      name: `${prefix} legacy import`,
      trials: 1,
      suiteVersion: `${prefix}-upstream`,
      legacy: true,
      // Upstream's harness records its own failures too: a legacy import is never held back as incomplete.
      excluded: { statuses: ['INFRA_FAILURE'], every: 7 },
      targets: [
        { modelId: alpha, effort: null, outputMode: 'text' },
        { modelId: beta, effort: null, outputMode: 'text' },
      ],
      fixtures: [...fixtures('merge', 6), ...fixtures('log', 2)],
      skill,
    },
  ];

  return seedCampaignPlans(db, prefix, plans, rand);
}
