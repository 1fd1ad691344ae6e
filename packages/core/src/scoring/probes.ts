import { PY_DIGIT, pyBoundedRegex, pySplitlines } from './python-text';
import { check } from './result';
import type { ExecRecord, SandboxEvidence, ScoreCheck } from './types';

/**
 * Probe commands shared by the scorers that look things up in the attempt's repository, and the
 * parsing of their output. Formats use a space after the fixed-width hash rather than upstream's
 * NUL separator: evidence is stored as text, and a hash never contains a space.
 */

export const COMMIT_LOG_PROBE = { id: 'commit-log', command: "git log --format='%H %h %s'", readOnly: true };
export const REFLOG_PROBE = { id: 'reflog', command: 'git reflog show --no-abbrev || git reflog', readOnly: true };

/**
 * git subcommands that only print, whatever their arguments (an output file refused below), and the
 * listing forms of those that can also write. What is not here counts as a command that may write.
 */
const PRINTING = new Set([
  'log',
  'show',
  'rev-parse',
  'rev-list',
  'cat-file',
  'ls-files',
  'ls-tree',
  'for-each-ref',
  'show-ref',
  'describe',
  'merge-base',
  'shortlog',
  'blame',
  'name-rev',
  'count-objects',
  'diff',
]);
/** `git branch` options that only list or format branches. */
const BRANCH_LISTING_OPTION = new RegExp(
  `^(${[
    '--list',
    '-l',
    '--show-current',
    '-a',
    '--all',
    '-r',
    '--remotes',
    '-v',
    '-vv',
    '--verbose',
    '--no-color',
    '--color',
    '--sort=.*',
    '--format=.*',
    '--contains',
    '--no-contains',
    '--merged',
    '--no-merged',
    '--points-at',
  ].join('|')})$`,
);

const LISTING: Record<string, (args: string[]) => boolean> = {
  // Refreshes the index's cached stat data at most, which no state read shows.
  status: () => true,
  tag: (args) =>
    args.length === 0 ||
    (args.some((a) => a === '-l' || a === '--list' || /^-n\d*$/.test(a)) &&
      !args.some((a) => /^(-[dvasfmFue]|--(delete|verify|annotate|sign|force|message|file|local-user|edit))/.test(a))),
  branch: (args) =>
    args.every((a) => BRANCH_LISTING_OPTION.test(a) || !a.startsWith('-')) &&
    (args.length === 0 ||
      args.some((a) => a === '--list' || a === '-l' || a === '--show-current') ||
      args.every((a) => a.startsWith('-'))),
  reflog: (args) => args.length === 0 || args[0] === 'show',
  stash: (args) => args[0] === 'list',
  worktree: (args) => args[0] === 'list',
  submodule: (args) => args.length === 0 || args[0] === 'status',
  config: (args) => args.length > 0 && /^(--get|--get-all|--get-regexp|--list|-l)$/.test(args[0]!),
};

/**
 * Whether a git call, as the words it is run with, only reads the repository: `git [-C <dir>]
 * <subcommand> ...` of a subcommand that prints, or in a listing form, and no `--output` file. Any
 * other global option (a `-c` could name a program to run) counts as writing.
 */
export function readsOnly(words: readonly string[]): boolean {
  if (words[0] !== 'git') return false;
  let i = 1;
  while (words[i] === '-C' && words[i + 1] !== undefined) i += 2;
  const sub = words[i];
  const args = words.slice(i + 1);
  if (sub === undefined || args.some((a) => a.startsWith('--output'))) return false;
  return PRINTING.has(sub) || (LISTING[sub]?.(args) ?? false);
}

/** Python `\b[0-9a-f]{7,40}\b` with re.IGNORECASE. */
export const hashPattern = () => pyBoundedRegex('[0-9a-fA-F]{7,40}');
/** Python `\bHEAD@\{\d+\}`. */
export const reflogSelectorPattern = () => new RegExp(`(?<![\\p{L}\\p{N}_])HEAD@\\{${PY_DIGIT}+\\}`, 'gu');

export type ProbeRead = { ok: true; record: ExecRecord } | { ok: false; problem: ScoreCheck };

/** The record of one probe, or a failed check saying why it cannot be used. */
export function readProbe(evidence: SandboxEvidence | undefined, id: string, what: string): ProbeRead {
  const record = evidence?.probes[id];
  if (!record)
    return {
      ok: false,
      problem: check(what, false, `no sandbox evidence for probe "${id}"; the attempt was not run in a sandbox`),
    };
  if (record.timedOut) return { ok: false, problem: check(what, false, `probe "${record.command}" timed out`) };
  if (record.exitCode !== 0) {
    return {
      ok: false,
      problem: check(
        what,
        false,
        `probe "${record.command}" failed with exit ${record.exitCode}`,
        undefined,
        record.stderr,
      ),
    };
  }
  return { ok: true, record };
}

export interface LoggedCommit {
  hash: string;
  shortHash: string;
  subject: string;
}

/** Lines of `git log --format='%H %h %s'`, newest first. */
export function parseCommitLog(stdout: string): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const line of pySplitlines(stdout)) {
    const first = line.indexOf(' ');
    const second = first < 0 ? -1 : line.indexOf(' ', first + 1);
    if (second < 0) continue;
    commits.push({
      hash: line.slice(0, first).toLowerCase(),
      shortHash: line.slice(first + 1, second).toLowerCase(),
      subject: line.slice(second + 1),
    });
  }
  return commits;
}

export interface ReflogEntry {
  hash: string;
  selector: string;
  line: string;
}

/** Reflog lines that start with a hash and carry a HEAD@{n} selector. */
export function parseReflog(stdout: string): ReflogEntry[] {
  const entries: ReflogEntry[] = [];
  for (const line of pySplitlines(stdout)) {
    const hash = new RegExp(`^${hashPattern().source}`, 'u').exec(line);
    const selector = reflogSelectorPattern().exec(line);
    if (hash && selector) entries.push({ hash: hash[0].toLowerCase(), selector: selector[0], line });
  }
  return entries;
}

/** Every hash-like token the answer mentions, lower-cased. */
export function mentionedHashes(output: string): string[] {
  return (output.match(hashPattern()) ?? []).map((h) => h.toLowerCase());
}

/**
 * True when a mentioned hash names the target: a prefix of it, as upstream decides. The reverse
 * (target a prefix of the mention) only arises when the target itself is abbreviated, i.e. when
 * evidence was rebuilt from a recorded prompt that showed short hashes.
 */
export function hashNames(target: string, mentioned: string): boolean {
  return target.startsWith(mentioned) || mentioned.startsWith(target);
}
