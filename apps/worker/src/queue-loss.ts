import type { QueueClient } from '@gitbench/queue';

export interface QueueLossDeps {
  queue: Pick<QueueClient, 'queuePresent' | 'markQueuePresent'>;
  /** Sends again what Redis lost (attempts still QUEUED whose jobs are gone), those sent since `since` aside. */
  resend: (since: Date) => Promise<{ sent: number; capped: number }>;
  log: (line: string) => void;
  now?: () => number;
}

/** How long after a loss a job missing from Redis is taken as one of those it lost. */
const EXPLAINS_FOR_MS = 60_000;

/**
 * Notices that Redis lost this queue (restarted without persistence, flushed) and sends again at once
 * what it held, instead of leaving it to the reaper, which re-sends an attempt only once it has waited
 * its window (60 s; after one restart 809 attempts waited 24.9 s with nothing claimed). The worker asks
 * on every connection to Redis, on every reaper pass, and whenever BullMQ finds a job missing; checks
 * run one at a time, and one asked for meanwhile runs once after it. The marker is written back only once
 * everything was sent, so a check that fails halfway is made again by the next one. Every worker may
 * notice the same loss: the dispatch numbers let only one of them send each attempt.
 */
export class QueueLossWatch {
  private running: Promise<void> | undefined;
  private again = false;
  private lostAt: number | null = null;
  /** Whether this process has seen the queue's marker: a missing one at its very start is not news. */
  private seen = false;

  constructor(private readonly deps: QueueLossDeps) {}

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  /** Runs a check, or waits for the one running and then one more (what it read may predate the loss). */
  check(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.checkOnce();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Whether a job BullMQ found missing is one the loss of the queue explains (checking first). */
  async explains(): Promise<boolean> {
    await this.check().catch(() => undefined);
    return this.lostAt !== null && this.now() - this.lostAt < EXPLAINS_FOR_MS;
  }

  private async checkOnce() {
    if (await this.deps.queue.queuePresent()) {
      this.seen = true;
      return;
    }
    const since = new Date(this.now());
    this.lostAt = this.now();
    const { sent, capped } = await this.deps.resend(since);
    await this.deps.queue.markQueuePresent();
    if (this.seen || sent > 0 || capped > 0) {
      const cap = capped > 0 ? `, ${capped} at their dispatch cap ended` : '';
      this.deps.log(
        `queue: Redis came back without this queue's jobs (restarted empty?): ${sent} queued attempt(s) ` +
          `sent again at once${cap}; jobs it lost while they ran had their outcomes written to Postgres`,
      );
    }
    this.seen = true;
  }
}
