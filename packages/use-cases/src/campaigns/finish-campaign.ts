import type { SafetyReviewer } from '@gitbench/core';
import { completeCampaignIfDone, refreshCampaignStats, runSafetyReview, type Db } from '@gitbench/db';

export interface FinishCampaignDeps {
  db: Db;
  /** Reviews a campaign's raw outputs once its last attempt lands (GITBENCH_SAFETY_REVIEW). */
  safetyReviewer?: SafetyReviewer;
  log?: (line: string) => void;
}

/**
 * Completes a running campaign once no attempt is left to run, and only then: the safety review reads
 * its raw outputs, and the aggregates the leaderboard reads are refreshed. Safe to call after every
 * attempt (one conditional statement); only the caller whose call completed it does the rest.
 */
export async function finishCampaignIfDone(deps: FinishCampaignDeps, campaignId: string): Promise<boolean> {
  if (!(await completeCampaignIfDone(deps.db, campaignId))) return false;
  const review = await runSafetyReview(deps.db, campaignId, deps.safetyReviewer ?? { kind: 'off' });
  if (review)
    deps.log?.(`safety review of ${campaignId}: ${review.reviewed} output(s) read, ${review.blocked} blocked`);
  await refreshCampaignStats(deps.db, campaignId);
  return true;
}
