import {
  claimAttempt,
  finishAttempt,
  heartbeatAttempt,
  loadSnapshotArchive,
  redispatchAttempts,
  releaseAttempt,
  type ClaimedAttempt,
  type Db,
  type DispatchJob,
} from '@gitbench/db';
import type { QueueClient } from '@gitbench/queue';
import { ATTEMPT_LABEL, CAMPAIGN_LABEL } from '@gitbench/sandbox';
import { finishCampaignIfDone, type FinishCampaignDeps } from '../campaigns/finish-campaign';
import { attemptDeadline } from './attempt-deadline';
import { StorageError, type AttemptExecutor } from './attempt-executor';
import { AttemptWatch } from './attempt-watch';
import {
  decideSettlement,
  settlementOfError,
  type AttemptRunFacts,
  type ProductStamp,
  type Settlement,
} from './decide-settlement';
import type { PlannedRows } from './planned-rows';

export interface RunAttemptDeps {
  db: Db;
  queue: Pick<QueueClient, 'enqueueMany'>;
  executor: AttemptExecutor;
  workerId: string;
  heartbeatMs: number;
  /**
   * Wall-clock limit of one single-answer attempt: past it the attempt is stopped and ends as an
   * attempt_timeout failure. Agent attempts get their own maxWallMs on top (see attemptDeadline).
   */
  attemptTimeoutMs: number;
  /** Hand-overs per attempt since its last retry (GITBENCH_MAX_DISPATCHES), as the reaper counts them. */
  maxDispatches: number;
  planned: PlannedRows;
  finish: FinishCampaignDeps;
  product: ProductStamp;
  log: (line: string) => void;
}

/**
 * Runs one queued attempt on this worker: claim it (a duplicate delivery finds it taken and does
 * nothing), run it under a watch (deadline, heartbeat, cancel, shutdown), decide how it ends, and make
 * the one write that ending names. `shutdown` is the worker's own stop signal.
 */
export async function runAttempt(deps: RunAttemptDeps, job: DispatchJob, shutdown: AbortSignal) {
  const { attemptId } = job;
  let claim: ClaimedAttempt | null;
  try {
    claim = await claimAttempt(deps.db, attemptId, deps.workerId);
  } catch (err) {
    return resendUnclaimed(deps, job, err);
  }
  if (!claim) return { skipped: 'not queued (duplicate delivery, cancelled or already done)' };
  const labels = { [CAMPAIGN_LABEL]: claim.campaignId, [ATTEMPT_LABEL]: attemptId };
  // GITBENCH_ATTEMPT_TIMEOUT_MS until the campaign is read; an agent attempt's deadline then counts from the same
  // start.
  const watch = new AttemptWatch({
    deadline: attemptDeadline(deps.attemptTimeoutMs),
    heartbeat: () => heartbeatAttempt(deps.db, claim),
    heartbeatMs: deps.heartbeatMs,
    // A cancelled campaign or a lost claim stops the attempt's sandbox now, not when its commands end.
    onStop: () => void deps.executor.removeSandboxes(labels).catch(() => undefined),
    onHeartbeatError: (err) => deps.log(`heartbeat for ${attemptId} failed: ${err.message}`),
  });
  const onShutdown = () => watch.stop(new Error('worker shutting down'));
  shutdown.addEventListener('abort', onShutdown);
  try {
    const ending = await runWatched(deps, claim, watch, labels).then(decideSettlement, (err: unknown) =>
      settlementOfError(
        err,
        deps.product,
        err instanceof StorageError ? err.spent : undefined,
        err instanceof StorageError ? 'storage' : 'worker_error',
      ),
    );
    try {
      return await settleAttempt(deps, claim, ending);
    } catch (err) {
      // Even giving it back failed: BullMQ's retry of this job, or else the reaper, takes it from here.
      if (ending.kind === 'give-back' && ending.next === 'retry-now') throw err;
      // The write itself failed (a lost database connection): a worker error like any other.
      return await settleAttempt(deps, claim, settlementOfError(err, deps.product));
    }
  } finally {
    watch.dispose();
    shutdown.removeEventListener('abort', onShutdown);
  }
}

/**
 * The claim itself failed (the database dropped the statement), so the attempt is most likely still
 * QUEUED under this job's dispatch: it is sent again at once, ahead of the waiting ones, as a new
 * dispatch counted against the cap, rather than by BullMQ's retry behind the backlog. Had the claim
 * landed and only its answer been lost, the row is RUNNING and nothing is sent: the reaper takes it back.
 * When even this fails, the claim's error goes to BullMQ's retry. (An attempt this caps ends
 * INFRA_FAILURE; the reaper completes its campaign if it was the last.)
 */
async function resendUnclaimed(deps: RunAttemptDeps, job: DispatchJob, error: unknown) {
  const { jobs } = await redispatchAttempts(deps.db, [job], deps.maxDispatches).catch(() => {
    throw error;
  });
  await deps.queue.enqueueMany('attempt.run', jobs, { first: true });
  if (jobs.length)
    deps.log(
      `claiming ${job.attemptId} failed ` +
        `(${String((error as Error)?.message ?? error).slice(0, 300)}): sent again at once`,
    );
  return { skipped: 'the claim failed', retried: jobs.length > 0 };
}

/** Runs the claimed attempt to its end under the watch and gathers what decideSettlement needs. */
async function runWatched(
  deps: RunAttemptDeps,
  claim: ClaimedAttempt,
  watch: AttemptWatch,
  labels: Record<string, string>,
): Promise<AttemptRunFacts> {
  const [snap, campaign, target] = await Promise.all([
    deps.planned.snapshot(claim.fixtureSnapshotId),
    deps.planned.campaign(claim.campaignId),
    deps.planned.target(claim.targetId),
  ]);
  const agent = claim.outputMode === 'agent' ? campaign.agent : undefined;
  if (agent && !watch.timedOut) watch.arm(attemptDeadline(deps.attemptTimeoutMs, agent.limits));
  const running = deps.executor.runAttempt(
    {
      attemptId: claim.attemptId,
      campaignId: claim.campaignId,
      tryNumber: claim.tryNumber,
      trial: claim.trial,
      seed: campaign.seed,
      modelId: claim.modelId,
      outputMode: claim.outputMode,
      ...(agent ? { agent } : {}),
      // The target's third-party agent drives its model; none (null) is our own loop.
      ...(agent && target.agent ? { thirdPartyAgent: target.agent } : {}),
      profile: target.profile,
      fixture: snap.fixture,
      plannedInputHash: snap.inputHash,
      // Fetched only if the scorer starts a sandbox.
      repoArchive: () =>
        loadSnapshotArchive(deps.db, claim.fixtureSnapshotId).catch((err: Error) => {
          throw new StorageError(`reading the archive of fixture snapshot ${claim.fixtureSnapshotId}: ${err.message}`);
        }),
      repoState: snap.repoState,
      buildInfo: snap.buildInfo,
      judgeProfile: campaign.judgeProfile,
      sandboxLabels: labels,
    },
    watch.signal,
  );
  const result = await Promise.race([running, watch.stopped]);
  if (result === 'stopped') running.catch(() => undefined);
  else if (!watch.signal.aborted && result.status === 'INFRA_FAILURE') {
    // The cancel route removes a cancelled campaign's sandboxes before this attempt's heartbeat says
    // so: ask once more before recording the removal as a sandbox failure.
    watch.note(await heartbeatAttempt(deps.db, claim).catch(() => 'owned' as const));
  }
  return {
    result,
    timedOut: watch.timedOut,
    aborted: watch.signal.aborted,
    verdict: watch.verdict,
    deadlineMessage: watch.deadline.message,
    wallDurationMs: watch.elapsedMs,
    product: deps.product,
  };
}

/** Makes the one write a settlement names, then what follows from it (the campaign's completion, a job sent). */
async function settleAttempt(deps: RunAttemptDeps, claim: ClaimedAttempt, ending: Settlement) {
  switch (ending.kind) {
    case 'finish': {
      const written = await finishAttempt(deps.db, claim, deps.workerId, ending.outcome);
      // The leaderboard reads maintained aggregates: refresh them when the campaign's last attempt lands.
      if (written) await finishCampaignIfDone(deps.finish, claim.campaignId);
      return { status: ending.outcome.status, written, ...(ending.timedOut ? { timedOut: true } : {}) };
    }
    case 'cancelled':
      // Its agent's loop ended on the removed sandbox (or was stopped): its trajectory says cancelled,
      // written by the same statement as the attempt's end.
      await finishAttempt(deps.db, claim, deps.workerId, ending.outcome, {
        ...(claim.outputMode === 'agent' ? { trajectory: 'cancelled' as const } : {}),
      });
      return { aborted: 'cancelled' };
    case 'lost':
      return { aborted: 'lost' };
    case 'give-back': {
      if (ending.next === 'retry-now') return retryNow(deps, claim, ending);
      const { dispatch } = await releaseAttempt(deps.db, claim, deps.workerId, ending.reason, 'send-now');
      if (dispatch !== undefined)
        await deps.queue.enqueueMany('attempt.run', [{ attemptId: claim.attemptId, dispatch }], { first: true });
      return { aborted: 'owned' };
    }
  }
}

/**
 * An error in the worker (a lost database connection, its storage, a bug): the attempt is given back and
 * sent again at once, ahead of the waiting ones, as a stopping worker's are. BullMQ's own retry would
 * wait out its backoff and then queue it behind the whole backlog (one waited 222 s behind 600 jobs).
 * Unlike a shutdown's, each such hand-over counts against the dispatch cap, so an attempt that fails the
 * same way every time ends with the reason. When the give-back itself fails (the database still away),
 * the error is rethrown for BullMQ's retry, and the reaper takes it back after that.
 */
async function retryNow(
  deps: RunAttemptDeps,
  claim: ClaimedAttempt,
  ending: Extract<Settlement, { next: 'retry-now' }>,
) {
  const { released, dispatch } = await releaseAttempt(deps.db, claim, deps.workerId, ending.reason, 'retry-now').catch(
    (e: Error) => {
      deps.log(`giving back ${claim.attemptId} failed (the reaper takes it back): ${e.message}`);
      throw ending.error;
    },
  );
  if (!released || dispatch === undefined) return { aborted: 'lost' };
  const { jobs, capped } = await redispatchAttempts(
    deps.db,
    [{ attemptId: claim.attemptId, dispatch }],
    deps.maxDispatches,
  );
  await deps.queue.enqueueMany('attempt.run', jobs, { first: true });
  const said = ending.reason.errorMessage.split('\n', 1)[0]!.slice(0, 300);
  deps.log(
    `${claim.attemptId} given back after ${ending.reason.errorClass} ` +
      `(${said}): ${jobs.length ? 'sent again at once' : 'at its dispatch cap, ended'}`,
  );
  // The cap ended it: it may have been the campaign's last.
  if (capped.length) await finishCampaignIfDone(deps.finish, claim.campaignId);
  return { aborted: 'error', retried: jobs.length > 0 };
}
