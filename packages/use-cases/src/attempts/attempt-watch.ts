import type { HeartbeatVerdict } from '@gitbench/db';
import type { AttemptDeadline } from './attempt-deadline';

export interface AttemptWatchOptions {
  deadline: AttemptDeadline;
  /** Renews the claim and says who owns the attempt now. */
  heartbeat: () => Promise<HeartbeatVerdict>;
  heartbeatMs: number;
  /** Called once when the attempt is asked to stop (its sandboxes are removed then, not when commands end). */
  onStop: () => void;
  onHeartbeatError: (err: Error) => void;
  /** How long an executor that does not stop when asked is waited for after the deadline. */
  graceMs?: number;
}

/**
 * Watches one running attempt: its wall-clock deadline, its heartbeat and its claim. Whatever asks it
 * to stop (the deadline, a cancelled campaign, a lost claim, the worker shutting down) aborts one
 * signal; the watch remembers why, for decideSettlement to read once the run is over.
 */
export class AttemptWatch {
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private deadlineTimer: NodeJS.Timeout | undefined;
  private hardStopTimer: NodeJS.Timeout | undefined;
  private readonly beat: NodeJS.Timeout;
  private resolveStopped: (v: 'stopped') => void = () => undefined;
  private current: AttemptDeadline;
  private fired = false;
  private lastVerdict: HeartbeatVerdict = 'owned';
  /**
   * Resolves a grace period after the deadline: an executor that does not stop when asked still lets the attempt end.
   */
  readonly stopped = new Promise<'stopped'>((resolve) => {
    this.resolveStopped = resolve;
  });

  constructor(private readonly options: AttemptWatchOptions) {
    this.controller.signal.addEventListener('abort', options.onStop);
    this.current = options.deadline;
    this.arm(options.deadline);
    this.beat = setInterval(() => {
      options.heartbeat().then((v) => this.note(v), options.onHeartbeatError);
    }, options.heartbeatMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }
  get timedOut(): boolean {
    return this.fired;
  }
  get verdict(): HeartbeatVerdict {
    return this.lastVerdict;
  }
  get deadline(): AttemptDeadline {
    return this.current;
  }
  get elapsedMs(): number {
    return Date.now() - this.started;
  }

  /** Sets the deadline, counted from when the watch began (an agent attempt's is known once its campaign is read). */
  arm(deadline: AttemptDeadline): void {
    this.current = deadline;
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.hardStopTimer);
    const left = Math.max(0, this.started + deadline.ms - Date.now());
    this.deadlineTimer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error(deadline.message));
    }, left);
    this.hardStopTimer = setTimeout(() => this.resolveStopped('stopped'), left + (this.options.graceMs ?? 15_000));
  }

  /** Records who owns the attempt; anything but this worker stops it. */
  note(verdict: HeartbeatVerdict): void {
    this.lastVerdict = verdict;
    if (verdict !== 'owned') this.controller.abort(new Error(`attempt ${verdict}`));
  }

  stop(reason: Error): void {
    this.controller.abort(reason);
  }

  dispose(): void {
    clearInterval(this.beat);
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.hardStopTimer);
  }
}
