import { Worker, UnrecoverableError, type Job } from 'bullmq';
import { jobCatalog, parsePayload, type JobName, type JobPayload } from './catalog';
import { createRedis } from './connection';

export interface JobContext {
  jobId: string;
  attemptsMade: number;
  signal: AbortSignal;
}

/** A handler for every job in the catalog: forgetting one is a compile error. */
export type JobHandlers = { [N in JobName]: (payload: JobPayload<N>, ctx: JobContext) => Promise<unknown> };

export interface QueueWorker {
  /** Stop taking jobs, abort in-flight handlers, wait for them, close connections. */
  close(): Promise<void>;
  readonly worker: Worker;
}

/** BullMQ's error for a job whose keys are gone from Redis (a Redis restarted empty, a flushed queue). */
const LOST_JOB = /^Missing key for job (\S+?)\.? /;

/**
 * Says whether a job missing from Redis is explained: the worker found that Redis lost the whole queue
 * and has said so, or is saying so now.
 */
export type LostJobExplainer = (jobId: string) => Promise<boolean>;

/**
 * The worker's errors as log lines. A Redis that came back empty makes BullMQ fail to finish or delay
 * every job it held (12 stack traces in one fault run) although each outcome was written to Postgres.
 * Such an error is first handed to `explain`: when the loss of the queue explains it, it is not logged
 * at all (the loss has its own line). Otherwise the first gives one line; those in the minute after it
 * are only counted, the count reported with the next one after that minute.
 */
export function queueErrorReporter(
  log: (line: string) => void,
  now: () => number = Date.now,
  explain?: LostJobExplainer,
): (err: Error) => void {
  let lostSince: number | null = null;
  let lostMore = 0;
  const unexplained = (jobId: string) => {
    if (lostSince !== null && now() - lostSince < 60_000) {
      lostMore++;
      return;
    }
    if (lostMore > 0) log(`queue: ${lostMore} more job(s) were missing from Redis`);
    lostSince = now();
    lostMore = 0;
    log(
      `queue: job ${jobId} is missing from Redis; its attempt's ` +
        `outcome is in Postgres, and the reaper re-sends what was lost`,
    );
  };
  return (err) => {
    const lost = LOST_JOB.exec(err.message);
    if (!lost) return log(`queue error: ${err.message}`);
    const jobId = lost[1]!;
    if (!explain) return unexplained(jobId);
    explain(jobId).then(
      (explained) => explained || unexplained(jobId),
      () => unexplained(jobId),
    );
  };
}

export function startQueueWorker(
  config: {
    redisUrl: string;
    queueName: string;
    concurrency: number;
    log?: (line: string) => void;
    explainLostJob?: LostJobExplainer;
  },
  handlers: JobHandlers,
): QueueWorker {
  const inFlight = new Map<string, AbortController>();
  const worker = new Worker(
    config.queueName,
    async (job: Job) => {
      const name = job.name as JobName;
      if (!(name in jobCatalog)) throw new UnrecoverableError(`no such job in the catalog: '${job.name}'`);
      let payload: JobPayload<typeof name>;
      try {
        payload = parsePayload(name, job.data);
      } catch (err) {
        throw new UnrecoverableError(`invalid payload for ${name}: ${(err as Error).message}`);
      }
      const controller = new AbortController();
      inFlight.set(job.id!, controller);
      try {
        const handler = handlers[name] as (p: unknown, c: JobContext) => Promise<unknown>;
        return await handler(payload, { jobId: job.id!, attemptsMade: job.attemptsMade, signal: controller.signal });
      } finally {
        inFlight.delete(job.id!);
      }
    },
    { connection: createRedis(config.redisUrl), concurrency: config.concurrency, autorun: true },
  );
  // Without a listener BullMQ prints every error with its stack.
  worker.on(
    'error',
    queueErrorReporter(config.log ?? ((line) => console.error(line)), Date.now, config.explainLostJob),
  );
  return {
    worker,
    async close() {
      const closing = worker.close();
      for (const c of inFlight.values()) c.abort(new Error('worker shutting down'));
      await closing;
    },
  };
}
