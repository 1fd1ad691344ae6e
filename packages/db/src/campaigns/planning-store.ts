import { newId } from '@gitbench/core';
import { rawQuery, type Db } from '../client';
import { packArchive } from './archive';
import type { NewFixtureBuild } from './fixture-builds';
import { SqlParams } from './sql-params';
import type { DispatchJob } from './dispatch';
import type { Prisma } from '../generated/prisma/client';

/** Planning a campaign: its fixtures built and frozen, its attempts written, PLANNING -> RUNNING (or FAILED). */

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
      await db.$executeRaw`UPDATE "Campaign" SET "startedAt" = coalesce("startedAt", now()) WHERE id = ${campaignId}
        AND status = 'PLANNING'`;
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
       INSERT INTO "FixtureBuild" (key, domain, "fixtureId", "inputHash", "repoState", "repoArchive", "setupLog",
         "buildInfo", "createdAt", "lastUsedAt")
       VALUES ${newBuilds.join(', ')} ON CONFLICT (key) DO NOTHING),
     `
      : '';
  const {
    rows: [result],
  } = await rawQuery<{ live: number; moved: { id: string; key: string }[] | null }>(
    db,
    `WITH ${storeBuilds}live AS (
       -- Its first written fixture is when the campaign's attempts may start; the row lock orders two planners.
       UPDATE "Campaign" SET "startedAt" = coalesce("startedAt", ${now})
        WHERE id = ${id} AND status = 'PLANNING' RETURNING id),
     b (id, input_hash, repo_state, build_key, archive, setup_log, build_info) AS (VALUES ${values.join(', ')}),
     moved AS (
       UPDATE "FixtureSnapshot" f
          SET "inputHash" = b.input_hash, "repoState" = b.repo_state, "buildKey" = b.build_key,
              "repoArchive" = b.archive, "setupLog" = b.setup_log, "buildInfo" = b.build_info, "builtAt" = ${now}
         FROM b
        WHERE f.id = b.id AND f."campaignId" = ${id} AND f."builtAt" IS NULL AND EXISTS (SELECT 1 FROM live)
        RETURNING f.id, f.domain, f."fixtureId", f.difficulty),
     attempts AS (
       INSERT INTO "Attempt" (id, "campaignId", "targetId", "fixtureSnapshotId", trial, "modelId", "reasoningEffort",
                              "outputMode", domain, "fixtureId", difficulty, status, "dispatchCount", "dispatchedAt")
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

/** A planning try failed and will be tried again: said on the campaign page meanwhile. */
export async function notePlanFailure(db: Db, campaignId: string, detail: string): Promise<void> {
  await db.campaign.updateMany({
    where: { id: campaignId, status: 'PLANNING' },
    data: { statusDetail: detail.slice(0, 4000) },
  });
}

/** Planning failed for good: the campaign ends FAILED, with the reason. */
export async function failCampaign(db: Db, campaignId: string, detail: string): Promise<void> {
  await db.campaign.updateMany({
    where: { id: campaignId, status: { in: ['PLANNING', 'QUEUED', 'RUNNING'] } },
    data: { status: 'FAILED', statusDetail: detail, finishedAt: new Date() },
  });
}
