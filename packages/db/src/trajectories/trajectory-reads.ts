import { trajectorySummarySchema, type StepHead, type TrajectoryStep, type TrajectorySummary } from '@gitbench/core';
import type { Db } from '../client';
import type { Prisma, TrajectoryStatus } from '../generated/prisma/client';
import { decodeStepBody } from './trajectory-store';

// Reads of stored trajectories: what pages list and navigate, and the step bodies they open.

export interface TrajectoryInfo {
  id: string;
  attemptId: string;
  tryNumber: number;
  status: TrajectoryStatus;
  agent: string;
  model: string;
  toolSet: string;
  protocol: string | null;
  exitStatus: string | null;
  exitStep: number | null;
  steps: number;
  toolCalls: number;
  failedSteps: number;
  firstFailedStep: number | null;
  formatStrikes: number;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  costUsd: number | null;
  modelMs: number;
  toolMs: number;
  wallMs: number | null;
  outputBytes: number;
  truncatedBytes: number;
  summary: TrajectorySummary | null;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

const INFO_SELECT = {
  id: true,
  attemptId: true,
  tryNumber: true,
  status: true,
  agent: true,
  model: true,
  toolSet: true,
  protocol: true,
  exitStatus: true,
  exitStep: true,
  steps: true,
  toolCalls: true,
  failedSteps: true,
  firstFailedStep: true,
  formatStrikes: true,
  inputTokens: true,
  outputTokens: true,
  totalTokens: true,
  costUsd: true,
  modelMs: true,
  toolMs: true,
  wallMs: true,
  outputBytes: true,
  truncatedBytes: true,
  summary: true,
  startedAt: true,
  updatedAt: true,
  finishedAt: true,
} as const;

function info(row: Prisma.TrajectoryGetPayload<{ select: typeof INFO_SELECT }>): TrajectoryInfo {
  return {
    ...row,
    outputBytes: Number(row.outputBytes),
    truncatedBytes: Number(row.truncatedBytes),
    summary: row.summary === null ? null : trajectorySummarySchema.parse(row.summary),
  };
}

/** Every try's trajectory of one attempt, oldest try first, without steps. */
export async function listTrajectories(db: Db, attemptId: string): Promise<TrajectoryInfo[]> {
  const rows = await db.trajectory.findMany({
    where: { attemptId },
    select: INFO_SELECT,
    orderBy: { tryNumber: 'asc' },
  });
  return rows.map(info);
}

/**
 * One attempt's trajectory (the latest try's unless `tryNumber` is given) with the head of every
 * step: what a page needs to list and navigate it. Bodies are read with readTrajectorySteps.
 */
export async function readTrajectory(
  db: Db,
  attemptId: string,
  opts: { tryNumber?: number } = {},
): Promise<{ trajectory: TrajectoryInfo; heads: StepHead[] } | null> {
  const row = await db.trajectory.findFirst({
    where: { attemptId, ...(opts.tryNumber !== undefined ? { tryNumber: opts.tryNumber } : {}) },
    select: INFO_SELECT,
    orderBy: { tryNumber: 'desc' },
  });
  if (!row) return null;
  const steps = await db.trajectoryStep.findMany({
    where: { trajectoryId: row.id },
    select: { head: true },
    orderBy: { index: 'asc' },
  });
  return { trajectory: info(row), heads: steps.map((s) => s.head as unknown as StepHead) };
}

/** Full records of the steps with from <= index < to, in order, decompressed and parsed. */
export async function readTrajectorySteps(
  db: Db,
  trajectoryId: string,
  range: { from?: number; to?: number } = {},
): Promise<TrajectoryStep[]> {
  const rows = await db.trajectoryStep.findMany({
    where: { trajectoryId, index: { gte: range.from ?? 0, ...(range.to !== undefined ? { lt: range.to } : {}) } },
    select: { body: true },
    orderBy: { index: 'asc' },
  });
  return rows.map((r) => decodeStepBody(r.body));
}

/** Indexes of the steps a page jumps to: the first failing one, and the one where a limit stopped the loop. */
export async function trajectoryJumps(
  db: Db,
  trajectoryId: string,
): Promise<{ firstFailedStep: number | null; exitStep: number | null; exitStatus: string | null }> {
  const t = await db.trajectory.findUniqueOrThrow({
    where: { id: trajectoryId },
    select: { firstFailedStep: true, exitStep: true, exitStatus: true },
  });
  return t;
}
