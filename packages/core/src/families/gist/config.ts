import { z } from 'zod';
import { fixtureAsset } from '../../fixtures/fixture-files';
import type { Fixture, SuiteAsset } from '../../fixtures/types';
import { shellWords, ShellWordsError } from '../../scoring/shell-words';

/**
 * The scoring block of a gist task (Gistify's method): a repository and a command (one pytest test,
 * or several of one test file); the agent writes one self-contained file that reproduces what the
 * command does.
 */

const relative = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && p.split('/').every((part) => part !== '' && part !== '..' && part !== '.'),
    'must be a path inside the repository, without "." or ".."',
  );

export const GIST_LIMITS = { defaultTimeoutSeconds: 60, maxTimeoutSeconds: 240 } as const;

export const gistScoringSchema = z.looseObject({
  type: z.literal('gist'),
  /**
   * The repository as released, a .tar.gz among the fixture's files or assets: the original the gist is compared with.
   */
  original: z.string().min(1),
  /** `python3 -m pytest [options] <test file>::<test>...`, run from the repository root. */
  command: z.string().min(1),
  /** Where the agent writes the gist, relative to the repository root. */
  gist: relative.default('gist.py'),
  /** Directories of the original put on PYTHONPATH when the command runs there (a src layout). */
  pythonpath: z.array(relative).default([]),
  /** Per run of the command (the original's, then the gist's). */
  timeout_seconds: z
    .number()
    .int()
    .min(5)
    .max(GIST_LIMITS.maxTimeoutSeconds)
    .default(GIST_LIMITS.defaultTimeoutSeconds),
});

export interface GistCommand {
  /** pytest's options from the command, passed to both runs. */
  options: string[];
  testFile: string;
  /** Node ids after the file: `test_x`, `TestClass::test_x`, `test_x[param]`. */
  nodes: string[];
}

export interface GistConfig extends z.output<typeof gistScoringSchema> {
  parsedCommand: GistCommand;
  originalAsset: SuiteAsset;
}

export type GistConfigResult =
  { ok: true; config: GistConfig } | { ok: false; problems: { field: string; message: string }[] };

const PYTEST_PREFIXES = [['python3', '-m', 'pytest'], ['python', '-m', 'pytest'], ['pytest']];

/** The command's pytest options, test file and node ids, or why it is not one this family runs. */
export function parseGistCommand(command: string): GistCommand | string {
  let words: string[];
  try {
    words = shellWords(command);
  } catch (error) {
    return error instanceof ShellWordsError ? `cannot be split into words: ${error.message}` : String(error);
  }
  const prefix = PYTEST_PREFIXES.find((p) => p.every((w, i) => words[i] === w));
  if (!prefix) return 'must start with "python3 -m pytest" (or "pytest")';
  const rest = words.slice(prefix.length);
  const targets = rest.filter((w) => w.includes('::'));
  const options = rest.filter((w) => !w.includes('::'));
  if (targets.length === 0) return 'must name at least one test as <file>::<test>';
  const files = new Set(targets.map((t) => t.slice(0, t.indexOf('::'))));
  if (files.size > 1) return `must name tests of one file, not ${[...files].join(', ')}`;
  const testFile = [...files][0]!;
  if (!testFile.endsWith('.py')) return `the test file ${testFile} must be a .py file`;
  const stray = options.find(
    (o) =>
      !o.startsWith('-') &&
      !/^[A-Za-z_]+=/.test(o) &&
      options[options.indexOf(o) - 1] !== '-o' &&
      options[options.indexOf(o) - 1] !== '-k',
  );
  if (stray) return `only options and <file>::<test> targets may follow pytest, not ${JSON.stringify(stray)}`;
  const nodes = targets.map((t) => t.slice(t.indexOf('::') + 2));
  const bad = nodes.find((n) => n.split('::').some((part) => !/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/.test(part)));
  if (bad !== undefined) return `${JSON.stringify(bad)} is not a test name (Class::test or test)`;
  return { options, testFile, nodes };
}

/** The command as it is run against the gist: the same options and tests, in the gist file. */
export function gistCommand(config: Pick<GistConfig, 'parsedCommand' | 'gist'>): string {
  const base = config.gist.split('/').pop()!;
  return [
    'python3 -m pytest',
    ...config.parsedCommand.options,
    ...config.parsedCommand.nodes.map((n) => `${base}::${n}`),
  ].join(' ');
}

export function gistConfig(fixture: Pick<Fixture, 'scoring' | 'assets' | 'files'>): GistConfigResult {
  const parsed = gistScoringSchema.safeParse(fixture.scoring);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })) };
  const problems: { field: string; message: string }[] = [];
  const command = parseGistCommand(parsed.data.command);
  if (typeof command === 'string') problems.push({ field: 'command', message: command });
  const original = fixtureAsset(fixture, parsed.data.original);
  if (!original)
    problems.push({ field: 'original', message: `${parsed.data.original} is not among the fixture's files or assets` });
  else if (!/\.(tar\.gz|tgz)$/.test(original.asset))
    problems.push({ field: 'original', message: 'must be a .tar.gz archive of the repository' });
  if (problems.length > 0 || typeof command === 'string' || !original) return { ok: false, problems };
  return { ok: true, config: { ...parsed.data, parsedCommand: command, originalAsset: original } };
}
