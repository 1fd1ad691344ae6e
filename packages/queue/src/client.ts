import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { jobCatalog, parsePayload, type JobName, type JobPayload } from './catalog';
import { createRedis } from './connection';

export interface QueueConfig {
  redisUrl: string;
  /** One queue per deployment; tests use their own name so runs never share jobs. */
  queueName: string;
}

export interface QueueClient {
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>): Promise<string>;
  /**
   * One round trip for many jobs of the same kind (a campaign's attempts). `first` puts them ahead of
   * every waiting job: work given back by a stopping worker runs next, not after the backlog.
   */
  enqueueMany<N extends JobName>(name: N, payloads: JobPayload<N>[], opts?: { first?: boolean }): Promise<string[]>;
  /** Enqueues and waits for the worker's result; for health checks and tests, not for attempts. */
  enqueueAndWait<N extends JobName>(name: N, payload: JobPayload<N>, timeoutMs: number): Promise<unknown>;
  /**
   * The jobs among these that Redis still holds as waiting, delayed or running: they will be
   * delivered, so sending them again is waste. A job that is missing (Redis lost it), completed or
   * failed is not live.
   */
  liveJobs<N extends JobName>(name: N, payloads: JobPayload<N>[]): Promise<Set<string>>;
  counts(): Promise<Record<string, number>>;
  /**
   * Whether Redis still holds this queue: a marker kept beside BullMQ's own keys, and gone with them when
   * Redis restarts empty or is flushed (or was never used by this queue). Gone, every job it held is lost.
   */
  queuePresent(): Promise<boolean>;
  /** Writes the marker queuePresent looks for, once what Redis lost has been sent again. */
  markQueuePresent(): Promise<void>;
  /** Calls back each time the client's connection to Redis is made, the first time and after every reconnect. */
  onConnect(listener: () => void): void;
  close(): Promise<void>;
}

const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

export function createQueueClient(config: QueueConfig): QueueClient {
  const connection: Redis = createRedis(config.redisUrl, { maxRetriesPerRequest: 1 });
  const queue = new Queue(config.queueName, { connection });
  let events: QueueEvents | undefined;
  // Under the queue's own prefix, so that whatever removes the queue's jobs removes it too.
  const marker = queue.toKey('gitbench-present');

  function toJob<N extends JobName>(name: N, payload: JobPayload<N>, first = false) {
    const parsed = parsePayload(name, payload);
    const entry = jobCatalog[name];
    const jobId = entry.jobId(parsed as never);
    return {
      name,
      data: parsed,
      opts: {
        jobId,
        attempts: entry.attempts,
        backoff: entry.backoffMs ? { type: 'exponential' as const, delay: entry.backoffMs } : undefined,
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
        ...(first ? { lifo: true } : {}),
      },
    };
  }

  async function enqueue<N extends JobName>(name: N, payload: JobPayload<N>): Promise<string> {
    const job = toJob(name, payload);
    await queue.add(job.name, job.data, job.opts);
    return job.opts.jobId;
  }

  return {
    enqueue,
    async enqueueMany(name, payloads, opts) {
      const jobs = payloads.map((p) => toJob(name, p, opts?.first));
      for (let i = 0; i < jobs.length; i += 500) await queue.addBulk(jobs.slice(i, i + 500));
      return jobs.map((j) => j.opts.jobId);
    },
    async enqueueAndWait(name, payload, timeoutMs) {
      events ??= new QueueEvents(config.queueName, { connection: createRedis(config.redisUrl) });
      await events.waitUntilReady();
      const jobId = await enqueue(name, payload);
      const job = await queue.getJob(jobId);
      if (!job) throw new Error(`job ${jobId} vanished right after enqueue`);
      return job.waitUntilFinished(events, timeoutMs);
    },
    async liveJobs(name, payloads) {
      const ids = payloads.map((p) => toJob(name, p).opts.jobId);
      const live = new Set<string>();
      for (let i = 0; i < ids.length; i += 200) {
        const chunk = ids.slice(i, i + 200);
        const states = await Promise.all(chunk.map((id) => queue.getJobState(id)));
        chunk.forEach((id, j) => {
          if (LIVE_STATES.has(states[j]!)) live.add(id);
        });
      }
      return live;
    },
    async counts() {
      return queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
    },
    async queuePresent() {
      return (await connection.exists(marker)) === 1;
    },
    async markQueuePresent() {
      await connection.set(marker, new Date().toISOString());
    },
    onConnect(listener) {
      connection.on('ready', listener);
    },
    async close() {
      await events?.close();
      await queue.close();
      connection.disconnect();
    },
  };
}
