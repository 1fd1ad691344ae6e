import type { AttemptWrite, HeartbeatVerdict, ReleaseReason } from '@gitbench/db';

/** The GitBench version stamped on everything a worker writes about an attempt. */
export interface ProductStamp {
  productVersion: string | null;
  productDirty: boolean | null;
}

/** What running one claimed attempt came to, gathered before anything is written. */
export interface AttemptRunFacts {
  /** The executor's outcome, or 'stopped' when it did not stop within its grace after the deadline. */
  result: AttemptWrite | 'stopped';
  /** The worker's wall-clock deadline fired. */
  timedOut: boolean;
  /** The run was asked to stop: deadline, shutdown, a cancelled campaign or a lost claim. */
  aborted: boolean;
  /** The last word of the attempt's heartbeat on who owns it. */
  verdict: HeartbeatVerdict;
  /** The deadline that applied, said as the attempt's error when it fires. */
  deadlineMessage: string;
  wallDurationMs: number;
  product: ProductStamp;
}

/**
 * How one claimed attempt ends: every kind is exactly one write (or none), made by settleAttempt.
 *  - finish: the outcome is written; the campaign may be complete with it.
 *  - cancelled: the campaign was cancelled while it ran; written as CANCELLED, the campaign is already over.
 *  - give-back: the attempt goes back to the queue without an outcome and is sent again at once, ahead
 *    of the waiting ones: after a shutdown uncounted, after an error in the worker counted against the
 *    dispatch cap (the error is kept for when even the give-back fails).
 *  - lost: another worker owns it now; nothing is written.
 */
export type Settlement =
  | { kind: 'finish'; outcome: AttemptWrite; timedOut: boolean }
  | { kind: 'cancelled'; outcome: AttemptWrite }
  | { kind: 'give-back'; next: 'send-now'; reason: ReleaseReason }
  | { kind: 'give-back'; next: 'retry-now'; reason: ReleaseReason; error: unknown }
  | { kind: 'lost' };

/**
 * What a try had already cost when it was given back: its model call's evidence, if there was one, and
 * a third-party agent's calls through the gateway.
 */
function spentOf(
  record: Partial<AttemptWrite['record']> | undefined,
): Pick<ReleaseReason, 'evidence' | 'gatewayCalls'> {
  return {
    ...(record?.evidence === undefined ? {} : { evidence: record.evidence }),
    ...(record?.gatewayCalls?.length ? { gatewayCalls: record.gatewayCalls } : {}),
  };
}

function stamped(outcome: AttemptWrite, product: ProductStamp): AttemptWrite {
  return { ...outcome, summary: { ...outcome.summary, ...product }, record: { ...outcome.record, ...product } };
}

/**
 * Decides how a claimed attempt ends, from what its run came to. Pure: the caller makes the one write
 * the value names. The order matters: a deadline hit while this worker still owns the attempt is an
 * attempt_timeout whatever the executor returned (its outcome is of a run cut short); a cancel or a
 * lost claim outranks the executor's outcome, which is of a sandbox removed under it.
 */
export function decideSettlement(facts: AttemptRunFacts): Settlement {
  const outcome: AttemptWrite = facts.result === 'stopped' ? { status: 'INFRA_FAILURE', record: {} } : facts.result;
  if (facts.timedOut && facts.verdict === 'owned') {
    const error = { errorClass: 'attempt_timeout', errorMessage: facts.deadlineMessage };
    const timedOut: AttemptWrite = {
      status: 'INFRA_FAILURE',
      summary: { ...error, wallDurationMs: facts.wallDurationMs },
      record: { ...error, ...spentOf(outcome.record) },
    };
    return { kind: 'finish', outcome: stamped(timedOut, facts.product), timedOut: true };
  }
  if (!facts.aborted) return { kind: 'finish', outcome: stamped(outcome, facts.product), timedOut: false };
  switch (facts.verdict) {
    case 'cancelled': {
      const record = {
        errorClass: 'cancelled',
        errorMessage: 'campaign cancelled while running',
        ...spentOf(outcome.record),
      };
      return { kind: 'cancelled', outcome: stamped({ status: 'CANCELLED', record }, facts.product) };
    }
    case 'owned': {
      // Shutdown: give the attempt back and send it again now, ahead of the backlog, so that another
      // worker (or this one restarted) runs it next instead of after a reaper's delay.
      const errorMessage = 'the worker shut down while running it; sent again at once';
      return {
        kind: 'give-back',
        next: 'send-now',
        reason: { errorClass: 'given_back', errorMessage, ...spentOf(outcome.record), ...facts.product },
      };
    }
    case 'lost':
      return { kind: 'lost' };
  }
}

/**
 * A bug, the worker's storage or a lost database connection, not a model outcome: the attempt is given
 * back, keeping what its model call cost, and sent again at once. An attempt that fails like this every
 * time is stopped by the dispatch cap.
 */
export function settlementOfError(
  error: unknown,
  product: ProductStamp,
  spent?: Partial<AttemptWrite['record']>,
  errorClass = 'worker_error',
): Settlement {
  const errorMessage = String((error as Error)?.message ?? error).slice(0, 4000);
  return {
    kind: 'give-back',
    next: 'retry-now',
    error,
    reason: { errorClass, errorMessage, ...spentOf(spent), ...product },
  };
}
