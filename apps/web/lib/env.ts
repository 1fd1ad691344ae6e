import 'server-only';
import { z } from 'zod';
import { DEFAULT_CAMPAIGN_LIMITS } from '@gitbench/core';
import { exposureProblem } from './exposure';

const webEnvSchema = z
  .object({
    DATABASE_URL: z.string().url(),
    REDIS_URL: z.string().url(),
    GITBENCH_QUEUE: z.string().min(1).default('gitbench'),
    GITBENCH_SANDBOX_IMAGE: z.string().min(1).optional(),
    /** Repository root; relative suite directories resolve against it. */
    GITBENCH_ROOT: z.string().min(1).default(process.cwd()),
    /** Suite directories a campaign may use, comma-separated, relative to GITBENCH_ROOT. */
    GITBENCH_SUITES: z
      .string()
      .default(
        `fixtures,fixtures/repo-tasks,fixtures/gists,fixtures/ggb,` +
          `fixtures/hard,${process.env['GITBENCH_UPSTREAM_DIR'] ?? '../shared/gitbench-upstream'}/fixtures`,
      ),
    /** Profiles file (gitbench.json format); else gitbench.json / .gitbench.json here, then ~/.gitbench.json. */
    GITBENCH_PROFILES: z.string().min(1).optional(),
    /**
     * At least 32 characters (`openssl rand -base64 32`). Sessions are signed and provider keys
     * encrypted under keys derived from it; set-up writes one to .gitbench/env on first run.
     */
    GITBENCH_SECRET_KEY: z.string().min(32, 'must be at least 32 characters (openssl rand -base64 32)'),
    /** Where users reach the app, e.g. https://gitbench.example.com; sets secure cookies when https. */
    GITBENCH_PUBLIC_URL: z.url().optional(),
    /**
     * The reverse proxies in front of the app, comma-separated addresses or CIDR ranges (e.g. 10.0.0.2 or
     * 10.0.0.0/24). Only through them is X-Forwarded-For believed, for the per-address sign-in limit; unset,
     * the app trusts no forwarded header and throttles sign-in per account only.
     */
    GITBENCH_TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .refine(
        (list) => list.every((p) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p)),
        'addresses or CIDR ranges, comma-separated',
      ),
    /** Largest request body any route reads; larger ones get 413. */
    GITBENCH_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(256 * 1024),
    /** Distinct models one campaign may have (400 beyond, naming the limit). */
    GITBENCH_MAX_MODELS_PER_CAMPAIGN: z.coerce.number().int().min(1).default(DEFAULT_CAMPAIGN_LIMITS.maxModels),
    /** Attempts one campaign may plan, counted before planning (400 beyond, naming the limit). */
    GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN: z.coerce.number().int().min(1).default(DEFAULT_CAMPAIGN_LIMITS.maxAttempts),
    /** OpenID Connect sign-in: all three, or none. */
    GITBENCH_OIDC_ISSUER: z.url().optional(),
    GITBENCH_OIDC_CLIENT_ID: z.string().min(1).optional(),
    GITBENCH_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    GITBENCH_OIDC_NAME: z.string().min(1).default('single sign-on'),
    /**
     * `1`: anonymous visitors may read the leaderboard, the methodology and published campaigns' aggregates
     * (never raw outputs, trajectories, attempts, settings or the API). Off unless set.
     */
    GITBENCH_PUBLIC_LEADERBOARD: z
      .enum(['0', '1'])
      .default('0')
      .transform((v) => v === '1'),
    /** Where compose publishes the app (docker-compose.yml passes it through); see exposureProblem. */
    GITBENCH_BIND: z.string().optional(),
  })
  .superRefine((e, ctx) => {
    const problem = exposureProblem(e);
    if (problem) ctx.addIssue({ code: 'custom', path: ['GITBENCH_BIND'], message: problem });
  })
  .refine(
    (e) =>
      [e.GITBENCH_OIDC_ISSUER, e.GITBENCH_OIDC_CLIENT_ID, e.GITBENCH_OIDC_CLIENT_SECRET].filter(Boolean).length % 3 ===
      0,
    {
      path: ['GITBENCH_OIDC_ISSUER'],
      message:
        'set GITBENCH_OIDC_ISSUER, GITBENCH_OIDC_CLIENT_ID and GITBENCH_OIDC_CLIENT_SECRET together, or none of them',
    },
  );
export type WebEnv = z.infer<typeof webEnvSchema>;

let cached: WebEnv | undefined;

/**
 * Validated once per server process; a missing variable names itself in the error. An empty variable
 * counts as unset (docker-compose.yml passes `${GITBENCH_PUBLIC_URL:-}` through as an empty string).
 */
export function webEnv(): WebEnv {
  if (cached) return cached;
  const parsed = webEnvSchema.safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    throw new Error(
      `invalid web environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  cached = parsed.data;
  return cached;
}
