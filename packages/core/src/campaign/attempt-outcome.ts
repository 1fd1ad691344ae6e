import { ModelCallError, type ErrorKind } from '../models/errors';
import type { CallUsage } from '../models/usage';
import type { AttemptStatus } from './attempt-status';

/**
 * How an Attempt ended, and the one table that turns every ending into the status stored for it.
 * The engine concludes an outcome when scoring ran; a failure when something was thrown before an
 * outcome existed; and a judged fixture may stay unjudged. No other module lists these endings or
 * matches error names: callers ask `classifyEnding` (a `switch` the compiler checks for exhaustiveness).
 */

/**
 * What scoring concluded. PASS and FAIL are quality outcomes. NEEDS_JUDGE waits for a judge.
 * HASH_MISMATCH (the restored repository is not the fixture's) and SANDBOX_ERROR are infrastructure.
 * CONFIG_ERROR (unknown scoring type, a scorer that cannot plan) is a broken fixture.
 * TAMPERING: once the model's commands ran, the channel between the sandbox's runner and the host
 * broke its protocol (forged or duplicate records, bytes after the end, a flood, unreadable bytes).
 * Only the model's processes can cause that, so it is the model's failure: scored, counted, never
 * excluded or retried, which would let a model about to fail erase its failure.
 */
export const ATTEMPT_OUTCOMES = [
  'PASS',
  'FAIL',
  'NEEDS_JUDGE',
  'HASH_MISMATCH',
  'SANDBOX_ERROR',
  'CONFIG_ERROR',
  'TAMPERING',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/**
 * What was thrown before an outcome existed: a model call's class (see models/errors), the sandbox,
 * or the attempt's own cancellation.
 */
export const ATTEMPT_FAILURES = ['transient', 'quality', 'configuration', 'sandbox', 'cancelled'] as const;
export type AttemptFailure = (typeof ATTEMPT_FAILURES)[number];

/** Why an llm_judge attempt has no verdict. */
export const UNJUDGED_REASONS = ['no_judge_profile', 'judge_exhausted', 'judge_configuration'] as const;
export type UnjudgedReason = (typeof UNJUDGED_REASONS)[number];

export type AttemptEnding = { outcome: AttemptOutcome } | { failure: AttemptFailure } | { unjudged: UnjudgedReason };

export type FinalAttemptStatus = Exclude<AttemptStatus, 'QUEUED' | 'RUNNING'>;

export interface EndingClass {
  status: FinalAttemptStatus;
  /** Stored as the attempt's errorClass; null for quality outcomes. */
  errorClass: string | null;
  /** The model's answer was scored: the ending counts in quality denominators. */
  quality: boolean;
  /** Says nothing about the model: the machinery failed (retryable as a new try). */
  infrastructure: boolean;
}

const quality = (status: 'VALID_PASS' | 'VALID_FAIL', errorClass: string | null = null): EndingClass => ({
  status,
  errorClass,
  quality: true,
  infrastructure: false,
});
const excluded = (status: FinalAttemptStatus, errorClass: string, infrastructure: boolean): EndingClass => ({
  status,
  errorClass,
  quality: false,
  infrastructure,
});

const SANDBOX_ERROR_CLASS = excluded('INFRA_FAILURE', 'sandbox_error', true);

function assertNever(value: never): never {
  throw new Error(`unhandled attempt ending ${JSON.stringify(value)}`);
}

function classifyOutcome(outcome: AttemptOutcome): EndingClass {
  switch (outcome) {
    case 'PASS':
      return quality('VALID_PASS');
    case 'FAIL':
      return quality('VALID_FAIL');
    case 'NEEDS_JUDGE':
      // Only while no judge has spoken; a judged attempt ends PASS or FAIL, or unjudged with its reason.
      return excluded('UNSCORED', 'needs_judge', false);
    case 'HASH_MISMATCH':
      return excluded('HASH_MISMATCH', 'hash_mismatch', true);
    case 'SANDBOX_ERROR':
      return SANDBOX_ERROR_CLASS;
    case 'CONFIG_ERROR':
      return excluded('INVALID_INPUT', 'config_error', false);
    case 'TAMPERING':
      return quality('VALID_FAIL', TAMPERING_ERROR_CLASS);
    default:
      return assertNever(outcome);
  }
}

function classifyFailure(failure: AttemptFailure): EndingClass {
  switch (failure) {
    // Transport failures, exhausted retries, bad configuration and sandbox trouble say nothing about
    // the model: excluded from quality denominators, retryable as new tries.
    case 'transient':
    case 'quality':
    case 'configuration':
      return excluded('INFRA_FAILURE', failure, true);
    // The sandbox failed, whether that was thrown (a container that would not start, an agent's session
    // that ended under it) or concluded from a batch that ended unfinished (SANDBOX_ERROR): one error
    // class, so a runner killed from outside reads the same for single answers and agents. Rows stored
    // as 'sandbox' before were renamed by the migration sandbox_error_class.
    case 'sandbox':
      return SANDBOX_ERROR_CLASS;
    case 'cancelled':
      return excluded('CANCELLED', 'cancelled', false);
    default:
      return assertNever(failure);
  }
}

function classifyUnjudged(reason: UnjudgedReason): EndingClass {
  switch (reason) {
    case 'no_judge_profile':
    case 'judge_exhausted':
    case 'judge_configuration':
      return excluded('UNSCORED', reason, false);
    default:
      return assertNever(reason);
  }
}

export function classifyEnding(ending: AttemptEnding): EndingClass {
  if ('outcome' in ending) return classifyOutcome(ending.outcome);
  if ('failure' in ending) return classifyFailure(ending.failure);
  return classifyUnjudged(ending.unjudged);
}

/** The error class of a TAMPERING attempt, stored on its row and shown on its page. */
export const TAMPERING_ERROR_CLASS = 'tampering';

/** PASS, FAIL or TAMPERING: the outcomes that enter quality figures. */
export function isQualityOutcome(outcome: AttemptOutcome): outcome is 'PASS' | 'FAIL' | 'TAMPERING' {
  return classifyOutcome(outcome).quality;
}

/** The machinery failed (sandbox, restored repository): nothing about the model was learnt. */
export function isInfrastructureOutcome(outcome: AttemptOutcome): boolean {
  return classifyOutcome(outcome).infrastructure;
}

/** The scorer asked for a judge: the attempt has a verdict only once a judge panel gives one. */
export function awaitsJudge(outcome: AttemptOutcome): boolean {
  return classifyOutcome(outcome).errorClass === 'needs_judge';
}

/** Scoring could not reach a verdict for a reason other than a missing judge (infrastructure or a broken fixture). */
export function isBrokenOutcome(outcome: AttemptOutcome): boolean {
  return !isQualityOutcome(outcome) && !awaitsJudge(outcome);
}

/**
 * Something the sandbox or its driver failed at (the engine down, a container that could not start,
 * a fixture repository that could not be built): never the model's doing. Adapters throw subclasses.
 */
export class SandboxFailure extends Error {
  override name = 'SandboxFailure';
}

/**
 * The sandbox's channel to the host broke its protocol after the model's commands could run: see
 * TAMPERING. Deliberately not a SandboxFailure, which would exclude the attempt and retry it.
 */
export class TamperingError extends Error {
  override name = 'TamperingError';
}

/** The TamperingError behind an error, following its causes (a tool call's failure wraps it). */
export function tamperingIn(error: unknown): TamperingError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof TamperingError) return e;
  }
  return undefined;
}

/**
 * The class of anything thrown while an attempt ran. A model call's own class is kept (see
 * models/errors); anything unknown is transient, so it lands among infrastructure failures (excluded,
 * visible) instead of being counted against the model.
 */
export function failureOf(error: unknown, aborted = false): AttemptFailure {
  if (aborted) return 'cancelled';
  if (error instanceof SandboxFailure) return 'sandbox';
  if (error instanceof ModelCallError) return error.kind satisfies ErrorKind;
  return 'transient';
}

/**
 * The caller's own storage failed while an attempt ran (its archive could not be read): not the
 * attempt's ending at all. It passes through the engine untouched; the caller gives the attempt back.
 */
export class StorageFailure extends Error {
  override name = 'StorageFailure';
  /**
   * The model calls the attempt had already made, and paid for, when its storage failed (the engine
   * fills them in), so the caller can keep their usage on the try it gives back.
   */
  calls: readonly CallUsage[] = [];
}
