import { toAtif, type AtifTrajectory } from '@gitbench/core';
import type { Db } from '../client';
import { readTrajectory, readTrajectorySteps } from './trajectory-reads';

/** One attempt's trajectory (the latest try unless `tryNumber`) as ATIF v1.4; null when it has none. */
export async function trajectoryAtif(db: Db, attemptId: string, tryNumber?: number): Promise<AtifTrajectory | null> {
  const read = await readTrajectory(db, attemptId, tryNumber === undefined ? {} : { tryNumber });
  if (!read) return null;
  const t = read.trajectory;
  const [attempt, steps] = await Promise.all([
    db.attempt.findUnique({ where: { id: attemptId }, select: { productVersion: true } }),
    readTrajectorySteps(db, t.id),
  ]);
  return toAtif({
    sessionId: t.id,
    version: attempt?.productVersion ?? 'unknown',
    agent: t.agent,
    model: t.model,
    toolSet: t.toolSet,
    summary: t.summary,
    steps,
  });
}
