import { shellQuote } from '../../shell-quote';
import type { ExecRecord } from '../../scoring/types';
import type { RepoCheck } from './config';
import type { Judged } from './judge-refs';

/**
 * A check names branches and tags by their short names (main, v7.0.0, 1.2.x), and git resolves a short
 * name by the first of several places that holds it: a file of that name in the git directory, then
 * refs/<name>, refs/tags/<name>, refs/heads/<name>, refs/remotes/<name>. A model that cannot make the
 * branch main right can make one of the earlier places name a commit that is right (refs/main, .git/main,
 * a tag main), and every look-up that says `main` reads that one. So before its look-up, each check
 * makes sure every short name it uses reads as one ref only, the way git itself names refs: the ref the
 * name resolves to must shorten back to the name (%(refname:short) lengthens it, to heads/main, when
 * another ref has the same short name). A name that does not is a failed check, saying so.
 */

export const AMBIGUOUS_MARK = '@@ambiguous ';

/** The revisions a check gives, as written; tag_message reads refs/tags/<tag> by its full name. */
function revisionsOf(check: RepoCheck): string[] {
  switch (check.type) {
    case 'tests_pass':
    case 'tests_fail':
    case 'no_conflict_markers':
    case 'tree_equals':
    case 'file_at':
    case 'note':
      return [check.rev];
    case 'tests_pass_each':
    case 'commits_preserved':
    case 'commit_count':
      return [check.range];
    case 'linear_onto':
      return [check.branch, check.onto];
    case 'ref_equals':
    case 'ref_exists':
      return [check.ref];
    default:
      return [];
  }
}

/**
 * The short ref names in a check's revisions: each side of a range, without its suffixes (~2, ^, ^{tree},
 * :path, @{1}). Full names (refs/...), HEAD and its kin, and object ids name one thing already.
 */
export function refNamesOf(check: RepoCheck): string[] {
  const names = revisionsOf(check)
    .flatMap((rev) => rev.split(/\.{2,3}/))
    .map((side) => /^[^~^:@]*/.exec(side.replace(/^\^/, ''))![0])
    .filter((name) => name !== '' && !name.startsWith('refs/') && !/^[A-Z_]*HEAD$/.test(name))
    .filter((name) => !/^[0-9a-f]{4,40}$/.test(name));
  return [...new Set(names)];
}

/**
 * Shell lines, run first in a check's look-up: they print the mark and end it at the first ambiguous name.
 * A name that names nothing is left to the check, which says so; git gives no full name for one that
 * names more than one ref, and the full name of one that is sound shortens back to it.
 */
export function namesGuard(names: string[]): string {
  if (names.length === 0) return '';
  return [
    `for n in ${names.map(shellQuote).join(' ')}; do`,
    '  git rev-parse -q --verify --end-of-options "$n" >/dev/null 2>&1 || continue',
    '  f=$(git rev-parse -q --verify --symbolic-full-name --end-of-options "$n" 2>/dev/null)',
    `  s=$([ -z "$f" ] || git -c core.warnAmbiguousRefs=true for-each-ref --format='%(refname:short)' "$f" 2>/dev/null)`,
    `  [ -n "$f" ] && [ "$s" = "$n" ] || { printf '${AMBIGUOUS_MARK}%s %s\\n' "$n" "\${f:-?}"; exit 0; }`,
    'done',
  ].join('\n');
}

/** The failed check a look-up that met an ambiguous name reports, or null when its names were sound. */
export function judgeAmbiguous(record: ExecRecord): Judged | null {
  if (!record.stdout.startsWith(AMBIGUOUS_MARK)) return null;
  const [name, resolved] = record.stdout.slice(AMBIGUOUS_MARK.length).trim().split(' ');
  const as =
    resolved && resolved !== '?'
      ? `it reads as ${resolved}, not as the branch or tag of that name`
      : 'it names more than one ref';
  return {
    ok: false,
    detail: `${name} is ambiguous: ${as} (a ref or a file of the same short name shadows it)`,
  };
}
