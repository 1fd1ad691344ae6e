import type { Fixture } from '@gitbench/core';
import {
  failCampaign,
  findFixtureBuilds,
  finishPlanning,
  notePlanFailure,
  planningShape,
  savePlannedFixtures,
  type BuiltFixture,
  type Db,
  type FixtureSnapshot,
  type NewFixtureBuild,
  type Prisma,
} from '@gitbench/db';
import { jobCatalog, type QueueClient } from '@gitbench/queue';
import { CAMPAIGN_LABEL } from '@gitbench/sandbox';
import type { AttemptExecutor, BuiltRepository } from '../attempts/attempt-executor';
import type { PlannedRows } from '../attempts/planned-rows';
import { finishCampaignIfDone, type FinishCampaignDeps } from './finish-campaign';

export interface PlanCampaignDeps {
  db: Db;
  queue: Pick<QueueClient, 'enqueueMany'>;
  executor: Pick<AttemptExecutor, 'buildKey' | 'buildRepositories'>;
  planned: PlannedRows;
  finish: FinishCampaignDeps;
  log: (line: string) => void;
}

/**
 * Plans a campaign sent by `campaign.plan` dispatch `dispatch`: builds its fixture repositories and
 * writes and sends their attempts. A campaign no longer planning, or a superseded dispatch, is left
 * alone. A failed try is said on the campaign page at once; the last of the job's tries fails the
 * campaign with it, instead of leaving it PLANNING for a retry that never comes.
 */
export async function planCampaign(
  deps: PlanCampaignDeps,
  job: { campaignId: string; dispatch: number },
  attemptsMade: number,
) {
  const { db, log } = deps;
  const campaign = await db.campaign.findUnique({ where: { id: job.campaignId }, include: { fixtures: true } });
  if (!campaign || campaign.status !== 'PLANNING') return { skipped: `campaign is ${campaign?.status ?? 'missing'}` };
  if (campaign.planDispatchCount !== job.dispatch)
    return { skipped: `superseded by plan dispatch ${campaign.planDispatchCount}` };
  try {
    return await buildAndSend(deps, campaign);
  } catch (err) {
    const tries = jobCatalog['campaign.plan'].attempts;
    const message = `planning failed: ${(err as Error).message}`;
    const last = attemptsMade + 1 >= tries;
    const noted = last
      ? failCampaign(db, job.campaignId, message.slice(0, 4000))
      : notePlanFailure(db, job.campaignId, `${message} (try ${attemptsMade + 1} of ${tries}; trying again)`);
    await noted.catch((e: Error) => log(`recording the planning failure of ${job.campaignId} failed: ${e.message}`));
    throw err;
  }
}

/** What a campaign's snapshot records of a build, from a fresh build or a stored one. */
function factsOf(b: { inputHash: string; repoState: string; setupLog: string; buildInfo: unknown }) {
  return {
    inputHash: b.inputHash,
    repoState: b.repoState,
    setupLog: b.setupLog,
    buildInfo: b.buildInfo as Prisma.InputJsonValue,
  };
}

/**
 * Builds what is missing and, fixture by fixture as each build lands, stores it, writes its
 * attempts and sends them: attempts run while later fixtures still build. Fixtures already written
 * (by a duplicate delivery, or an earlier planning of a retried campaign) are left as they are.
 */
async function buildAndSend(deps: PlanCampaignDeps, campaign: { id: string; fixtures: FixtureSnapshot[] }) {
  const { db, executor } = deps;
  const campaignId = campaign.id;
  const snapshots = campaign.fixtures.filter((snap) => snap.builtAt === null);
  const fixtures = snapshots.map((snap) => snap.definition as unknown as Fixture);
  // Builds are deterministic: a fixture another campaign built on the same image is copied, not rebuilt.
  const keys = fixtures.map((f) => executor.buildKey(f));
  const stored = await findFixtureBuilds(
    db,
    keys.filter((k): k is string => k !== null),
  );
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
          return key
            ? [
                {
                  key,
                  domain: snapshots[i]!.domain,
                  fixtureId: snapshots[i]!.fixtureId,
                  ...factsOf(repo),
                  tar: repo.archive,
                },
              ]
            : [];
        });
        // A shared build is referenced by key; one that may not be shared (no key) keeps its own archive.
        const built = indexes.map((i): BuiltFixture => {
          const key = keys[i];
          const repo = fresh.get(i);
          const facts = factsOf(repo ?? stored.get(key!)!);
          return key
            ? { snapshotId: snapshots[i]!.id, ...facts, buildKey: key }
            : { snapshotId: snapshots[i]!.id, ...facts, tar: repo!.archive };
        });
        const saved = await savePlannedFixtures(db, campaignId, built, { shape, newBuilds });
        if (saved === null) {
          stopped = true;
          return;
        }
        // What was just written is what this worker's attempts would read back, once per snapshot.
        const written = new Set(saved.written);
        built.forEach((b, n) => {
          if (written.has(b.snapshotId)) deps.planned.prime(b.snapshotId, snapshots[indexes[n]!]!.definition, b);
        });
        attempts += saved.jobs.length;
        if (saved.jobs.length > 0) await deps.queue.enqueueMany('attempt.run', saved.jobs);
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
      if ('error' in outcome)
        failures.push(`fixture ${snapshots[i]!.domain}/${snapshots[i]!.fixtureId}: ${outcome.error}`);
      else write([i], new Map([[i, outcome]]));
    },
  );
  await writes;
  if (writeError !== undefined) throw writeError;
  if (stopped) return { skipped: 'the campaign left planning meanwhile', attempts };
  if (failures.length > 0) {
    // The fixtures that built keep their attempts; a retry plans only the others.
    const message =
      `planning failed: ${failures.length} fixture repositories ` + `could not be built: ${failures.join('; ')}`;
    await failCampaign(db, campaignId, message.slice(0, 4000));
    return { failed: message };
  }
  // Every attempt may have finished while the last fixtures built.
  if (await finishPlanning(db, campaignId)) await finishCampaignIfDone(deps.finish, campaignId);
  return { attempts, fixturesBuilt: missing.length, fixturesReused: reused.length };
}
