import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget, type Permit } from '../src/budget';
import { backoffDelay, DEFAULT_RETRY_POLICY } from '../src/retry';

const slot = (group = 'g', profile = 'p') => ({ profile, group });

/** Acquires in the background and reports which permits have been granted so far. */
function track(promise: Promise<Permit>) {
  const state: { permit?: Permit } = {};
  void promise.then((p) => (state.permit = p));
  return state;
}

describe('RequestBudget', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('enforces global, per-profile and per-group limits independently', async () => {
    const budget = new RequestBudget({
      global: { maxConcurrent: 3 },
      profiles: { p: { maxConcurrent: 2 } },
      groups: { g: { maxConcurrent: 1 } },
    });
    const a = track(budget.acquire(slot('g', 'p')));
    const b = track(budget.acquire(slot('g', 'p'))); // blocked by group g
    const c = track(budget.acquire(slot('h', 'p')));
    const d = track(budget.acquire(slot('h', 'p'))); // blocked by profile p
    const e = track(budget.acquire(slot('h', 'q')));
    const f = track(budget.acquire(slot('i', 'q'))); // blocked by the global limit
    await vi.advanceTimersByTimeAsync(0);
    expect([a, b, c, d, e, f].map((s) => Boolean(s.permit))).toEqual([true, false, true, false, true, false]);

    a.permit?.release();
    await vi.advanceTimersByTimeAsync(0);
    expect([b, d, f].map((s) => Boolean(s.permit))).toEqual([true, false, false]);
    c.permit?.release();
    e.permit?.release();
    await vi.advanceTimersByTimeAsync(0);
    expect([d, f].map((s) => Boolean(s.permit))).toEqual([true, true]);
  });

  it('keeps a minimum interval between request starts', async () => {
    const budget = new RequestBudget({ groups: { g: { minIntervalMs: 100 } } });
    const first = track(budget.acquire(slot()));
    const second = track(budget.acquire(slot()));
    await vi.advanceTimersByTimeAsync(0);
    expect(Boolean(first.permit)).toBe(true);
    expect(Boolean(second.permit)).toBe(false);
    await vi.advanceTimersByTimeAsync(99);
    expect(Boolean(second.permit)).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(second.permit?.waitedMs).toBeGreaterThanOrEqual(100);
  });

  it('holds the whole group during a Retry-After cooldown, but not other groups', async () => {
    const budget = new RequestBudget();
    budget.reportRateLimited('g', 1_000);
    const same = track(budget.acquire(slot('g')));
    const other = track(budget.acquire(slot('h')));
    await vi.advanceTimersByTimeAsync(0);
    expect([Boolean(same.permit), Boolean(other.permit)]).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(Boolean(same.permit)).toBe(true);
  });

  it('halves a group after a 429 and gives slots back after successes', async () => {
    const budget = new RequestBudget({ groups: { g: { maxConcurrent: 4 } }, recoverAfterSuccesses: 2 });
    budget.reportRateLimited('g');
    expect(budget.inspect('g').limit).toBe(2);
    budget.reportRateLimited('g');
    expect(budget.inspect('g').limit).toBe(1);
    budget.reportRateLimited('g');
    expect(budget.inspect('g').limit).toBe(1);
    for (let i = 0; i < 6; i++) budget.reportSuccess('g');
    expect(budget.inspect('g').limit).toBe(4);
  });

  it('limits an unlimited group to half of what was in flight when it was rate limited', async () => {
    const budget = new RequestBudget();
    const permits = await Promise.all([0, 1, 2, 3].map(() => budget.acquire(slot())));
    budget.reportRateLimited('g');
    expect(budget.inspect('g')).toMatchObject({ inFlight: 4, limit: 2 });
    permits.forEach((p) => p.release());
  });

  it('drops a waiter whose caller aborts', async () => {
    const budget = new RequestBudget({ groups: { g: { maxConcurrent: 1 } } });
    const held = await budget.acquire(slot());
    const controller = new AbortController();
    const waiting = budget.acquire(slot(), controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    held.release();
    expect(budget.inspect('g').inFlight).toBe(0);
  });

  it('rejects a limit below one', () => {
    expect(() => new RequestBudget({ groups: { g: { maxConcurrent: 0 } } })).toThrow(/group g/);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially with jitter and stays bounded', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, backoffBaseMs: 100, backoffMaxMs: 1_000 };
    expect([1, 2, 3].map((n) => backoffDelay(policy, n, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((n) => backoffDelay(policy, n, () => 1))).toEqual([100, 200, 400]);
    expect(backoffDelay(policy, 20, () => 1)).toBe(1_000);
  });
});
