import { ConfigurationError } from '@gitbench/core';

export interface ScopeLimit {
  maxConcurrent?: number;
  /** Minimum time between the starts of two requests in this scope. */
  minIntervalMs?: number;
}

export interface BudgetLimits {
  global?: ScopeLimit;
  profiles?: Record<string, ScopeLimit>;
  groups?: Record<string, ScopeLimit>;
  /** Successful requests needed to give back one concurrency slot taken away after a 429. */
  recoverAfterSuccesses?: number;
}

/** Who is asking: the profile and the capacity group (shared upstream quota) of the target model. */
export interface BudgetSlot {
  profile: string;
  group: string;
}

export interface Permit {
  release(): void;
  /** How long acquiring this permit waited (concurrency, interval, cooldown). */
  readonly waitedMs: number;
}

interface ScopeState {
  inFlight: number;
  lastStart: number;
}

interface GroupState extends ScopeState {
  cooldownUntil: number;
  /** Limit imposed after 429s; undefined while the group runs at its configured limit. */
  adaptiveLimit?: number;
  successesSinceReduction: number;
}

interface Waiter {
  slot: BudgetSlot;
  enqueuedAt: number;
  resolve: (permit: Permit) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * Request budgets shared by every call in a process: a global limit, one per profile, and one per
 * capacity group, each with an optional minimum interval between request starts. A 429 puts the group
 * in a cooldown for its Retry-After (every request of the group waits, not only the one that got it)
 * and halves the group's concurrency; successes give the slots back one at a time.
 */
export class RequestBudget {
  private readonly global: ScopeState = { inFlight: 0, lastStart: -Infinity };
  private readonly profiles = new Map<string, ScopeState>();
  private readonly groups = new Map<string, GroupState>();
  private readonly waiters: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  constructor(private readonly limits: BudgetLimits = {}) {
    for (const [scope, limit] of [
      ['global', limits.global] as const,
      ...Object.entries(limits.profiles ?? {}).map(([k, v]) => [`profile ${k}`, v] as const),
      ...Object.entries(limits.groups ?? {}).map(([k, v]) => [`group ${k}`, v] as const),
    ]) {
      if (limit?.maxConcurrent !== undefined && !(Number.isInteger(limit.maxConcurrent) && limit.maxConcurrent >= 1)) {
        throw new ConfigurationError('bad_concurrency', `Concurrency limit of ${scope} must be a whole number >= 1.`);
      }
    }
  }

  acquire(slot: BudgetSlot, signal?: AbortSignal): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = { slot, enqueuedAt: Date.now(), resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
      this.pump();
    });
  }

  /** A 429 from the group: shared cooldown for Retry-After, and fewer concurrent requests from now on. */
  reportRateLimited(group: string, retryAfterMs?: number): void {
    const state = this.group(group);
    if (retryAfterMs !== undefined) state.cooldownUntil = Math.max(state.cooldownUntil, Date.now() + retryAfterMs);
    const current = state.adaptiveLimit ?? this.limits.groups?.[group]?.maxConcurrent ?? Math.max(1, state.inFlight);
    state.adaptiveLimit = Math.max(1, Math.floor(current / 2));
    state.successesSinceReduction = 0;
  }

  reportSuccess(group: string): void {
    const state = this.group(group);
    if (state.adaptiveLimit === undefined) return;
    state.successesSinceReduction += 1;
    if (state.successesSinceReduction < (this.limits.recoverAfterSuccesses ?? 5)) return;
    state.successesSinceReduction = 0;
    const configured = this.limits.groups?.[group]?.maxConcurrent;
    const next = state.adaptiveLimit + 1;
    state.adaptiveLimit = configured !== undefined && next >= configured ? undefined : next;
  }

  /** Current state of a group, for logs and tests. */
  inspect(group: string): { inFlight: number; limit: number | null; cooldownRemainingMs: number } {
    const state = this.group(group);
    return {
      inFlight: state.inFlight,
      limit: this.groupLimit(group, state) ?? null,
      cooldownRemainingMs: Math.max(0, state.cooldownUntil - Date.now()),
    };
  }

  private profile(name: string): ScopeState {
    let state = this.profiles.get(name);
    if (!state) this.profiles.set(name, (state = { inFlight: 0, lastStart: -Infinity }));
    return state;
  }

  private group(name: string): GroupState {
    let state = this.groups.get(name);
    if (!state) {
      state = { inFlight: 0, lastStart: -Infinity, cooldownUntil: 0, successesSinceReduction: 0 };
      this.groups.set(name, state);
    }
    return state;
  }

  private groupLimit(name: string, state: GroupState): number | undefined {
    const configured = this.limits.groups?.[name]?.maxConcurrent;
    if (state.adaptiveLimit === undefined) return configured;
    return configured === undefined ? state.adaptiveLimit : Math.min(configured, state.adaptiveLimit);
  }

  /** 0 when the slot may start now; ms to wait when only time blocks it; Infinity when a limit does. */
  private delayFor(slot: BudgetSlot, now: number): number {
    const profile = this.profile(slot.profile);
    const group = this.group(slot.group);
    const scopes: Array<[ScopeState, ScopeLimit | undefined, number | undefined]> = [
      [this.global, this.limits.global, this.limits.global?.maxConcurrent],
      [profile, this.limits.profiles?.[slot.profile], this.limits.profiles?.[slot.profile]?.maxConcurrent],
      [group, this.limits.groups?.[slot.group], this.groupLimit(slot.group, group)],
    ];
    let wait = Math.max(0, group.cooldownUntil - now);
    for (const [state, limit, max] of scopes) {
      if (max !== undefined && state.inFlight >= max) return Infinity;
      if (limit?.minIntervalMs) wait = Math.max(wait, state.lastStart + limit.minIntervalMs - now);
    }
    return wait;
  }

  private pump(): void {
    const now = Date.now();
    let nextWake = Infinity;
    for (let i = 0; i < this.waiters.length;) {
      const waiter = this.waiters[i] as Waiter;
      const delay = this.delayFor(waiter.slot, now);
      if (delay > 0) {
        nextWake = Math.min(nextWake, delay);
        i++;
        continue;
      }
      this.waiters.splice(i, 1);
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.start(waiter.slot, now - waiter.enqueuedAt));
    }
    this.schedule(nextWake);
  }

  private start(slot: BudgetSlot, waitedMs: number): Permit {
    const now = Date.now();
    const scopes = [this.global, this.profile(slot.profile), this.group(slot.group)];
    for (const scope of scopes) {
      scope.inFlight += 1;
      scope.lastStart = now;
    }
    let released = false;
    return {
      waitedMs,
      release: () => {
        if (released) return;
        released = true;
        for (const scope of scopes) scope.inFlight -= 1;
        this.pump();
      },
    };
  }

  private schedule(delay: number): void {
    if (!Number.isFinite(delay)) return;
    const at = Date.now() + delay;
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.max(1, Math.ceil(delay)),
    );
  }
}
