import { readsOnly } from '../probes';
import { gitCommandRefNames, namesGuard } from '../ref-name-guard';
import { pySplitWhitespace } from '../python-text';
import { shellArg } from '../../shell-quote';
import { ASSERTION_TYPES, type Probe } from '../types';

/** One entry of a fixture's `expected_state.assertions`, as written (checked field by field where used). */
export type Assertion = Record<string, unknown>;

export const isText = (value: unknown): value is string => typeof value === 'string';
const q = shellArg;

export const KNOWN_ASSERTION_TYPES: Record<string, true> = Object.fromEntries(ASSERTION_TYPES.map((t) => [t, true]));

const READ_FILE = (path: string) => `if test -f ${q(path)}; then cat -- ${q(path)}; else exit 3; fi`;

/** Upstream joins the path to the repository: an empty one names the repository directory itself. */
const inRepo = (path: string) => (path === '' ? './' : path);

/** The look-up an assertion needs, and whether it only reads; null when it is decided without the sandbox. */
export function lookUpFor(a: Assertion): Omit<Probe, 'id'> | null {
  const command = probeFor(a);
  if (command === null) return null;
  // Every form but git_output's is one of the tests and reads above; a git_output command is the fixture's own.
  const readOnly = a.type !== 'git_output' || (isText(a.command) && readsOnly(pySplitWhitespace(a.command)));
  return { command, ...(readOnly ? { readOnly: true } : {}) };
}

/** The look-up an assertion needs, or null when it is decided without the sandbox. */
export function probeFor(a: Assertion): string | null {
  switch (a.type) {
    case 'file_exists':
    case 'file_not_exists':
      return isText(a.path) ? `test -f ${q(inRepo(a.path))}` : null;
    case 'dir_exists':
    case 'dir_not_exists':
      return isText(a.path) ? `test -d ${q(inRepo(a.path))}` : null;
    case 'file_content':
    case 'file_not_contains':
      return isText(a.path) ? READ_FILE(inRepo(a.path)) : null;
    case 'branch_exists': {
      if (!isText(a.name)) return null;
      const list = `git branch --list ${q(a.name)}`;
      return isText(a.in_worktree) && a.in_worktree !== '' ? `cd -- ${q(a.in_worktree)} || exit 3; ${list}` : list;
    }
    case 'git_config':
      return isText(a.key) ? `git config --get ${q(a.key)}` : null;
    case 'git_output': {
      // Upstream runs command.split() without a shell: every word is quoted so none is expanded.
      const words = isText(a.command) ? pySplitWhitespace(a.command) : [];
      if (words.length === 0) return null;
      // A branch or tag the command names must read as that ref, not as one the model made to shadow it.
      const { names, git } = gitCommandRefNames(words);
      const guard = namesGuard(names, git);
      return `${guard ? `${guard}\n` : ''}${words.map(q).join(' ')}`;
    }
    default:
      return null;
  }
}
