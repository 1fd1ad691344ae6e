import type { Fixture } from '@gitbench/core';
import {
  claimAttempt,
  completeCampaignIfDone,
  failCampaign,
  finishAttempt,
  heartbeatAttempt,
  markDispatched,
  releaseAttempt,
  savePlan,
  type BuiltFixture,
  type Db,
  refreshCampaignStats,
  type HeartbeatVerdict,
  type Prisma,
} from '@gitbench/db';
import type { JobHandlers, QueueClient } from '@gitbench/queue';
import { CAMPAIGN_LABEL } from '@gitbench/sandbox';
import type { AttemptExecutor } from './attempt-executor';

export interface CampaignHandlerDeps {
  db: Db;
  queue: QueueClient;
  executor: AttemptExecutor;
  workerId: string;
  heartbeatMs: number;
  /** How many fixture repositories one plan job builds at once. */
  buildConcurrency: number;
}

export const ATTEMPT_LABEL = 'org.gitbench.attempt';

/** Hands attempts to the queue, recording each dispatch first so a lost job can be re-sent. */
export async function dispatchAttempts(db: Db, queue: QueueClient, attemptIds: string[]): Promise<number> {
  const jobs = await markDispatched(db, attemptIds);
  await queue.enqueueMany('attempt.run', jobs);
  return jobs.length;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!);
      }
    }),
  );
  return results;
}

export function campaignHandlers(deps: CampaignHandlerDeps): Pick<JobHandlers, 'campaign.plan' | 'attempt.run'> {
  const { db, queue, executor, workerId } = deps;

  return {
    async 'campaign.plan'({ campaignId }) {
      const campaign = await db.campaign.findUnique({ where: { id: campaignId }, include: { fixtures: true } });
      if (!campaign || campaign.status !== 'PLANNING') return { skipped: `campaign is ${campaign?.status ?? 'missing'}` };
      let built: BuiltFixture[];
      try {
        built = await mapLimit(campaign.fixtures, deps.buildConcurrency, async (snap) => {
          const fixture = snap.definition as unknown as Fixture;
          try {
            const repo = await executor.buildRepository(fixture, { [CAMPAIGN_LABEL]: campaignId });
            return {
              snapshotId: snap.id,
              inputHash: repo.inputHash,
              repoState: repo.repoState,
              repoArchive: repo.archive,
              setupLog: repo.setupLog,
              buildInfo: repo.buildInfo as Prisma.InputJsonValue,
            };
          } catch (err) {
            throw new Error(`fixture ${snap.domain}/${snap.fixtureId}: ${(err as Error).message}`);
          }
        });
      } catch (err) {
        await failCampaign(db, campaignId, `planning failed: ${(err as Error).message}`);
        return { failed: (err as Error).message };
      }
      const attemptIds = await savePlan(db, campaignId, built);
      if (!attemptIds) return { skipped: 'planned by another delivery' };
      await dispatchAttempts(db, queue, attemptIds);
      return { attempts: attemptIds.length };
    },

    async 'attempt.run'({ attemptId }, ctx) {
      const claim = await claimAttempt(db, attemptId, workerId);
      if (!claim) return { skipped: 'not queued (duplicate delivery, cancelled or already done)' };
      const attempt = await db.attempt.findUniqueOrThrow({
        where: { id: attemptId },
        include: { target: true, fixtureSnapshot: true, campaign: { select: { seed: true, config: true } } },
      });
      const labels = { [CAMPAIGN_LABEL]: attempt.campaignId, [ATTEMPT_LABEL]: attemptId };
      const abort = new AbortController();
      const onShutdown = () => abort.abort(new Error('worker shutting down'));
      ctx.signal.addEventListener('abort', onShutdown);
      const ownership: { verdict: HeartbeatVerdict } = { verdict: 'owned' };
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
        const snap = attempt.fixtureSnapshot;
        if (!snap.repoArchive || !snap.inputHash || !snap.repoState || !snap.buildInfo) throw new Error(`fixture snapshot ${snap.id} was never built`);
        const config = attempt.campaign.config as { judgeProfile?: string };
        const outcome = await executor.runAttempt(
          {
            attemptId,
            campaignId: attempt.campaignId,
            trial: attempt.trial,
            seed: attempt.campaign.seed,
            modelId: attempt.modelId,
            outputMode: attempt.outputMode,
            profile: attempt.target.profile,
            fixture: snap.definition as unknown as Fixture,
            plannedInputHash: snap.inputHash,
            repoArchive: Buffer.from(snap.repoArchive),
            repoState: snap.repoState,
            buildInfo: snap.buildInfo as Record<string, unknown>,
            judgeProfile: config.judgeProfile,
            sandboxLabels: labels,
          },
          abort.signal,
        );
        if (abort.signal.aborted) {
          if (ownership.verdict === 'cancelled') {
            await finishAttempt(db, claim, workerId, { status: 'CANCELLED', record: { errorClass: 'cancelled', errorMessage: 'campaign cancelled while running' } });
          } else if (ownership.verdict === 'owned') {
            // Shutdown: give the attempt back untouched; another worker (or this one restarted) reruns it.
            await releaseAttempt(db, claim);
          }
          return { aborted: ownership.verdict };
        }
        const written = await finishAttempt(db, claim, workerId, outcome);
        // The leaderboard reads maintained aggregates: refresh them when the campaign's last attempt lands.
        if (written && (await completeCampaignIfDone(db, attempt.campaignId))) await refreshCampaignStats(db, attempt.campaignId);
        return { status: outcome.status, written };
      } catch (err) {
        // A bug or a lost database connection, not a model outcome: give the attempt back and let
        // BullMQ retry the job, which will claim it afresh.
        await releaseAttempt(db, claim).catch(() => undefined);
        throw err;
      } finally {
        clearInterval(beat);
        ctx.signal.removeEventListener('abort', onShutdown);
        await executor.removeSandboxes(labels).catch(() => undefined);
      }
    },
  };
}
