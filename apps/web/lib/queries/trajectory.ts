import { gunzipSync } from 'node:zlib';
import { exitStatusIsLimit, isAgentExitStatus, type StepHead } from '@gitbench/core';
import { decodeStepBody, readTrajectory, readTrajectorySteps, type Db, type TrajectoryInfo } from '@gitbench/db';
import {
  clipStep,
  fullPart,
  jumpTargets,
  searchStep,
  type JumpTargets,
  type SearchHit,
  type StepPart,
  type ViewStep,
} from '../trajectory/view-model';

/**
 * Reads of one attempt's trajectory for the viewer: heads of every step (small), bodies of a range
 * of steps cut to previews, one part of one step whole, a search over the bodies, and the ATIF
 * export. Each read resolves the trajectory from the attempt id (and try), never loads a campaign,
 * and loads bodies only for the steps it returns.
 */

/** What the browser needs of the trajectory row: its counters, without the summary's prompts. */
export type TrajectoryMeta = Omit<
  TrajectoryInfo,
  'attemptId' | 'firstFailedStep' | 'totalTokens' | 'summary' | 'startedAt' | 'updatedAt' | 'finishedAt'
> & {
  exitDetail: string | null;
};

export interface TrajectoryView {
  meta: TrajectoryMeta;
  heads: StepHead[];
  jumps: JumpTargets;
  /** Tries of the attempt that have a trajectory, oldest first. */
  tries: number[];
}

function metaOf(t: TrajectoryInfo): TrajectoryMeta {
  const {
    attemptId: _a,
    firstFailedStep: _f,
    totalTokens: _t,
    summary,
    startedAt: _s,
    updatedAt: _u,
    finishedAt: _e,
    ...meta
  } = t;
  return { ...meta, exitDetail: summary?.exitDetail ?? null };
}

export function stopOf(
  meta: Pick<TrajectoryMeta, 'exitStatus' | 'exitStep'>,
): { limit: boolean; exitStep: number | null } | null {
  if (!meta.exitStatus || !isAgentExitStatus(meta.exitStatus)) return null;
  return { limit: exitStatusIsLimit(meta.exitStatus), exitStep: meta.exitStep };
}

export async function getTrajectoryView(db: Db, attemptId: string, tryNumber?: number): Promise<TrajectoryView | null> {
  const read = await readTrajectory(db, attemptId, tryNumber === undefined ? {} : { tryNumber });
  if (!read) return null;
  const tries = await db.trajectory.findMany({
    where: { attemptId },
    select: { tryNumber: true },
    orderBy: { tryNumber: 'asc' },
  });
  const meta = metaOf(read.trajectory);
  return {
    meta,
    heads: read.heads,
    jumps: jumpTargets(read.heads, stopOf(meta)),
    tries: tries.map((t) => t.tryNumber),
  };
}

async function trajectoryRow(db: Db, attemptId: string, tryNumber?: number) {
  return db.trajectory.findFirst({
    where: { attemptId, ...(tryNumber !== undefined ? { tryNumber } : {}) },
    select: { id: true, status: true, steps: true, exitStatus: true, exitStep: true, updatedAt: true },
    orderBy: { tryNumber: 'desc' },
  });
}

/** Steps from <= index < to, each cut to its preview (a few tens of KB at most). */
export async function getStepRange(
  db: Db,
  attemptId: string,
  range: { from: number; to: number; tryNumber?: number },
): Promise<ViewStep[] | null> {
  const t = await trajectoryRow(db, attemptId, range.tryNumber);
  if (!t) return null;
  const steps = await readTrajectorySteps(db, t.id, { from: range.from, to: range.to });
  return steps.map((s) => clipStep(s));
}

/** The whole text of one part of one step (an output, a diff, ...), as stored. */
export async function getStepPart(
  db: Db,
  attemptId: string,
  index: number,
  part: StepPart,
  tryNumber?: number,
): Promise<string | null> {
  const t = await trajectoryRow(db, attemptId, tryNumber);
  if (!t) return null;
  const row = await db.trajectoryStep.findUnique({
    where: { trajectoryId_index: { trajectoryId: t.id, index } },
    select: { body: true },
  });
  return row ? fullPart(decodeStepBody(row.body), part) : null;
}

/** New step heads after `after` (the last index the browser has), and where the trajectory stands. */
export async function getStepsAfter(db: Db, attemptId: string, after: number, tryNumber?: number) {
  const t = await trajectoryRow(db, attemptId, tryNumber);
  if (!t) return null;
  const rows = await db.trajectoryStep.findMany({
    where: { trajectoryId: t.id, index: { gt: after } },
    select: { head: true },
    orderBy: { index: 'asc' },
  });
  return {
    status: t.status,
    steps: t.steps,
    exitStatus: t.exitStatus,
    exitStep: t.exitStep,
    heads: rows.map((r) => r.head as unknown as StepHead),
  };
}

export const SEARCH_LIMIT = 200;
const SEARCH_BATCH = 25;

/**
 * Every step whose texts contain `query` (case-insensitive), in step order, at most SEARCH_LIMIT.
 * Bodies are read in batches and matched on their raw JSON first, so only candidate steps are
 * parsed; a 50 MB trajectory is searched without holding it in memory at once.
 */
export async function searchTrajectory(
  db: Db,
  attemptId: string,
  query: string,
  tryNumber?: number,
): Promise<{ hits: SearchHit[]; truncated: boolean } | null> {
  const t = await trajectoryRow(db, attemptId, tryNumber);
  if (!t) return null;
  // The query as it appears inside a JSON string (quotes, backslashes and newlines escaped).
  const needle = JSON.stringify(query).slice(1, -1).toLowerCase();
  const hits: SearchHit[] = [];
  for (let from = 0; from < t.steps; from += SEARCH_BATCH) {
    const rows = await db.trajectoryStep.findMany({
      where: { trajectoryId: t.id, index: { gte: from, lt: from + SEARCH_BATCH } },
      select: { body: true },
      orderBy: { index: 'asc' },
    });
    for (const row of rows) {
      const raw = gunzipSync(row.body).toString('utf8');
      if (!raw.toLowerCase().includes(needle)) continue;
      const hit = searchStep(decodeStepBody(row.body), query);
      if (hit) hits.push(hit);
      if (hits.length >= SEARCH_LIMIT) return { hits, truncated: true };
    }
  }
  return { hits, truncated: false };
}

/** The trajectory as ATIF v1.4 (the CLI exports through the same function). */
export { trajectoryAtif as getAtifExport } from '@gitbench/db';
