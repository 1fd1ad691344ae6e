import { shellArg, shellQuote } from '../shell-quote';
import type { ExecRecord } from './types';

/**
 * A look-up names branches and tags by their short names (main, v7.0.0, 1.2.x), and git resolves a short
 * name by the first of several places that holds it: a file of that name in the git directory, then
 * refs/<name>, refs/tags/<name>, refs/heads/<name>, refs/remotes/<name>. A model that cannot make the
 * branch main right can make one of the earlier places name a commit that is right (refs/main, .git/main,
 * a tag main), and every look-up that says `main` reads that one. A full name has the same weakness once
 * the ref itself is gone: git then reads refs/heads/main as refs/heads/refs/heads/main. So before a
 * look-up that gives names, the guard makes sure every name reads as one ref, the way git itself names
 * refs: a short name's ref must shorten back to the name (%(refname:short), strict, lengthens it to
 * heads/main when another ref has the same short name), a full name must be the ref it reads. A name
 * that does not is a failed look-up, saying so. Every scorer that reads revisions a fixture names uses
 * this one guard: repo_checks' checks and state_assertions' git_output commands.
 */

export const AMBIGUOUS_MARK = '@@ambiguous ';

/**
 * The ref names in revisions: each side of a range, without its suffixes (~2, ^, ^{tree}, :path, @{1}).
 * HEAD and its kin (git reads the git directory's own file first) and object ids name one thing already.
 */
export function refNamesIn(revisions: string[]): string[] {
  const names = revisions
    .flatMap((rev) => rev.split(/\.{2,3}/))
    .map((side) => /^[^~^:@]*/.exec(side.replace(/^\^/, ''))![0])
    .filter((name) => name !== '' && !/^[A-Z_]*HEAD$/.test(name))
    .filter((name) => !/^[0-9a-f]{4,40}$/.test(name));
  return [...new Set(names)];
}

/**
 * Shell lines, run first in a look-up: they print the mark and end it at the first name that does not
 * read as one ref. A name that names nothing is left to the look-up, which says so; git gives no full name
 * for one that names more than one ref (exit 0, nothing printed). `git` is how the look-up itself calls
 * git (`git -C <dir>` reads the refs of the repository the look-up reads).
 */
export function namesGuard(names: string[], git = 'git'): string {
  if (names.length === 0) return '';
  return [
    `for n in ${names.map(shellQuote).join(' ')}; do`,
    `  f=$(${git} rev-parse -q --verify --symbolic-full-name --end-of-options "$n" 2>/dev/null) || continue`,
    '  case $n in',
    '  refs/*) s=$f ;;',
    `  *) s=$([ -z "$f" ] || ${git} -c core.warnAmbiguousRefs=true ` +
      `for-each-ref --format='%(refname:short)' "$f" 2>/dev/null) ;;`,
    '  esac',
    `  [ -n "$f" ] && [ "$s" = "$n" ] || { printf '${AMBIGUOUS_MARK}%s %s\\n' "$n" "\${f:-?}"; exit 0; }`,
    'done',
  ].join('\n');
}

/** The failed look-up a guard that met an ambiguous name reports, or null when its names were sound. */
export function judgeAmbiguous(record: ExecRecord): { ok: false; detail: string } | null {
  if (!record.stdout.startsWith(AMBIGUOUS_MARK)) return null;
  const [name, resolved] = record.stdout.slice(AMBIGUOUS_MARK.length).split('\n')[0]!.trim().split(' ');
  const as =
    resolved && resolved !== '?'
      ? `it reads as ${resolved}, not as the branch or tag of that name`
      : 'it names more than one ref';
  return {
    ok: false,
    detail: `${name} is ambiguous: ${as} (a ref or a file of the same short name shadows it)`,
  };
}

/** git's options before the command that take the next word as their value. */
const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env']);
/** Commands whose words after the options are never revisions: paths, patterns, remotes, keys. */
const NO_REVISIONS = new Set([
  'status',
  'ls-files',
  'ls-remote',
  'fetch',
  'pull',
  'push',
  'clone',
  'tag',
  'branch',
  'worktree',
  'config',
  'remote',
  'submodule',
  'symbolic-ref',
  'check-ignore',
  'check-attr',
]);
/** Commands whose first word is a subcommand of theirs (git stash show stash@{1}, git notes show main). */
const WITH_SUBCOMMAND = new Set(['stash', 'notes', 'bisect']);
/** Options that take a revision, as --opt=<rev> or --opt <rev>, whatever the command. */
const REVISION_OPTIONS = new Set(['--points-at', '--contains', '--no-contains', '--merged', '--no-merged']);

/**
 * The ref names a git command line reads, and how it calls git (its options before the command, so the
 * guard reads the same repository): the command's words before `--` that are not options, unless the
 * command takes none as revisions, and the values of options that take one. Words that are not revisions
 * (a path, a count) name no ref, and the guard leaves a name that names nothing to the command.
 */
export function gitCommandRefNames(words: string[]): { names: string[]; git: string } {
  if (words[0] !== 'git') return { names: [], git: 'git' };
  let i = 1;
  const global: string[] = [];
  while (i < words.length && words[i]!.startsWith('-')) {
    global.push(words[i]!);
    if (GLOBAL_WITH_VALUE.has(words[i]!) && i + 1 < words.length) global.push(words[++i]!);
    i++;
  }
  const command = words[i++];
  if (command === undefined) return { names: [], git: 'git' };
  if (WITH_SUBCOMMAND.has(command)) i++;
  const revisions: string[] = [];
  for (; i < words.length && words[i] !== '--'; i++) {
    const word = words[i]!;
    const [option, value] = word.split(/=(.*)/s);
    if (REVISION_OPTIONS.has(option!)) {
      if (value !== undefined) revisions.push(value);
      else if (i + 1 < words.length) revisions.push(words[++i]!);
    } else if (!word.startsWith('-') && !NO_REVISIONS.has(command)) revisions.push(word);
  }
  return { names: refNamesIn(revisions), git: ['git', ...global].map(shellArg).join(' ') };
}
