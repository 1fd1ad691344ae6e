import 'server-only';
import { markDispatched, type CampaignServiceDeps } from '@gitbench/db';
import { services } from '../services';
import { loadSuite } from './suites';

// Built-in models need no endpoint or key: oracle answers the expected answer, mock a fixed wrong
// one, replay answers recorded outputs, simulated[:seed] is the seeded stochastic mock (labelled simulated;
// `sim` is its earlier spelling). The worker's provider registry resolves the same names.
const BUILTIN = /^(oracle|mock|replay:.+|(sim|simulated)(:.+)?)$/;

export function profileFor(modelId: string): { profile: string } | { error: string } {
  const base = modelId.split('#')[0]!;
  if (BUILTIN.test(base)) return { profile: 'builtin' };
  return { error: `No configured profile serves '${base}'. Add it to a profile in gitbench.json, or use oracle, mock, simulated[:seed] or replay:<file>.` };
}

export function campaignDeps(): CampaignServiceDeps {
  return {
    loadSuite,
    profileFor,
    enqueuePlan: async (campaignId) => {
      await services().queue.enqueue('campaign.plan', { campaignId });
    },
  };
}

/** Records the dispatch in Postgres first, then hands the attempts to the queue. */
export async function dispatch(attemptIds: string[]): Promise<number> {
  const { db, queue } = services();
  const jobs = await markDispatched(db, attemptIds);
  await queue.enqueueMany('attempt.run', jobs);
  return jobs.length;
}
