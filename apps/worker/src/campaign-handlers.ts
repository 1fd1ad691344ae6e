import type { ProductVersion, SafetyReviewer } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import type { JobHandlers, QueueClient } from '@gitbench/queue';
import {
  PlannedRows,
  planCampaign,
  removeCampaignSandboxes,
  runAttempt,
  type AttemptExecutor,
} from '@gitbench/use-cases';

export interface CampaignHandlerDeps {
  db: Db;
  queue: QueueClient;
  executor: AttemptExecutor;
  workerId: string;
  heartbeatMs: number;
  /** Wall-clock limit of one single-answer attempt (see attemptDeadline). */
  attemptTimeoutMs: number;
  /** Hand-overs per attempt since its last retry, as the reaper counts them (GITBENCH_MAX_DISPATCHES). */
  maxDispatches: number;
  /** Reviews a campaign's raw outputs once its last attempt lands (GITBENCH_SAFETY_REVIEW). */
  safetyReviewer?: SafetyReviewer;
  /** This worker's GitBench version, recorded with every outcome it writes. */
  productVersion: ProductVersion;
}

/** The campaign jobs, each handed to its use case. */
export function campaignHandlers(
  deps: CampaignHandlerDeps,
): Pick<JobHandlers, 'campaign.plan' | 'attempt.run' | 'campaign.cancel'> {
  const log = (line: string) => console.log(`[worker ${deps.workerId}] ${line}`);
  const finish = { db: deps.db, ...(deps.safetyReviewer ? { safetyReviewer: deps.safetyReviewer } : {}), log };
  // Rows that never change once planned, read once per worker process and shared by both jobs.
  const planned = new PlannedRows(deps.db);
  const product = { productVersion: deps.productVersion.version, productDirty: deps.productVersion.dirty };
  const uses = { ...deps, planned, finish, product, log };
  return {
    'campaign.plan': (job, ctx) => planCampaign(uses, job, ctx.attemptsMade),
    'attempt.run': (job, ctx) => runAttempt(uses, job, ctx.signal),
    // The web app and the CLI ask through the queue: only workers hold the sandbox engine.
    'campaign.cancel': ({ campaignId }) => removeCampaignSandboxes(deps.executor, campaignId),
  };
}
