import type { Fixture, ProductVersion, SafetyReviewer } from '@gitbench/core';
import {
  runSafetyReview,
  claimAttempt,
  completeCampaignIfDone,
  failCampaign,
  findFixtureBuilds,
  finishAttempt,
  heartbeatAttempt,
  notePlanFailure,
  releaseAttempt,
  planningShape,
  savePlannedFixtures,
  finishPlanning,
  type BuiltFixture,
  type NewFixtureBuild,
  type Db,
  refreshCampaignStats,
  type HeartbeatVerdict,
  type Prisma,
  loadSnapshotArchive,
  type AttemptOutcome,
  type FixtureSnapshot,
  type ReleaseReason,
} from '@gitbench/db';
import { jobCatalog, type JobHandlers, type QueueClient } from '@gitbench/queue';
import { ATTEMPT_LABEL, CAMPAIGN_LABEL } from '@gitbench/sandbox';
import { attemptDeadline } from './attempt-deadline';
import { StorageError, type AttemptExecutor, type BuiltRepository } from './attempt-executor';
import { PlannedRows } from './planned-rows';

export interface CampaignHandlerDeps {
  db: Db;
  queue: QueueClient;
  executor: AttemptExecutor;
  workerId: string;
  heartbeatMs: number;
  /**
   * Wall-clock limit of one single-answer attempt: past it the attempt is stopped and ends as an
   * attempt_timeout failure. Agent attempts get their own maxWallMs on top (see attemptDeadline).
   */
  attemptTimeoutMs: number;
  /** Reviews a campaign's raw outputs once its last attempt lands (GITBENCH_SAFETY_REVIEW). */
  safetyReviewer?: SafetyReviewer;
  /** This worker's GitBench version, recorded with every outcome it writes. */
  productVersion: ProductVersion;
}


/** What a campaign's snapshot records of a build, from a fresh build or a stored one. */
function factsOf(b: { inputHash: string; repoState: string; setupLog: string; buildInfo: unknown }) {
  return { inputHash: b.inputHash, repoState: b.repoState, setupLog: b.setupLog, buildInfo: b.buildInfo as Prisma.InputJsonValue };
}

/** What a try had already cost when it was given back: its model call's evidence, if there was one. */
function spentOf(record: Partial<AttemptOutcome['record']> | undefined): Pick<ReleaseReason, 'evidence'> {
  return record?.evidence === undefined ? {} : { evidence: record.evidence };
}

export function campaignHandlers(deps: CampaignHandlerDeps): Pick<JobHandlers, 'campaign.plan' | 'attempt.run'> {
  const { db, queue, executor, workerId } = deps;
  /** A campaign's last attempt landed: the safety review reads its raw outputs, then the aggregates are refreshed. */
  const finishCampaign = async (campaignId: string) => {
    const review = await runSafetyReview(db, campaignId, deps.safetyReviewer ?? { kind: 'off' });
    if (review) console.log(`[worker ${workerId}] safety review of ${campaignId}: ${review.reviewed} output(s) read, ${review.blocked} blocked`);
    await refreshCampaignStats(db, campaignId);
  };
  const product = { productVersion: deps.productVersion.version, productDirty: deps.productVersion.dirty };
  const stamped = (outcome: AttemptOutcome): AttemptOutcome => ({ ...outcome, summary: { ...outcome.summary, ...product }, record: { ...outcome.record, ...product } });
  const planned = new PlannedRows(db);

  /**
   * Builds what is missing and, fixture by fixture as each build lands, stores it, writes its
   * attempts and sends them: attempts run while later fixtures still build. Fixtures already written
   * (by a duplicate delivery, or an earlier planning of a retried campaign) are left as they are.
   */
  async function plan(campaign: { id: string; fixtures: FixtureSnapshot[] }) {
    const campaignId = campaign.id;
    const snapshots = campaign.fixtures.filter((snap) => snap.builtAt === null);
    const fixtures = snapshots.map((snap) => snap.definition as unknown as Fixture);
    // Builds are deterministic: a fixture another campaign built on the same image is copied, not rebuilt.
    const keys = fixtures.map((f) => executor.buildKey(f));
    const stored = await findFixtureBuilds(db, keys.filter((k): k is string => k !== null));
    const missing = fixtures.flatMap((f, i) => (keys[i] && stored.has(keys[i]!) ? [] : [i]));
    const reused = fixtures.flatMap((_, i) => (keys[i] && stored.has(keys[i]!) ? [i] : []));
    // Trials and targets are fixed at creation: read once, not once per fixture written.
    const shape = await planningShape(db, campaignId);

    // One write at a time, in the order builds land; a failed write stops the rest and fails this try.
    let writes = Promise.resolve();
    let writeError: unknown;
    let attempts = 0;
    let stopped = false;
    const write = (indexes: number[], fresh: Map<number, BuiltRepository>) => {
      writes = writes
        .then(async () => {
          if (stopped || writeError !== undefined || indexes.length === 0) return;
          const newBuilds = [...fresh].flatMap(([i, repo]): NewFixtureBuild[] => {
            const key = keys[i];
            return key ? [{ key, domain: snapshots[i]!.domain, fixtureId: snapshots[i]!.fixtureId, ...factsOf(repo), tar: repo.archive }] : [];
          });
          // A shared build is referenced by key; one that may not be shared (no key) keeps its own archive.
          const built = indexes.map((i): BuiltFixture => {
            const key = keys[i];
            const repo = fresh.get(i);
            const facts = factsOf(repo ?? stored.get(key!)!);
            return key ? { snapshotId: snapshots[i]!.id, ...facts, buildKey: key } : { snapshotId: snapshots[i]!.id, ...facts, tar: repo!.archive };
          });
          const write = await savePlannedFixtures(db, campaignId, built, { shape, newBuilds });
          if (write === null) {
            stopped = true;
            return;
          }
          // What was just written is what this worker's attempts would read back, once per snapshot.
          const written = new Set(write.written);
          built.forEach((b, n) => {
            if (written.has(b.snapshotId)) planned.prime(b.snapshotId, snapshots[indexes[n]!]!.definition, b);
          });
          const { jobs } = write;
          attempts += jobs.length;
          if (jobs.length > 0) await queue.enqueueMany('attempt.run', jobs);
        })
        .catch((err: unknown) => {
          writeError ??= err;
        });
    };
    // Reused builds at once, in one write: their attempts start before anything is built.
    write(reused, new Map());
    const failures: string[] = [];
    await executor.buildRepositories(
      missing.map((i) => fixtures[i]!),
      { [CAMPAIGN_LABEL]: campaignId },
      (j, outcome) => {
        const i = missing[j]!;
        if ('error' in outcome) failures.push(`fixture ${snapshots[i]!.domain}/${snapshots[i]!.fixtureId}: ${outcome.error}`);
        else write([i], new Map([[i, outcome]]));
      },
    );
    await writes;
    if (writeError !== undefined) throw writeError;
    if (stopped) return { skipped: 'the campaign left planning meanwhile', attempts };
    if (failures.length > 0) {
      // The fixtures that built keep their attempts; a retry plans only the others.
      const message = `planning failed: ${failures.length} fixture repositories could not be built: ${failures.join('; ')}`;
      await failCampaign(db, campaignId, message.slice(0, 4000));
      return { failed: message };
    }
    // Every attempt may have finished while the last fixtures built.
    if ((await finishPlanning(db, campaignId)) && (await completeCampaignIfDone(db, campaignId))) await finishCampaign(campaignId);
    return { attempts, fixturesBuilt: missing.length, fixturesReused: reused.length };
  }

  return {
    async 'campaign.plan'({ campaignId, dispatch }, ctx) {
      const campaign = await db.campaign.findUnique({ where: { id: campaignId }, include: { fixtures: true } });
      if (!campaign || campaign.status !== 'PLANNING') return { skipped: `campaign is ${campaign?.status ?? 'missing'}` };
      if (campaign.planDispatchCount !== dispatch) return { skipped: `superseded by plan dispatch ${campaign.planDispatchCount}` };
      try {
        return await plan(campaign);
      } catch (err) {
        // Said on the campaign page at once; the last of the job's tries fails the campaign with it,
        // instead of leaving it PLANNING for a retry that never comes.
        const tries = jobCatalog['campaign.plan'].attempts;
        const message = `planning failed: ${(err as Error).message}`;
        const last = ctx.attemptsMade + 1 >= tries;
        await (last ? failCampaign(db, campaignId, message.slice(0, 4000)) : notePlanFailure(db, campaignId, `${message} (try ${ctx.attemptsMade + 1} of ${tries}; trying again)`)).catch(
          (e: Error) => console.error(`[worker ${workerId}] recording the planning failure of ${campaignId} failed: ${e.message}`),
        );
        throw err;
      }
    },

    async 'attempt.run'({ attemptId }, ctx) {
      const claim = await claimAttempt(db, attemptId, workerId);
      if (!claim) return { skipped: 'not queued (duplicate delivery, cancelled or already done)' };
      const labels = { [CAMPAIGN_LABEL]: claim.campaignId, [ATTEMPT_LABEL]: attemptId };
      const abort = new AbortController();
      // A cancelled campaign or a lost claim stops the attempt's sandbox now, not when its commands end.
      abort.signal.addEventListener('abort', () => {
        executor.removeSandboxes(labels).catch(() => undefined);
      });
      const onShutdown = () => abort.abort(new Error('worker shutting down'));
      ctx.signal.addEventListener('abort', onShutdown);
      const ownership: { verdict: HeartbeatVerdict } = { verdict: 'owned' };
      const started = Date.now();
      let timedOut = false;
      // GITBENCH_ATTEMPT_TIMEOUT_MS until the campaign is read; an agent attempt's deadline then
      // counts from the same start (see attemptDeadline).
      let deadline = attemptDeadline(deps.attemptTimeoutMs);
      let timer: NodeJS.Timeout | undefined;
      // An executor that does not stop when asked still lets the attempt end, a little after its limit.
      let hardStop: NodeJS.Timeout | undefined;
      let resolveStopped: (v: 'stopped') => void = () => undefined;
      const stopped = new Promise<'stopped'>((resolve) => {
        resolveStopped = resolve;
      });
      const arm = (d: typeof deadline) => {
        deadline = d;
        clearTimeout(timer);
        clearTimeout(hardStop);
        const left = Math.max(0, started + d.ms - Date.now());
        timer = setTimeout(() => {
          timedOut = true;
          abort.abort(new Error(d.message));
        }, left);
        hardStop = setTimeout(() => resolveStopped('stopped'), left + 15_000);
      };
      arm(deadline);
      const beat = setInterval(() => {
        heartbeatAttempt(db, claim).then(
          (v) => {
            ownership.verdict = v;
            if (v !== 'owned') abort.abort(new Error(`attempt ${v}`));
          },
          (err: Error) => console.error(`[worker ${workerId}] heartbeat for ${attemptId} failed: ${err.message}`),
        );
      }, deps.heartbeatMs);
      try {
        const [snap, campaign, target] = await Promise.all([
          planned.snapshot(claim.fixtureSnapshotId),
          planned.campaign(claim.campaignId),
          planned.target(claim.targetId),
        ]);
        if (claim.outputMode === 'agent' && campaign.agent && !timedOut) arm(attemptDeadline(deps.attemptTimeoutMs, campaign.agent.limits));
        const running = executor.runAttempt(
          {
            attemptId,
            campaignId: claim.campaignId,
            tryNumber: claim.tryNumber,
            trial: claim.trial,
            seed: campaign.seed,
            modelId: claim.modelId,
            outputMode: claim.outputMode,
            ...(claim.outputMode === 'agent' && campaign.agent ? { agent: campaign.agent } : {}),
            profile: target.profile,
            fixture: snap.fixture,
            plannedInputHash: snap.inputHash,
            // Fetched only if the scorer starts a sandbox.
            repoArchive: () =>
              loadSnapshotArchive(db, claim.fixtureSnapshotId).catch((err: Error) => {
                throw new StorageError(`reading the archive of fixture snapshot ${claim.fixtureSnapshotId}: ${err.message}`);
              }),
            repoState: snap.repoState,
            buildInfo: snap.buildInfo,
            judgeProfile: campaign.judgeProfile,
            sandboxLabels: labels,
          },
          abort.signal,
        );
        const raced = await Promise.race([running, stopped]);
        if (raced === 'stopped') running.catch(() => undefined);
        const outcome = raced === 'stopped' ? { status: 'INFRA_FAILURE' as const, record: {} } : raced;
        if (timedOut && ownership.verdict === 'owned') {
          const error = { errorClass: 'attempt_timeout', errorMessage: deadline.message };
          const written = await finishAttempt(
            db,
            claim,
            workerId,
            stamped({ status: 'INFRA_FAILURE', summary: { ...error, wallDurationMs: Date.now() - started }, record: { ...error, ...spentOf(outcome.record) } }),
          );
          if (written && (await completeCampaignIfDone(db, claim.campaignId))) await finishCampaign(claim.campaignId);
          return { status: 'INFRA_FAILURE', timedOut: true, written };
        }
        if (!abort.signal.aborted && outcome.status === 'INFRA_FAILURE') {
          // The cancel route removes a cancelled campaign's sandboxes before this attempt's heartbeat
          // says so: ask once more before recording the removal as a sandbox failure.
          const verdict = await heartbeatAttempt(db, claim).catch(() => 'owned' as const);
          if (verdict !== 'owned') {
            ownership.verdict = verdict;
            abort.abort(new Error(`attempt ${verdict}`));
          }
        }
        if (abort.signal.aborted) {
          if (ownership.verdict === 'cancelled') {
            const record = { errorClass: 'cancelled', errorMessage: 'campaign cancelled while running', ...spentOf(outcome.record) };
            await finishAttempt(db, claim, workerId, stamped({ status: 'CANCELLED', record }));
          } else if (ownership.verdict === 'owned') {
            // Shutdown: give the attempt back and send it again now, ahead of the backlog, so that
            // another worker (or this one restarted) runs it next instead of after a reaper's delay.
            const reason = { errorClass: 'given_back', errorMessage: 'the worker shut down while running it; sent again at once', ...spentOf(outcome.record), ...product };
            const { job } = await releaseAttempt(db, claim, workerId, reason, 'send-now');
            if (job) await queue.enqueueMany('attempt.run', [job], { first: true });
          }
          return { aborted: ownership.verdict };
        }
        const written = await finishAttempt(db, claim, workerId, stamped(outcome));
        // The leaderboard reads maintained aggregates: refresh them when the campaign's last attempt lands.
        if (written && (await completeCampaignIfDone(db, claim.campaignId))) await finishCampaign(claim.campaignId);
        return { status: outcome.status, written };
      } catch (err) {
        // A bug, the worker's storage or a lost database connection, not a model outcome: give the
        // attempt back, keeping what its model call cost, and let BullMQ retry the job, which claims
        // it afresh. An attempt that fails like this every time is stopped by the dispatch cap.
        const spent = err instanceof StorageError ? err.spent : undefined;
        const reason = { errorClass: err instanceof StorageError ? 'storage' : 'worker_error', errorMessage: String((err as Error)?.message ?? err).slice(0, 4000), ...spentOf(spent), ...product };
        await releaseAttempt(db, claim, workerId, reason, 'job-retries').catch((e: Error) =>
          console.error(`[worker ${workerId}] giving back ${attemptId} failed (the reaper takes it back): ${e.message}`),
        );
        throw err;
      } finally {
        clearInterval(beat);
        clearTimeout(timer);
        clearTimeout(hardStop);
        ctx.signal.removeEventListener('abort', onShutdown);
      }
    },
  };
}
