import 'server-only';
import { z } from 'zod';

const webEnvSchema = z.object({
  DATABASE_URL: z.string().url(),
  REDIS_URL: z.string().url(),
  GITBENCH_QUEUE: z.string().min(1).default('gitbench'),
  GITBENCH_SANDBOX_IMAGE: z.string().min(1).optional(),
  /** Repository root; relative suite directories resolve against it. */
  GITBENCH_ROOT: z.string().min(1).default(process.cwd()),
  /** Suite directories a campaign may use, comma-separated, relative to GITBENCH_ROOT. */
  GITBENCH_SUITES: z.string().default(`fixtures,${process.env['GITBENCH_UPSTREAM_DIR'] ?? '../shared/gitbench-upstream'}/fixtures`),
  /** Profiles file (gitbench.json format); else gitbench.json / .gitbench.json here, then ~/.gitbench.json. */
  GITBENCH_PROFILES: z.string().min(1).optional(),
});
export type WebEnv = z.infer<typeof webEnvSchema>;

let cached: WebEnv | undefined;

/** Validated once per server process; a missing variable names itself in the error. */
export function webEnv(): WebEnv {
  if (cached) return cached;
  const parsed = webEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(
      `invalid web environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  cached = parsed.data;
  return cached;
}
