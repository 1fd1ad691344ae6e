import { z } from 'zod';

/**
 * Every job the system knows: its payload schema and its retry policy, in one place.
 * Payloads carry ids only (never secrets or whole records); they are parsed before `add` and again as
 * the first thing a handler does. The job id is always derived from the payload's row id, so a
 * duplicate enqueue of the same row is collapsed by BullMQ and a duplicate delivery is a no-op at the
 * database claim.
 */
const rowId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`));

export const jobCatalog = {
  /**
   * Build the campaign's fixture repositories and write its attempts. `dispatch` numbers the
   * hand-overs of the same planning, as for attempts: a re-plan is a new job, never one that BullMQ
   * still holds as failed (adding that id again would do nothing).
   */
  'campaign.plan': {
    schema: z.object({ campaignId: rowId('cmp'), dispatch: z.number().int().min(1) }),
    jobId: (p: { campaignId: string; dispatch: number }) => `${p.campaignId}_p${p.dispatch}`,
    attempts: 3,
    backoffMs: 5_000,
    timeoutMs: 30 * 60_000,
  },
  /**
   * Run one attempt. `dispatch` numbers the hand-overs of the same attempt to the queue, so a
   * re-dispatch after a lost job gets a fresh job id; the database claim makes extra deliveries no-ops.
   * timeoutMs is the worker's default GITBENCH_ATTEMPT_TIMEOUT_MS, the limit of a single answer; an
   * agent attempt runs longer (its maxWallMs on top, up to 6 h). BullMQ itself sets no job time limit:
   * the worker renews the job's lock (lockDuration 30 s) every 15 s while the handler runs, so only a
   * worker that stops renewing (dead, or its event loop blocked for 30 s) has the job taken as stalled.
   */
  'attempt.run': {
    schema: z.object({ attemptId: rowId('att'), dispatch: z.number().int().min(1) }),
    jobId: (p: { attemptId: string; dispatch: number }) => `${p.attemptId}_d${p.dispatch}`,
    attempts: 3,
    backoffMs: 2_000,
    timeoutMs: 15 * 60_000,
  },
  /**
   * Remove a cancelled campaign's sandboxes now, on the worker's Docker engine (the web app holds no
   * Docker socket). `request` numbers the cancel requests, so a second cancel is a new job. Running
   * attempts stop at their next heartbeat anyway; this only makes it immediate.
   */
  'campaign.cancel': {
    schema: z.object({ campaignId: rowId('cmp'), request: z.number().int().min(0) }),
    jobId: (p: { campaignId: string; request: number }) => `${p.campaignId}_c${p.request}`,
    attempts: 1,
    backoffMs: 0,
    timeoutMs: 60_000,
  },
  'system.ping': {
    schema: z.object({ pingId: z.string().regex(/^png_[A-Za-z0-9_-]+$/) }),
    jobId: (p: { pingId: string }) => p.pingId,
    attempts: 1,
    backoffMs: 0,
    timeoutMs: 10_000,
  },
} as const;

export type JobCatalog = typeof jobCatalog;
export type JobName = keyof JobCatalog;
export type JobPayload<N extends JobName> = z.infer<JobCatalog[N]['schema']>;

export function parsePayload<N extends JobName>(name: N, payload: unknown): JobPayload<N> {
  const entry = jobCatalog[name];
  if (!entry) throw new Error(`unknown job '${String(name)}'`);
  return entry.schema.parse(payload) as JobPayload<N>;
}
