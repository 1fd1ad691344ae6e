import { z } from 'zod';
import { fixtureAsset } from '../../fixtures/fixture-files';
import type { Fixture, SuiteAsset } from '../../fixtures/types';
import { referenceToolCallsSchema } from '../ggb/config';

/**
 * The scoring block of a repository-checks task (the hard tier): after the attempt, a list of checks
 * over the repository the agent left, each run by the scorer in a way nothing the model left can
 * steer (see checks.ts and tests-run.py), all of which must hold.
 */

const oid = z
  .string({ error: 'must be a full 40-character object id' })
  .regex(/^[0-9a-f]{40}$/, 'must be a full 40-character object id');
/** A revision or range as git reads it; never an option, never more than one word. */
const revision = z
  .string()
  .min(1)
  .refine(
    (r) => !r.startsWith('-') && !/\s/.test(r),
    'must be one revision (a ref, an id or a range), not an option or several words',
  );
const relative = z
  .string()
  .min(1)
  .refine(
    (p) =>
      !p.startsWith('/') &&
      p
        .replace(/\/$/, '')
        .split('/')
        .every((part) => part !== '' && part !== '..' && part !== '.'),
    'must be a path inside the repository, without "." or ".."',
  );

export const REPO_CHECKS_LIMITS = {
  defaultTimeoutSeconds: 120,
  maxTimeoutSeconds: 600,
  defaultMaxCommits: 30,
  maxCommits: 200,
} as const;

const testRun = {
  /** Run by bash from the root of the exported tree, e.g. `python3 -m pytest -q tests`. */
  command: z.string().min(1),
  /**
   * The fixture's pinned files laid over the tree, by path in the repository: a file path maps to an
   * asset copied there; a path ending in `/` to a .tar.gz asset that replaces that directory whole.
   */
  overlay: z.record(relative, z.string().min(1)).default({}),
  /** Directories of the tree put on PYTHONPATH: `.` for the root, `src` for a src layout. */
  pythonpath: z.array(z.union([z.literal('.'), relative])).default([]),
  /** Per commit, in seconds. */
  timeout: z
    .number()
    .int()
    .min(5)
    .max(REPO_CHECKS_LIMITS.maxTimeoutSeconds)
    .default(REPO_CHECKS_LIMITS.defaultTimeoutSeconds),
};

/** pytest's summary must report exactly this many passed tests (and no failure or error). */
const expectPassed = z.number().int().min(1).optional();

export const checkSchemas = {
  tests_pass: z
    .object({ type: z.literal('tests_pass'), rev: revision, ...testRun, expect_passed: expectPassed })
    .strict(),
  tests_fail: z.object({ type: z.literal('tests_fail'), rev: revision, ...testRun }).strict(),
  tests_pass_each: z
    .object({
      type: z.literal('tests_pass_each'),
      range: revision,
      ...testRun,
      /** Commits exempt (the project's own broken ones), by subject line. */
      except_subjects: z.array(z.string().min(1)).default([]),
      /** The range must hold at least this many commits (an empty range passes nothing). */
      min_commits: z.number().int().min(1).default(1),
      max_commits: z
        .number()
        .int()
        .min(1)
        .max(REPO_CHECKS_LIMITS.maxCommits)
        .default(REPO_CHECKS_LIMITS.defaultMaxCommits),
    })
    .strict(),
  linear_onto: z.object({ type: z.literal('linear_onto'), branch: revision, onto: revision }).strict(),
  commits_preserved: z
    .object({
      type: z.literal('commits_preserved'),
      range: revision,
      /** Oldest first: a one-line entry is compared with the subject, a longer one with the whole message. */
      messages: z.array(z.string().min(1)).min(1),
      /** Other commits may appear in the range too (each listed one still exactly once, in order). */
      allow_extra: z.boolean().default(false),
    })
    .strict(),
  commit_count: z
    .object({ type: z.literal('commit_count'), range: revision, equals: z.number().int().min(0) })
    .strict(),
  no_conflict_markers: z.object({ type: z.literal('no_conflict_markers'), rev: revision }).strict(),
  ref_equals: z.object({ type: z.literal('ref_equals'), ref: revision, commit: oid }).strict(),
  ref_exists: z.object({ type: z.literal('ref_exists'), ref: revision }).strict(),
  tree_equals: z.object({ type: z.literal('tree_equals'), rev: revision, tree: oid }).strict(),
  file_at: z
    .object({
      type: z.literal('file_at'),
      rev: revision,
      path: relative,
      blob: oid.optional(),
      contains: z.string().min(1).optional(),
    })
    .strict()
    .refine((c) => (c.blob === undefined) !== (c.contains === undefined), {
      message: 'needs exactly one of blob or contains',
      path: ['blob'],
    }),
  worktree_file: z.object({ type: z.literal('worktree_file'), path: relative, blob: oid }).strict(),
  answer_commit: z.object({ type: z.literal('answer_commit'), expected: oid }).strict(),
  repo_as_found: z.object({ type: z.literal('repo_as_found') }).strict(),
  absent_everywhere: z
    .object({
      type: z.literal('absent_everywhere'),
      text: z.string().min(4, 'must be at least 4 characters (shorter text matches by chance)'),
    })
    .strict(),
  remote_branch: z
    .object({
      type: z.literal('remote_branch'),
      /** A bare repository the set-up made inside the sandbox (the "remote" a task pushes to), e.g. `remote.git`. */
      repository: relative,
      /** The branch there, as a full ref: `refs/heads/main`. */
      ref: revision.refine((r) => r.startsWith('refs/'), 'must be a full ref name (refs/heads/...)'),
      /** Commits the branch must reach (each an ancestor of its tip, or the tip itself), by id. */
      contains: z.array(oid).min(1),
      /** The tree the branch's tip must have, if the task decides it. */
      tree: oid.optional(),
    })
    .strict(),
  stash_entries: z
    .object({
      type: z.literal('stash_entries'),
      /** The tree of each entry of `git stash list`, newest first: exactly these entries, no other. */
      trees: z.array(oid),
    })
    .strict(),
  tag_message: z
    .object({
      type: z.literal('tag_message'),
      /** The tag's name, without refs/tags/. */
      tag: revision.refine((t) => !t.startsWith('refs/'), 'is the tag name without refs/tags/'),
      /** The annotated tag's whole message (trailing blank space aside). */
      message: z.string().min(1),
    })
    .strict(),
  note: z
    .object({
      type: z.literal('note'),
      /** The commit the note is on (any revision: main~3, a tag). */
      rev: revision,
      /** The notes ref, full. */
      ref: revision
        .refine((r) => r.startsWith('refs/notes/'), 'must be a full notes ref (refs/notes/...)')
        .default('refs/notes/commits'),
      /** The note's whole text (trailing blank space aside). */
      text: z.string().min(1),
    })
    .strict(),
  identities: z
    .object({
      type: z.literal('identities'),
      /** Every author and committer of every commit any ref reaches must be one of these, `Name <email>`. */
      allowed: z.array(z.string().regex(/^[^<>\n]+ <[^<>\n]*>$/, 'must be "Name <email>"')).min(1),
    })
    .strict(),
} as const;

export type CheckType = keyof typeof checkSchemas;
export const CHECK_TYPES = Object.keys(checkSchemas) as CheckType[];
export type RepoCheck = { [K in CheckType]: z.output<(typeof checkSchemas)[K]> }[CheckType];
export type CheckOf<K extends CheckType> = z.output<(typeof checkSchemas)[K]>;

const checkSchema = z.looseObject({
  type: z.enum(CHECK_TYPES as [CheckType, ...CheckType[]], { error: `must be one of ${CHECK_TYPES.join(', ')}` }),
});

export const repoChecksScoringSchema = z.looseObject({
  type: z.literal('repo_checks'),
  checks: z.array(z.unknown(), { error: 'must be a list of checks' }).min(1, 'needs at least one check'),
  /**
   * Whether a single answer is run, as one bash script from the repository root (default). A task
   * answered by naming something (a commit id) sets false: the answer is text, and nothing runs.
   */
  run_answer: z.boolean().default(true),
  /** The reference solution as tool calls, for the oracle agent; never shown to an agent. */
  reference_tool_calls: referenceToolCallsSchema,
  /** Where the history comes from: the repository, its licence, the commits used, and what was staged on top. */
  source: z
    .object({
      repository: z.string().regex(/^https:\/\/\S+$/, 'must be the repository URL'),
      licence: z.string().regex(/^[A-Za-z0-9.+-]+$/, 'must be an SPDX licence id'),
      commits: z.record(z.string(), z.union([oid, z.array(oid)]), { error: 'must map names to commit ids' }),
      /** What the fixture made up on top of the real history (the destructive operation, the secret), if anything. */
      staged: z.string().min(1).optional(),
    })
    .strict()
    .optional(),
});

export interface RepoChecksConfig {
  checks: RepoCheck[];
  runAnswer: boolean;
  /** The overlay assets, by suite path. */
  overlayAssets: Record<string, SuiteAsset>;
}

export type RepoChecksConfigResult =
  { ok: true; config: RepoChecksConfig } | { ok: false; problems: { field: string; message: string }[] };

/** The scoring block parsed, each check by its own type, overlay assets resolved; every problem names its field. */
export function repoChecksConfig(fixture: Pick<Fixture, 'scoring' | 'assets' | 'files'>): RepoChecksConfigResult {
  const parsed = repoChecksScoringSchema.safeParse(fixture.scoring);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })) };
  const problems: { field: string; message: string }[] = [];
  const checks: RepoCheck[] = [];
  const overlayAssets: Record<string, SuiteAsset> = {};
  parsed.data.checks.forEach((raw, index) => {
    const at = (path: PropertyKey[]) => ['checks', index, ...path].join('.');
    const kind = checkSchema.safeParse(raw);
    if (!kind.success) {
      problems.push(...kind.error.issues.map((i) => ({ field: at(i.path), message: i.message })));
      return;
    }
    const check = checkSchemas[kind.data.type].safeParse(raw);
    if (!check.success) {
      problems.push(
        ...check.error.issues.map((i) => ({
          field: at(i.path),
          message:
            i.code === 'unrecognized_keys'
              ? `${i.message} (a ${kind.data.type} check ` +
                `takes ${Object.keys(checkSchemas[kind.data.type].shape ?? {}).join(', ')})`
              : i.message,
        })),
      );
      return;
    }
    const value = check.data as RepoCheck;
    if ('overlay' in value) {
      for (const [path, asset] of Object.entries(value.overlay)) {
        const found = fixtureAsset(fixture, asset);
        if (!found)
          problems.push({ field: at(['overlay', path]), message: `${asset} is not among the fixture's assets` });
        else if (path.endsWith('/') && !asset.endsWith('.tar.gz'))
          problems.push({
            field: at(['overlay', path]),
            message: 'a directory (a path ending in "/") is replaced by a .tar.gz asset',
          });
        else overlayAssets[asset] = found;
      }
    }
    checks.push(value);
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, config: { checks, runAnswer: parsed.data.run_answer, overlayAssets } };
}
