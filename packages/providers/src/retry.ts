import { ModelCallError, RetriesExhaustedError, TransientError, type RetryRecord } from '@gitbench/core';
import type { BudgetSlot, RequestBudget } from './budget';

export interface RetryPolicy {
  /** Total tries, first included (upstream's `retry_count` has the same meaning). */
  maxAttempts: number;
  /** Per-try limit; the HTTP request is aborted when it passes. */
  timeoutMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A Retry-After longer than this is not waited out: the call fails as transient. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  timeoutMs: 60_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** Exponential backoff with "equal jitter": half fixed, half random, so retries of a burst spread out. */
export function backoffDelay(policy: RetryPolicy, failedAttempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (failedAttempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export interface CallContext {
  budget: RequestBudget;
  slot: BudgetSlot;
  policy: RetryPolicy;
  signal?: AbortSignal;
  random?: () => number;
}

export interface CallOutcome<T> {
  value: T;
  retries: RetryRecord[];
  durationMs: number;
}

/**
 * Runs one model call under the request budget with per-try timeout and bounded retries. `attempt`
 * gets a signal that aborts on timeout or on the caller's abort; it throws ModelCallErrors. Only
 * transient errors are retried; quality and configuration errors surface at once.
 */
export async function callWithRetries<T>(
  ctx: CallContext,
  attempt: (signal: AbortSignal) => Promise<T>,
): Promise<CallOutcome<T>> {
  const retries: RetryRecord[] = [];
  for (let n = 1; ; n++) {
    const permit = await ctx.budget.acquire(ctx.slot, ctx.signal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${ctx.policy.timeoutMs} ms`));
    }, ctx.policy.timeoutMs);
    const onCallerAbort = () => controller.abort(ctx.signal?.reason);
    ctx.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const started = performance.now();
    let failure: TransientError;
    try {
      const value = await attempt(controller.signal);
      ctx.budget.reportSuccess(ctx.slot.group);
      return { value, retries, durationMs: performance.now() - started };
    } catch (error) {
      // The caller's own abort is a cancellation, not a failure of the model or the service.
      if (ctx.signal?.aborted) throw ctx.signal.reason ?? error;
      if (timedOut) {
        failure = new TransientError('timeout', `No answer within ${ctx.policy.timeoutMs} ms (request aborted)`, {
          cause: error,
        });
      } else if (error instanceof TransientError) {
        failure = error;
      } else if (error instanceof ModelCallError) {
        throw error;
      } else {
        failure = new TransientError('unexpected_error', error instanceof Error ? error.message : String(error), {
          cause: error,
        });
      }
      if (failure.code === 'rate_limited') ctx.budget.reportRateLimited(ctx.slot.group, failure.retryAfterMs);
    } finally {
      clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', onCallerAbort);
      permit.release();
    }

    const durationMs = performance.now() - started;
    const record = (waitMs: number, waitSource: RetryRecord['waitSource']) =>
      retries.push({
        attempt: n,
        reason: failure.code,
        status: failure.status ?? null,
        message: failure.message,
        waitMs,
        waitSource,
        durationMs,
      });
    if (n >= ctx.policy.maxAttempts) {
      record(0, 'none');
      throw new RetriesExhaustedError(n, failure, retries);
    }
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > ctx.policy.maxRetryAfterMs) {
      record(0, 'none');
      const tooLong = new TransientError(
        failure.code,
        `${failure.message}; the server asked to wait ${Math.round(failure.retryAfterMs)} ` +
          `ms, more than the ${ctx.policy.maxRetryAfterMs} ms allowed`,
        { cause: failure, status: failure.status },
      );
      throw new RetriesExhaustedError(n, tooLong, retries);
    }
    if (failure.retryAfterMs !== undefined) {
      // The wait itself happens in the budget: the group's cooldown holds every request of the group.
      record(failure.retryAfterMs, 'retry_after');
      if (failure.code !== 'rate_limited') await sleep(failure.retryAfterMs, ctx.signal);
    } else {
      const wait = backoffDelay(ctx.policy, n, ctx.random);
      record(wait, 'backoff');
      await sleep(wait, ctx.signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
