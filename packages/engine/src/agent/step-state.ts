import type { TrajectoryStep } from '@gitbench/core';
import type { AgentWireProtocol } from '@gitbench/providers';
import { sandboxExit, type AgentExit } from './agent-exit';
import type { RepoStateReader } from './repo-state-reader';

/** A step as the loop knows it once its calls ran: all but when it finished and the repository's state after it. */
export type StepBody = Omit<TrajectoryStep, 'finishedAt' | 'repo'>;

/** How a step's read and recording ended: the loop's end (a failed read) or what was thrown. Never rejects. */
type Settled = { exit: AgentExit | null } | { thrown: unknown };

/**
 * A step whose calls have run and whose state is being read. Nothing changes the repository in the
 * meantime (every process of the model's is killed after each command), so the read overlaps the next
 * model query; the step is recorded (kept, onStep) as soon as its state is in. The next turn's calls
 * wait for that. `settled` never rejects: a read that no turn waits for (the loop was cancelled while it
 * ran) is never an unhandled rejection.
 */
export interface PendingStep {
  body: StepBody;
  /** Set once the step is in steps: from then on it is counted there. */
  recorded: boolean;
  settled: Promise<Settled>;
}

/** What of the agent loop's state (AgentLoop) the steps' recording uses. */
export interface StepLog {
  steps: TrajectoryStep[];
  /** The last step from its calls' end until the next turn's calls (or the loop's end) have waited for its record. */
  pending: PendingStep | null;
  /** Set once runAgent returned or threw: a read that ends later records nothing. */
  closed: boolean;
  protocol: AgentWireProtocol;
  now: () => number;
  throwIfCancelled: () => void;
  input: { onStep?: (step: TrajectoryStep, protocol: AgentWireProtocol) => void | Promise<void> };
}

/** The steps recorded and the one still waiting for its state, for the limits and the next step's index. */
export function stepsSoFar(loop: StepLog): Pick<TrajectoryStep, 'usage'>[] {
  return loop.pending && !loop.pending.recorded ? [...loop.steps, loop.pending.body] : loop.steps;
}

/** Starts reading the repository after a step; the loop goes on to its next model query meanwhile. */
export function readStateAfter(loop: StepLog, body: StepBody, reader: RepoStateReader) {
  const protocol = loop.protocol;
  const pending: PendingStep = { body, recorded: false, settled: Promise.resolve({ exit: null }) };
  pending.settled = reader
    .read()
    .then(
      (repo) => recordRead(loop, pending, protocol, { repo }),
      (error: unknown) => recordRead(loop, pending, protocol, { error }),
    )
    .then(
      (exit): Settled => ({ exit }),
      (thrown: unknown): Settled => ({ thrown }),
    );
  loop.pending = pending;
}

/** Records the step with its state; a failed read records it without one and returns how the loop ends. */
async function recordRead(
  loop: StepLog,
  pending: PendingStep,
  protocol: AgentWireProtocol,
  read: { repo: TrajectoryStep['repo'] } | { error: unknown },
): Promise<AgentExit | null> {
  const at = loop.now();
  if (loop.closed) return null;
  if ('error' in read) loop.throwIfCancelled();
  pending.recorded = true;
  await recordStep(loop, completeStep(pending.body, at, 'repo' in read ? read.repo : null), protocol);
  if (!('error' in read)) return null;
  const message = (read.error as Error)?.message ?? String(read.error);
  return sandboxExit(`the repository could not be read after the step: ${message}`, read.error);
}

/**
 * Waits until the step being read, if any, is recorded. Returns how the loop ends when the read failed
 * (the step is recorded without a state); throws what its recording threw (a cancellation, onStep's).
 */
export async function settlePendingStep(loop: StepLog): Promise<AgentExit | null> {
  const pending = loop.pending;
  if (!pending) return null;
  const settled = await pending.settled;
  loop.pending = null;
  if ('thrown' in settled) throw settled.thrown;
  return settled.exit;
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
