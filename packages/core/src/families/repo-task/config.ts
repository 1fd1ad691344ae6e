import { z } from 'zod';
import { fixtureAsset } from '../../fixtures/fixture-files';
import type { Fixture, SuiteAsset } from '../../fixtures/types';

/**
 * The scoring block of a repository task (GitTaskBench's method): the agent uses the repository to
 * turn input files into output files; afterwards a grader from the task's definition judges them.
 */

const relative = z
  .string()
  .min(1)
  // A directory is named with a trailing slash.
  .refine(
    (p) =>
      !p.startsWith('/') &&
      p
        .replace(/\/$/, '')
        .split('/')
        .every((part) => part !== '' && part !== '..' && part !== '.'),
    'must be a path inside the repository, without "." or ".."',
  );

export const REPO_TASK_LIMITS = { defaultTimeoutSeconds: 60, maxTimeoutSeconds: 300 } as const;

export const repoTaskScoringSchema = z.looseObject({
  type: z.literal('repo_task'),
  /** The grader script, an asset of the suite listed in the fixture's `assets`. */
  grader: z.string().min(1),
  /** Ground-truth files the grader compares with, by the name the grader knows them under. */
  ground_truth: z
    .record(z.string().regex(/^[A-Za-z0-9._-]+$/, 'must be a plain file name'), z.string().min(1))
    .default({}),
  /** Anything the grader is told besides paths: thresholds, expected values, tolerances. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** What the agent must write, relative to the repository root: files, or directories ending in `/`. */
  outputs: z.array(relative).min(1, 'name at least one output'),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(REPO_TASK_LIMITS.maxTimeoutSeconds)
    .default(REPO_TASK_LIMITS.defaultTimeoutSeconds),
  /** What a person would be paid for the deliverable (GitTaskBench's MV), in USD. */
  market_value_usd: z.number().nonnegative(),
});
export type RepoTaskScoring = z.output<typeof repoTaskScoringSchema>;

export interface RepoTaskConfig extends RepoTaskScoring {
  graderAsset: SuiteAsset;
  truthAssets: Record<string, SuiteAsset>;
}

export type RepoTaskConfigResult =
  { ok: true; config: RepoTaskConfig } | { ok: false; problems: { field: string; message: string }[] };

/** The task's scoring block with its assets resolved; every problem names its field. */
export function repoTaskConfig(fixture: Pick<Fixture, 'scoring' | 'assets' | 'files'>): RepoTaskConfigResult {
  const parsed = repoTaskScoringSchema.safeParse(fixture.scoring);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })) };
  const problems: { field: string; message: string }[] = [];
  const grader = fixtureAsset(fixture, parsed.data.grader);
  if (!grader) problems.push({ field: 'grader', message: `${parsed.data.grader} is not among the fixture's assets` });
  const truthAssets: Record<string, SuiteAsset> = {};
  for (const [name, path] of Object.entries(parsed.data.ground_truth)) {
    const asset = fixtureAsset(fixture, path);
    if (asset) truthAssets[name] = asset;
    else problems.push({ field: `ground_truth.${name}`, message: `${path} is not among the fixture's assets` });
  }
  if (!grader || problems.length > 0) return { ok: false, problems };
  return { ok: true, config: { ...parsed.data, graderAsset: grader, truthAssets } };
}
