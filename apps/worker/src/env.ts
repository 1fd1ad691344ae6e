import { z } from 'zod';
import { jobCatalog } from '@gitbench/queue';

/** Parsed once at start-up; everything downstream receives plain config, never process.env. */
export const workerEnvSchema = z.object({
  DATABASE_URL: z.string().url(),
  REDIS_URL: z.string().url(),
  GITBENCH_QUEUE: z.string().min(1).default('gitbench'),
  GITBENCH_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  GITBENCH_SANDBOX_IMAGE: z.string().min(1).optional(),
  GITBENCH_HEARTBEAT_MS: z.coerce.number().int().min(100).default(5_000),
  /** Postgres schema; tests run each worker in a schema of their own. */
  GITBENCH_DATABASE_SCHEMA: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional(),
  /** A RUNNING attempt without a heartbeat for this long is given back to the queue. */
  GITBENCH_STALE_AFTER_MS: z.coerce.number().int().min(1_000).default(30_000),
  /** A QUEUED attempt not dispatched for this long is dispatched again (its job may be lost). */
  GITBENCH_REDISPATCH_AFTER_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** Times an attempt is sent to workers without an outcome before it ends as an infrastructure failure. */
  GITBENCH_MAX_DISPATCHES: z.coerce.number().int().min(1).max(100).default(5),
  GITBENCH_REAPER_INTERVAL_MS: z.coerce.number().int().min(200).default(5_000),
  /** How often sandboxes left behind by dead workers are removed. */
  GITBENCH_ORPHAN_SWEEP_MS: z.coerce.number().int().min(200).default(60_000),
  /** Sandboxes one planning job builds fixture repositories in at once (each builds many in a row). */
  GITBENCH_BUILD_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Sandboxes: docker (default) or local (no isolation; refused unless GITBENCH_UNSAFE_LOCAL_SANDBOX=1). */
  GITBENCH_SANDBOX_DRIVER: z.enum(['docker', 'local']).default('docker'),
  /** `1`: the operator accepts that the local driver runs model output on this host, unisolated. */
  GITBENCH_UNSAFE_LOCAL_SANDBOX: z.enum(['0', '1']).default('0'),
  /**
   * Wall-clock limit of one single-answer attempt (model call, sandbox, judge); past it the attempt ends
   * as a timeout. An agent attempt gets its agent's maxWallMs and commandTimeoutMs on top of it.
   */
  GITBENCH_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(jobCatalog['attempt.run'].timeoutMs),
  /** Commands one answer may hold; an answer with more fails unrun, saying so. */
  GITBENCH_MAX_ANSWER_COMMANDS: z.coerce.number().int().min(1).default(100),
  /** Command output kept per attempt, shared between its commands (each keeps head and tail). */
  GITBENCH_MAX_ATTEMPT_OUTPUT_BYTES: z.coerce
    .number()
    .int()
    .min(16 * 1024)
    .default(8 * 1024 * 1024),
  /** Size of one try's stored evidence record; longer strings in it are cut, with a warning. */
  GITBENCH_MAX_EVIDENCE_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(16 * 1024 * 1024),
  /** How long an ordered shutdown may take before the process exits anyway. */
  GITBENCH_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1_000).default(30_000),
  /**
   * Opens the provider keys stored on Settings → Provider keys (the web's secret); without it profiles use api_key_env
   * only.
   */
  GITBENCH_SECRET_KEY: z.string().min(32).optional(),
  /**
   * `rules`: finished campaigns' raw outputs are reviewed by the built-in rules (plus GITBENCH_SAFETY_RULES_EXTRA);
   * `off`: not configured.
   */
  GITBENCH_SAFETY_REVIEW: z.enum(['off', 'rules']).default('off'),
  /** Where third-party agents' npm installs are staged for their images (as the CLI's `gitbench run --agent`). */
  GITBENCH_STATE_DIR: z.string().min(1).default('.gitbench'),
  /** Profiles file (gitbench.json format); else gitbench.json / .gitbench.json / ~/.gitbench.json. */
  GITBENCH_PROFILES: z.string().optional(),
});
export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export const UNSAFE_LOCAL_WARNING =
  'UNSAFE: local sandbox driver (GITBENCH_UNSAFE_LOCAL_SANDBOX=1): ' +
  'model output ran on the worker host as its user, with NO isolation.';

export function readWorkerEnv(env: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const parsed = workerEnvSchema
    .refine((e) => e.GITBENCH_SANDBOX_DRIVER !== 'local' || e.GITBENCH_UNSAFE_LOCAL_SANDBOX === '1', {
      path: ['GITBENCH_SANDBOX_DRIVER'],
      message:
        'the local driver runs model output on this host without isolation; ' +
        'it is refused unless GITBENCH_UNSAFE_LOCAL_SANDBOX=1 is also set',
    })
    .safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid worker environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** Host, port and database name of a connection URL: what names the database, without credentials. */
export function databaseIdentity(databaseUrl: string): string {
  const u = new URL(databaseUrl);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}
