import type { TrajectoryStep } from '@gitbench/core';
import type { AgentWireProtocol } from '@gitbench/providers';
import { sandboxExit, type AgentExit } from './agent-exit';
import type { RepoStateReader } from './repo-state-reader';

/** A step as the loop knows it once its calls ran: all but when it finished and the repository's state after it. */
export type StepBody = Omit<TrajectoryStep, 'finishedAt' | 'repo'>;

/**
 * What one read of the repository came to, and when. It never rejects: a read that no turn waits for
 * (the loop ended, or was cancelled, while it ran) is never an unhandled rejection.
 */
type StateRead = { at: number } & ({ repo: TrajectoryStep['repo'] } | { error: unknown });

/**
 * A step whose calls have run and whose state is being read. Nothing changes the repository in the
 * meantime (every process of the model's is killed after each command), so the read can overlap the
 * next model query: the step is recorded once its state is in, before the next turn's calls run.
 */
export interface PendingStep {
  body: StepBody;
  protocol: AgentWireProtocol;
  state: Promise<StateRead>;
}

/** What of the agent loop's state (AgentLoop) the steps' recording uses. */
export interface StepLog {
  steps: TrajectoryStep[];
  /** The last step while the repository's state after it is read; not yet in steps. */
  pending: PendingStep | null;
  protocol: AgentWireProtocol;
  now: () => number;
  throwIfCancelled: () => void;
  input: { onStep?: (step: TrajectoryStep, protocol: AgentWireProtocol) => void | Promise<void> };
}

/** The steps recorded and the one still waiting for its state, for the limits and the next step's index. */
export function stepsSoFar(loop: StepLog): Pick<TrajectoryStep, 'usage'>[] {
  return loop.pending ? [...loop.steps, loop.pending.body] : loop.steps;
}

/** Starts reading the repository after a step; the loop goes on to its next model query meanwhile. */
export function readStateAfter(loop: StepLog, body: StepBody, reader: RepoStateReader) {
  const { now } = loop;
  const state = reader.read().then(
    (repo): StateRead => ({ at: now(), repo }),
    (error: unknown): StateRead => ({ at: now(), error }),
  );
  loop.pending = { body, protocol: loop.protocol, state };
}

/**
 * Waits for the state of the step being read, if any, and records the step (in order, onStep). Returns
 * how the loop ends when the read failed: the step is still recorded, without a state.
 */
export async function settlePendingStep(loop: StepLog): Promise<AgentExit | null> {
  const pending = loop.pending;
  if (!pending) return null;
  const read = await pending.state;
  loop.pending = null;
  if ('repo' in read) {
    await recordStep(loop, completeStep(pending.body, read.at, read.repo), pending.protocol);
    return null;
  }
  loop.throwIfCancelled();
  await recordStep(loop, completeStep(pending.body, read.at, null), pending.protocol);
  const message = (read.error as Error)?.message ?? String(read.error);
  return sandboxExit(`the repository could not be read after the step: ${message}`, read.error);
}

/** A step's record is final: kept, and handed to onStep (the worker stores it). */
export async function recordStep(loop: StepLog, step: TrajectoryStep, protocol: AgentWireProtocol = loop.protocol) {
  loop.steps.push(step);
  await loop.input.onStep?.(step, protocol);
}

/** The step's record, finished at `at` (epoch ms) with that state; its keys in the order a trajectory keeps. */
export function completeStep(body: StepBody, at: number, repo: TrajectoryStep['repo']): TrajectoryStep {
  const { index, startedAt, ...rest } = body;
  return { index, startedAt, finishedAt: new Date(Math.max(at, Date.parse(startedAt))).toISOString(), ...rest, repo };
}
