import * as z from 'zod/mini';
import { UsageError } from './args';

/**
 * The campaign commands' environment, validated once before anything connects. Defaults are the
 * README's; every process of a deployment (web, worker, CLI) must agree on the database and queue.
 * zod/mini, not zod: the same validation, but loading zod's classic API (all of it, every locale)
 * was a sixth of the CPU a `gitbench campaign status` took from start to exit.
 */
const cliEnvSchema = z
  .object({
    DATABASE_URL: z._default(
      z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }),
      'postgresql://postgres@127.0.0.1:5432/gitbench',
    ),
    REDIS_URL: z._default(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }), 'redis://127.0.0.1:6379'),
    GITBENCH_QUEUE: z._default(
      z.string().check(z.regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ or - (BullMQ reserves ":")')),
      'gitbench',
    ),
    /** Postgres schema, as the worker's: tests run each CLI in a schema of their own. */
    GITBENCH_DATABASE_SCHEMA: z.optional(
      z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain SQL identifier')),
    ),
    /** Set where sandboxes run: cancel then removes a campaign's running sandboxes at once. */
    GITBENCH_SANDBOX_IMAGE: z.optional(z.string().check(z.minLength(1))),
    GITBENCH_PROFILES: z.optional(z.string().check(z.minLength(1))),
    /** A GitBench web app: campaign commands then go through its HTTP API, as the token's user. */
    GITBENCH_URL: z.optional(z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })),
    GITBENCH_TOKEN: z.optional(
      z.string().check(z.regex(/^gbt_[A-Za-z0-9_-]+$/, 'must be an API token (gbt_…, made on Settings → API tokens)')),
    ),
  })
  .check(
    z.refine((e) => !e.GITBENCH_URL || e.GITBENCH_TOKEN, {
      path: ['GITBENCH_TOKEN'],
      error: 'is required with GITBENCH_URL (make one on Settings → API tokens)',
    }),
  );
export type CliEnv = z.infer<typeof cliEnvSchema>;

export class EnvironmentError extends UsageError {}

/** Empty variables count as unset, as a shell's `VAR= gitbench ...` means. */
export function readCliEnv(env: NodeJS.ProcessEnv = process.env): CliEnv {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = cliEnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvironmentError(`invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** A URL fit for messages: the password, if any, replaced. */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
