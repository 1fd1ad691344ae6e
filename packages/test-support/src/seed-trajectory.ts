import type { TrajectoryStep, TrajectorySummary } from '@gitbench/core';
import { storeTrajectory, type Db } from '@gitbench/db';
import { randomTrajectory } from './random-trajectory';

export interface SeedTrajectoryOptions {
  attemptId: string;
  tryNumber?: number;
  /** Steps of the trajectory. */
  steps: number;
  /** Bytes of tool output stored per step (every step carries one big output when set). */
  outputBytesPerStep?: number;
  seed?: number;
  /** `running` leaves the trajectory open, as a live attempt's is. */
  status?: 'running' | 'finished';
}

/**
 * A stored trajectory of N steps with M bytes of tool output each, for tests and benchmarks: steps
 * from the seeded factory (randomTrajectory), written in batches the way the store writes one step.
 */
export async function seedTrajectory(
  db: Db,
  opts: SeedTrajectoryOptions,
): Promise<{ trajectoryId: string; summary: TrajectorySummary; steps: TrajectoryStep[] }> {
  const { summary, steps } = randomTrajectory({
    seed: opts.seed ?? 1,
    steps: opts.steps,
    ...(opts.outputBytesPerStep
      ? {
          bigOutputBytes: opts.outputBytesPerStep,
          bigOutputEveryStep: true,
          maxToolOutputBytes: opts.outputBytesPerStep,
        }
      : {}),
  });
  return {
    trajectoryId: await storeTrajectory(
      db,
      opts.attemptId,
      opts.tryNumber ?? 1,
      summary,
      steps,
      opts.status ?? 'finished',
    ),
    summary,
    steps,
  };
}
