import { newId, type ProductVersion } from '@gitbench/core';
import { rawQuery, type Db } from '../client';
import { packArchive } from './archive';
import type { NewFixtureBuild } from './fixture-builds';
import { SqlParams } from './sql-params';
import type { DispatchJob, PlanJob } from './dispatch';
import type { AttemptStatus, CampaignStatus, OutputMode, Prisma } from '../generated/prisma/client';

/** What creating a campaign writes: the campaign, its targets and its frozen fixture definitions. */
export interface NewCampaign {
  name: string;
  createdBy: string;
  config: Prisma.InputJsonValue;
  configHash: string;
  seed: number;
  suiteVersion: string;
  trials: number;
  legacy?: boolean;
  /** The GitBench that creates the campaign (for a legacy import: the upstream harness's commit). */
  product?: Pick<ProductVersion, 'version' | 'dirty'>;
  /** A safety reviewer is configured: the campaign starts with its review pending (else not_configured). */
  safetyReviewPending?: boolean;
  /** `agent`: the third-party agent driving the model in agent mode; null or absent is GitBench's own loop. */
  targets: {
    modelId: string;
    baseModel: string;
    reasoningEffort: string | null;
    outputMode: OutputMode;
    agent?: string | null;
    profile: string;
  }[];
  fixtures: {
    domain: string;
    fixtureId: string;
    difficulty: string;
    tags: string[];
    scoringType: string;
    definition: Prisma.InputJsonValue;
  }[];
}

export async function insertCampaign(db: Db, input: NewCampaign): Promise<string> {
  const id = newId('campaign');
  await db.$transaction(
    async (tx) => {
      await tx.campaign.create({
        data: {
          id,
          name: input.name,
          createdBy: input.createdBy,
          config: input.config,
          configHash: input.configHash,
          seed: input.seed,
          suiteVersion: input.suiteVersion,
          trials: input.trials,
          legacy: input.legacy ?? false,
          productVersion: input.product?.version ?? null,
          productDirty: input.product?.dirty ?? null,
          ...(input.safetyReviewPending ? { safetyReview: 'pending' } : {}),
          // A legacy import is finished by whoever calls this; anything else is planned by plan job 1.
          status: 'PLANNING',
          planDispatchCount: 1,
          planDispatchedAt: new Date(),
        },
      });
      await tx.campaignTarget.createMany({
        data: input.targets.map((t) => ({ ...t, id: newId('target'), campaignId: id })),
      });
      await tx.fixtureSnapshot.createMany({
        data: input.fixtures.map((f) => ({ ...f, id: newId('fixtureSnapshot'), campaignId: id })),
      });
      // Prisma's default of 5 s is too short for a suite whose definitions carry large assets (fixtures/hard's
      // 26 took 5.6 s while the demo's other campaigns were building) and would fail the whole launch.
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  return id;
}

/** A fixture's build for one campaign: a shared build by key, or its own archive (a tar, plain or gzip-compressed). */
export type BuiltFixture = {
  snapshotId: string;
  inputHash: string;
  repoState: string;
  setupLog: string;
  buildInfo: Prisma.InputJsonValue;
} & ({ buildKey: string; tar?: undefined } | { tar: Buffer; buildKey?: undefined });

/** What one write of planning did: the jobs to send, and the snapshots it wrote (not those written before). */
export interface PlannedWrite {
  jobs: DispatchJob[];
  written: string[];
}

/** What a campaign's attempts are planned over: fixed when it is created, so a planner reads it once. */
export interface PlanningShape {
  trials: number;
  /** In planning order (model, then output mode, then agent: our own loop first, as core's planTargets orders them). */
  targets: { id: string; modelId: string; reasoningEffort: string | null; outputMode: string }[];
}

export async function planningShape(db: Db, campaignId: string): Promise<PlanningShape> {
  return db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: {
      trials: true,
      targets: {
        orderBy: [{ modelId: 'asc' }, { outputMode: 'asc' }, { agent: { sort: 'asc', nulls: 'first' } }],
        select: { id: true, modelId: true, reasoningEffort: true, outputMode: true },
      },
    },
  });
}

/**
 * Writes the attempts of fixtures whose repositories are built, QUEUED as dispatch 1 (the job the
 * caller sends next, so no reaper sends it as well meanwhile), while the campaign is still PLANNING:
 * planning calls this per fixture as each build lands, so attempts run while later fixtures build.
 * Each fixture is written whole or not at all, and only once: a snapshot already built (by a duplicate
 * plan job, or an earlier planning of a campaign that failed and was retried) is skipped, because its
 * row is updated only while unbuilt and a second writer waits for the first's row lock, then finds it
 * built. Null when the campaign is no longer PLANNING (cancelled, failed, or planned by another delivery).
 *
 * One statement (campaign, snapshots and attempts together) instead of a transaction of eight:
 * planning writes once per fixture, and each round trip and Prisma query compilation was paid by
 * every fixture of every cold campaign.
 */
export async function savePlannedFixtures(
  db: Db,
  campaignId: string,
  built: BuiltFixture[],
  opts: { shape?: PlanningShape; newBuilds?: NewFixtureBuild[] } = {},
): Promise<PlannedWrite | null> {
  if (built.length === 0) {
    // A new build is stored with the snapshots that reference it, never on its own.
    if (opts.newBuilds?.length)
      throw new Error('savePlannedFixtures: new builds come with the fixtures built from them');
    const live =
      await db.$executeRaw`UPDATE "Campaign" SET "startedAt" = coalesce("startedAt", now()) WHERE id = ${campaignId} AND status = 'PLANNING'`;
    return live === 1 ? { jobs: [], written: [] } : null;
  }
  const { trials, targets } = opts.shape ?? (await planningShape(db, campaignId));
  const sql = new SqlParams();
  const id = sql.param(campaignId, 'text');
  const now = sql.now();
  const rows: {
    id: string;
    snapshotId: string;
    trial: number;
    targetIndex: number;
    target: PlanningShape['targets'][number];
  }[] = [];
  for (let trial = 1; trial <= trials; trial++) {
    for (const b of built)
      targets.forEach((target, targetIndex) =>
        rows.push({ id: newId('attempt'), snapshotId: b.snapshotId, trial, targetIndex, target }),
      );
  }
  const values = built.map(
    (b) =>
      `(${[
        sql.param(b.snapshotId, 'text'),
        sql.param(b.inputHash, 'text'),
        sql.param(b.repoState, 'text'),
        // A shared build is referenced, not copied: one archive however many campaigns use it.
        sql.param(b.buildKey ?? null, 'text'),
        sql.param(b.buildKey === undefined ? packArchive(b.tar) : null, 'bytea'),
        sql.param(b.setupLog, 'text'),
        sql.param(b.buildInfo, 'jsonb'),
      ].join(', ')})`,
  );
  const col = (pick: (r: (typeof rows)[number]) => unknown, type: string) => sql.param(rows.map(pick), `${type}[]`);
  // New shared builds go in with the snapshots that reference them (written whatever the campaign's
  // state, as a data-modifying CTE always runs): another campaign may reuse them.
  const newBuilds = (opts.newBuilds ?? []).map(
    (n) =>
      `(${[
        sql.param(n.key, 'text'),
        sql.param(n.domain, 'text'),
        sql.param(n.fixtureId, 'text'),
        sql.param(n.inputHash, 'text'),
        sql.param(n.repoState, 'text'),
        sql.param(packArchive(n.tar), 'bytea'),
        sql.param(n.setupLog, 'text'),
        sql.param(n.buildInfo, 'jsonb'),
        now,
        now,
      ].join(', ')})`,
  );
  const storeBuilds =
    newBuilds.length > 0
      ? `stored AS (
       INSERT INTO "FixtureBuild" (key, domain, "fixtureId", "inputHash", "repoState", "repoArchive", "setupLog", "buildInfo", "createdAt", "lastUsedAt")
       VALUES ${newBuilds.join(', ')} ON CONFLICT (key) DO NOTHING),
     `
      : '';
  const {
    rows: [result],
  } = await rawQuery<{ live: number; moved: { id: string; key: string }[] | null }>(
    db,
    `WITH ${storeBuilds}live AS (
       -- Its first written fixture is when the campaign's attempts may start; the row lock orders two planners.
       UPDATE "Campaign" SET "startedAt" = coalesce("startedAt", ${now}) WHERE id = ${id} AND status = 'PLANNING' RETURNING id),
     b (id, input_hash, repo_state, build_key, archive, setup_log, build_info) AS (VALUES ${values.join(', ')}),
     moved AS (
       UPDATE "FixtureSnapshot" f
          SET "inputHash" = b.input_hash, "repoState" = b.repo_state, "buildKey" = b.build_key, "repoArchive" = b.archive,
              "setupLog" = b.setup_log, "buildInfo" = b.build_info, "builtAt" = ${now}
         FROM b
        WHERE f.id = b.id AND f."campaignId" = ${id} AND f."builtAt" IS NULL AND EXISTS (SELECT 1 FROM live)
        RETURNING f.id, f.domain, f."fixtureId", f.difficulty),
     attempts AS (
       INSERT INTO "Attempt" (id, "campaignId", "targetId", "fixtureSnapshotId", trial, "modelId", "reasoningEffort", "outputMode",
                              domain, "fixtureId", difficulty, status, "dispatchCount", "dispatchedAt")
       SELECT u.id, ${id}, u.target, u.snapshot, u.trial, u.model, u.effort, u.mode::"OutputMode",
              m.domain, m."fixtureId", m.difficulty, 'QUEUED', 1, ${now}
         FROM unnest(${[
           col((r) => r.id, 'text'),
           col((r) => r.target.id, 'text'),
           col((r) => r.snapshotId, 'text'),
           col((r) => r.trial, 'int'),
           col((r) => r.target.modelId, 'text'),
           col((r) => r.target.reasoningEffort, 'text'),
           col((r) => r.target.outputMode, 'text'),
         ].join(', ')}) AS u(id, target, snapshot, trial, model, effort, mode)
         JOIN moved m ON m.id = u.snapshot)
     SELECT (SELECT count(*) FROM live)::int AS live,
            (SELECT json_agg(json_build_object('id', id, 'key', domain || '/' || "fixtureId")) FROM moved) AS moved`,
    sql.values,
  );
  if (result!.live !== 1) return null;
  const moved = new Map((result!.moved ?? []).map((m) => [m.id, m.key]));
  // The same order as core's planAttempts within what is written: trial-major, then fixture-major by
  // domain and id (consecutive attempts go to different targets, spreading provider load).
  const keyOf = (r: (typeof rows)[number]) => moved.get(r.snapshotId)!;
  const jobs = rows
    .filter((r) => moved.has(r.snapshotId))
    .sort(
      (a, b) =>
        a.trial - b.trial || (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0) || a.targetIndex - b.targetIndex,
    )
    .map((r) => ({ attemptId: r.id, dispatch: 1 }));
  return { jobs, written: [...moved.keys()] };
}

/**
 * PLANNING -> RUNNING once every fixture's attempts are written; only then can the campaign complete
 * (its attempts may all have finished already: the caller checks). False when a fixture is still
 * unwritten or the campaign left PLANNING.
 */
export async function finishPlanning(db: Db, campaignId: string): Promise<boolean> {
  const moved = await db.$executeRaw`
    UPDATE "Campaign" c SET status = 'RUNNING', "startedAt" = coalesce(c."startedAt", now())
     WHERE c.id = ${campaignId} AND c.status = 'PLANNING'
       AND NOT EXISTS (SELECT 1 FROM "FixtureSnapshot" f WHERE f."campaignId" = c.id AND f."builtAt" IS NULL)`;
  return moved === 1;
}

/** Every fixture at once: savePlannedFixtures, then finishPlanning. */
export async function savePlan(db: Db, campaignId: string, built: BuiltFixture[]): Promise<DispatchJob[] | null> {
  const write = await savePlannedFixtures(db, campaignId, built);
  if (write !== null) await finishPlanning(db, campaignId);
  return write?.jobs ?? null;
}

export async function failCampaign(db: Db, campaignId: string, detail: string): Promise<void> {
  await db.campaign.updateMany({
    where: { id: campaignId, status: { in: ['PLANNING', 'QUEUED', 'RUNNING'] } },
    data: { status: 'FAILED', statusDetail: detail, finishedAt: new Date() },
  });
}

/**
 * Flips RUNNING -> COMPLETED once no attempt is left to run. Safe to call after every attempt, which
 * is why it is one statement (the count and the flip together, no Prisma query compilation): a
 * campaign pays it once per attempt.
 */
export async function completeCampaignIfDone(db: Db, campaignId: string): Promise<boolean> {
  const sql = new SqlParams();
  const id = sql.param(campaignId, 'text');
  const { rowCount } = await rawQuery(
    db,
    `UPDATE "Campaign" c SET status = 'COMPLETED', "finishedAt" = ${sql.now()}
      WHERE c.id = ${id} AND c.status = 'RUNNING'
        AND NOT EXISTS (SELECT 1 FROM "Attempt" a WHERE a."campaignId" = ${id} AND a.status IN ('QUEUED', 'RUNNING'))`,
    sql.values,
  );
  return rowCount === 1;
}

/** A planning try failed and will be tried again: said on the campaign page meanwhile. */
export async function notePlanFailure(db: Db, campaignId: string, detail: string): Promise<void> {
  await db.campaign.updateMany({
    where: { id: campaignId, status: 'PLANNING' },
    data: { statusDetail: detail.slice(0, 4000) },
  });
}

/**
 * No new attempt starts; queued ones become CANCELLED; running ones stop at their next heartbeat.
 * One statement, whatever the campaign's size: no interactive transaction whose time limit a large
 * campaign could outrun.
 */
export async function markCampaignCancelled(
  db: Db,
  campaignId: string,
): Promise<{ cancelled: boolean; stoppedQueued: number }> {
  const sql = new SqlParams();
  const id = sql.param(campaignId, 'text');
  const now = sql.now();
  const [row] = await db.$queryRawUnsafe<{ cancelled: number; stopped: number }[]>(
    `WITH c AS (
       UPDATE "Campaign" SET status = 'CANCELLED', "cancelledAt" = ${now}, "finishedAt" = ${now}
        WHERE id = ${id} AND status IN ('PLANNING', 'QUEUED', 'RUNNING') RETURNING id),
     q AS (
       UPDATE "Attempt" SET status = 'CANCELLED', "finishedAt" = ${now}
        WHERE "campaignId" IN (SELECT id FROM c) AND status = 'QUEUED' RETURNING 1)
     SELECT (SELECT count(*) FROM c)::int AS cancelled, (SELECT count(*) FROM q)::int AS stopped`,
    ...sql.values,
  );
  return { cancelled: row!.cancelled === 1, stoppedQueued: row!.stopped };
}

/** What a retry queued again: the attempts to send, and the planning to send when the campaign had failed it. */
export interface RetryResult {
  attempts: DispatchJob[];
  plan?: PlanJob;
}

/**
 * Re-queues only infrastructure failures (a dispatch cap reached among them), as new tries: the
 * failed tries stay in the history. A finished campaign is reopened so its completeness can be
 * earned; a campaign whose planning failed is planned again. The new tries' outputs have not been
 * reviewed, so a published campaign is unpublished and an approved review goes back to pending. One statement: the attempts and the
 * campaign change together, each attempt numbered with its next dispatch and its cap counted afresh.
 */
export async function requeueInfraFailures(db: Db, campaignId: string): Promise<RetryResult> {
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { legacy: true } });
  if (campaign.legacy) throw new Error('a legacy campaign cannot be retried: it has no fixture snapshots to run');
  const sql = new SqlParams();
  const id = sql.param(campaignId, 'text');
  const now = sql.now();
  const rows = await db.$queryRawUnsafe<{ kind: 'plan' | 'attempt'; id: string; dispatch: number }[]>(
    `WITH c AS (
       UPDATE "Campaign" c SET
              status = CASE WHEN c.status = 'FAILED' THEN 'PLANNING'::"CampaignStatus" ELSE 'RUNNING'::"CampaignStatus" END,
              "statusDetail" = CASE WHEN c.status = 'FAILED' THEN NULL ELSE c."statusDetail" END,
              "finishedAt" = NULL,
              "safetyReview" = CASE WHEN c."publishedAt" IS NOT NULL OR c."safetyReview" = 'approved' THEN 'pending' ELSE c."safetyReview" END,
              "publishedAt" = NULL, "publishedBy" = NULL,
              "planDispatchBase" = CASE WHEN c.status = 'FAILED' THEN c."planDispatchCount" ELSE c."planDispatchBase" END,
              "planDispatchCount" = CASE WHEN c.status = 'FAILED' THEN c."planDispatchCount" + 1 ELSE c."planDispatchCount" END,
              "planDispatchedAt" = CASE WHEN c.status = 'FAILED' THEN ${now} ELSE c."planDispatchedAt" END
        WHERE c.id = ${id}
          AND (c.status = 'FAILED'
               OR (c.status IN ('QUEUED', 'RUNNING', 'COMPLETED')
                   AND EXISTS (SELECT 1 FROM "Attempt" a WHERE a."campaignId" = c.id AND a.status = 'INFRA_FAILURE')))
       RETURNING c.id, c.status, c."planDispatchCount"),
     a AS (
       UPDATE "Attempt" SET status = 'QUEUED', "errorClass" = NULL, "errorMessage" = NULL, "finishedAt" = NULL,
              "dispatchBase" = "dispatchCount", "dispatchCount" = "dispatchCount" + 1, "dispatchedAt" = ${now}
        WHERE "campaignId" IN (SELECT id FROM c) AND status = 'INFRA_FAILURE'
       RETURNING id, "dispatchCount")
     SELECT 'plan' AS kind, id, "planDispatchCount" AS dispatch FROM c WHERE status = 'PLANNING'
     UNION ALL SELECT 'attempt', id, "dispatchCount" FROM a`,
    ...sql.values,
  );
  const plan = rows.find((r) => r.kind === 'plan');
  return {
    attempts: rows.filter((r) => r.kind === 'attempt').map((r) => ({ attemptId: r.id, dispatch: r.dispatch })),
    ...(plan ? { plan: { campaignId: plan.id, dispatch: plan.dispatch } } : {}),
  };
}

export interface CampaignProgress {
  status: CampaignStatus;
  total: number;
  byStatus: Partial<Record<AttemptStatus, number>>;
  done: number;
}

export async function campaignProgress(db: Db, campaignId: string): Promise<CampaignProgress> {
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { status: true } });
  const groups = await db.attempt.groupBy({ by: ['status'], where: { campaignId }, _count: { _all: true } });
  const byStatus: Partial<Record<AttemptStatus, number>> = {};
  let total = 0;
  for (const g of groups) {
    byStatus[g.status] = g._count._all;
    total += g._count._all;
  }
  const done = total - (byStatus.QUEUED ?? 0) - (byStatus.RUNNING ?? 0);
  return { status: campaign.status, total, byStatus, done };
}
