import { newId, stepFailed, sumStepUsage, type TrajectoryStep, type TrajectorySummary } from '@gitbench/core';
import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';
import { encodeStepBody, stepColumnsForSeed } from './trajectory-store';

/** Writes a whole trajectory at once (seeds, imports); the runtime writes step by step instead. */
export async function storeTrajectory(
  db: Db,
  attemptId: string,
  tryNumber: number,
  summary: TrajectorySummary,
  steps: readonly TrajectoryStep[],
  status: 'running' | 'finished' = 'finished',
): Promise<string> {
  const id = newId('trajectory');
  const totals = sumStepUsage(steps);
  const failed = steps.filter(stepFailed).map((s) => s.index);
  const started = steps[0] ? new Date(steps[0].startedAt) : new Date();
  await db.trajectory.create({
    data: {
      id,
      attemptId,
      tryNumber,
      status,
      agent: summary.agent,
      model: summary.model,
      toolSet: summary.toolSet,
      protocol: summary.protocol,
      steps: steps.length,
      toolCalls: steps.reduce((t, s) => t + s.toolCalls.length, 0),
      failedSteps: failed.length,
      firstFailedStep: failed[0] ?? null,
      formatStrikes: steps.filter((s) => s.formatStrike).length,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      totalTokens: totals.totalTokens,
      costUsd: totals.costUsd,
      modelMs: Math.round(steps.reduce((t, s) => t + s.modelMs, 0)),
      toolMs: Math.round(steps.reduce((t, s) => t + s.toolMs, 0)),
      outputBytes: steps.reduce((t, s) => t + s.results.reduce((u, r) => u + r.outputBytes, 0), 0),
      truncatedBytes: steps.reduce((t, s) => t + s.results.reduce((u, r) => u + r.truncatedBytes, 0), 0),
      startedAt: started,
      updatedAt: new Date(),
      ...(status === 'finished'
        ? {
            exitStatus: summary.exitStatus,
            exitStep: summary.exitStep,
            wallMs: Math.round(summary.totals.wallMs),
            summary: summary as unknown as Prisma.InputJsonValue,
            finishedAt: steps.at(-1) ? new Date(steps.at(-1)!.finishedAt) : new Date(),
          }
        : {}),
    },
  });
  // Batches keep each statement well under Postgres's parameter limit and a few MB of payload.
  for (let i = 0; i < steps.length; i += 50) {
    await db.trajectoryStep.createMany({
      data: steps
        .slice(i, i + 50)
        .map((s) => ({ trajectoryId: id, index: s.index, ...stepColumnsForSeed(s), ...encodeStepBody(s) })),
    });
  }
  return id;
}
