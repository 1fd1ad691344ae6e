import { shellQuote } from '../../shell-quote';
import type { Probe } from '../../scoring/types';
import type { StagedFiles } from '../sandbox-staging';
import type { RepoCheck } from './config';
import type { TestCheck } from './judge-tests';
import { namesGuard } from '../../scoring/ref-name-guard';
import { refNamesOf } from './ref-names';
import { TESTS_RUN_PY } from './tests-run-py.generated';

/** The look-up each check of a repo_checks task runs in the sandbox after the attempt (see checks.ts). */

const q = shellQuote;
/** A revision as one argument, peeled to a commit. */
const commitOf = (rev: string) => `git rev-parse -q --verify --end-of-options ${q(`${rev}^{commit}`)}`;

/** The test run's argument for tests-run.py: what to run, where the overlay's staged files are. */
function testSpec(check: TestCheck, stagedName: (asset: string) => string): string {
  const range = check.type === 'tests_pass_each' ? check.range : null;
  return JSON.stringify({
    rev: range === null ? (check as { rev: string }).rev : null,
    range,
    command: check.command,
    overlay: Object.entries(check.overlay).map(([path, asset]) => [path, stagedName(asset)]),
    pythonpath: check.pythonpath,
    timeout: check.timeout,
    max_commits: check.type === 'tests_pass_each' ? check.max_commits : 1,
    keep: check.type === 'tests_pass_each' ? 1500 : 6000,
  });
}

/**
 * The look-up a check needs, or null when it is judged without one (on the answer or the state reads):
 * it first makes sure each branch or tag name the check gives reads as one ref (scoring/ref-name-guard.ts).
 */
export function checkProbe(
  check: RepoCheck,
  id: string,
  staged: StagedFiles,
  stageDir: string,
  stagedName: (asset: string) => string,
): Probe | null {
  const probe = lookUp(check, id, staged, stageDir, stagedName);
  const guard = namesGuard(refNamesOf(check));
  return probe && guard ? { ...probe, command: `${guard}\n${probe.command}` } : probe;
}

function lookUp(
  check: RepoCheck,
  id: string,
  staged: StagedFiles,
  stageDir: string,
  stagedName: (asset: string) => string,
): Probe | null {
  switch (check.type) {
    case 'tests_pass':
    case 'tests_fail':
    case 'tests_pass_each': {
      const commits = check.type === 'tests_pass_each' ? check.max_commits : 1;
      const command = [
        `${staged.ready} || { echo 'the pinned files could not be staged' >&2; exit 5; }`,
        `/usr/bin/python3 -I -S -c ${q(TESTS_RUN_PY)} ${q(testSpec(check, stagedName))} ${stageDir}`,
      ].join('\n');
      return { id, command, timeoutMs: ((check.timeout + 10) * commits + 60) * 1000 };
    }
    case 'linear_onto':
      return {
        id,
        readOnly: true,
        command: [
          `o=$(${commitOf(check.onto)}) || { echo 'onto=missing'; exit 0; }`,
          `b=$(${commitOf(check.branch)}) || { echo 'branch=missing'; exit 0; }`,
          'if git merge-base --is-ancestor "$o" "$b"; then echo ancestor=yes; else echo ancestor=no; fi',
          'echo "merges=$(git rev-list --count --merges "$o..$b")"',
          'echo "commits=$(git rev-list --count "$o..$b")"',
        ].join('\n'),
      };
    case 'commits_preserved':
      // NUL ends each record: the id on the first line, the whole message after it.
      return {
        id,
        readOnly: true,
        command: `git log -z --reverse --format='%H%n%B' --end-of-options ${q(check.range)} --`,
      };
    case 'commit_count':
      return { id, readOnly: true, command: `git rev-list --count --end-of-options ${q(check.range)} --` };
    case 'no_conflict_markers':
      return {
        id,
        readOnly: true,
        command: [
          `c=$(${commitOf(check.rev)}) || exit 3`,
          // grep's exit 1 is "nothing found", the clean answer. A bare ======= line is a marker only
          // outside documentation, where it underlines a title.
          `git grep -I -n -E '^(<<<<<<<|>>>>>>>|\\|\\|\\|\\|\\|\\|\\|)( |$)' "$c" -- ; a=$?`,
          `git grep -I -n -E '^=======$' "$c" -- ':(exclude)*.rst' ` +
            `':(exclude)*.md' ':(exclude)*.txt' ':(exclude)*.adoc'; b=$?`,
          '[ $a -le 1 ] && [ $b -le 1 ]',
        ].join('\n'),
      };
    case 'ref_equals':
    case 'ref_exists':
      return { id, readOnly: true, command: commitOf(check.ref) };
    case 'tree_equals':
      return { id, readOnly: true, command: `git rev-parse -q --verify --end-of-options ${q(`${check.rev}^{tree}`)}` };
    case 'file_at':
      return {
        id,
        readOnly: true,
        command: [
          `o=$(git rev-parse -q --verify --end-of-options ${q(`${check.rev}:${check.path}`)}) || exit 3`,
          't=$(git cat-file -t "$o")',
          'echo "$t $o"',
          ...(check.contains !== undefined ? ['[ "$t" = blob ] && git cat-file blob "$o"'] : []),
          'true',
        ].join('\n'),
      };
    case 'worktree_file':
      return {
        id,
        readOnly: true,
        command:
          `if [ -f ${q(check.path)} ] && [ ! -L ${q(check.path)} ]; then ` +
          `git hash-object --no-filters -- ${q(check.path)}; else exit 3; fi`,
      };
    case 'remote_branch':
      return {
        id,
        readOnly: true,
        // The remote's objects and configuration are checked and put back as built before any look-up
        // (lookup-config.py, for every git directory the build made), so its refs are read as they are.
        // Its storage must be its own: a link in it (refs, objects, packed refs) or a commondir would
        // have it read another repository's, the clone's, which holds what was never pushed. Its ref
        // must be listed once, as every client of the server sees it: packed refs can list one name
        // twice, and rev-parse then reads one of them.
        command: [
          `d=${q(check.repository.replace(/\/$/, ''))}`,
          `[ -d "$d" ] && [ ! -L "$d" ] && git --git-dir="$d" rev-parse -q ` +
            `--git-dir >/dev/null 2>&1 || { echo 'repository=missing'; exit 0; }`,
          'case "$(cd "$d" && pwd -P)" in "$(pwd -P)/$d") ;; *) echo "linked=$d"; exit 0 ;; esac',
          'l=$(find "$d" -type l -print -quit); [ -z "$l" ] || { echo "linked=$l"; exit 0; }',
          '[ ! -e "$d/commondir" ] || { echo "linked=$d/commondir"; exit 0; }',
          `r=$(git --git-dir="$d" rev-parse -q --verify ` +
            `--end-of-options ${q(check.ref)}) || { echo 'ref=missing'; exit 0; }`,
          `t=$(git --git-dir="$d" rev-parse -q --verify ` +
            `--end-of-options ${q(`${check.ref}^{commit}`)}) || { echo 'ref=missing'; exit 0; }`,
          'echo "ref=$r"',
          `git --git-dir="$d" for-each-ref --format='%(refname) %(objectname)' ` +
            `| awk -v r=${q(check.ref)} '$1 == r { print "listed=" $2 }'`,
          'echo "tip=$t"',
          'echo "tree=$(git --git-dir="$d" rev-parse -q --verify "$t^{tree}")"',
          `for c in ${check.contains.join(' ')}; do if git --git-dir="$d" merge-base ` +
            `--is-ancestor "$c" "$t" 2>/dev/null; then echo "has=$c"; else echo "lacks=$c"; fi; done`,
        ].join('\n'),
      };
    case 'stash_entries':
      // Every entry of the stash's reflog (what `git stash list` shows), newest first: the commit, its
      // tree and its parents (a stash has two or three). refs/stash and its reflog must be the
      // repository's own (no link, not a symbolic ref), and the newest entry what refs/stash holds.
      return {
        id,
        readOnly: true,
        command: [
          'git rev-parse -q --verify refs/stash >/dev/null || exit 0',
          'c=$(git rev-parse --git-common-dir) || exit 3',
          'for p in refs refs/stash logs logs/refs logs/refs/stash; ' +
            'do [ ! -L "$c/$p" ] || { echo "linked=$p"; exit 0; }; done',
          'if git symbolic-ref -q refs/stash >/dev/null; then echo linked=symbolic; exit 0; fi',
          'echo "ref=$(git rev-parse -q --verify refs/stash)"',
          "git reflog show --format='%H %T %P' refs/stash --",
        ].join('\n'),
      };
    case 'absent_everywhere':
      return {
        id,
        readOnly: true,
        command: [
          'set -o pipefail',
          // Every object any ref reaches (commits and tag messages, trees' names, blobs), as stored.
          `n=$(git rev-list --objects --all | cut -d' ' -f1 | git ` +
            `cat-file --batch | grep -c -F -e ${q(check.text)}); s=$?`,
          '[ $s -le 1 ] || exit 4',
          'echo "matches=$n"',
        ].join('\n'),
      };
    case 'tag_message':
      return {
        id,
        readOnly: true,
        command: [
          `o=$(git rev-parse -q --verify --end-of-options ${q(`refs/tags/${check.tag}`)}) ` +
            `|| { echo 'tag=missing'; exit 0; }`,
          'echo "type=$(git cat-file -t "$o")"',
          'git cat-file tag "$o" 2>/dev/null',
          'true',
        ].join('\n'),
      };
    case 'note':
      return {
        id,
        readOnly: true,
        command: [
          `c=$(${commitOf(check.rev)}) || { echo 'rev=missing'; exit 0; }`,
          `n=$(git notes --ref=${q(check.ref)} list "$c" 2>/dev/null) ` +
            `&& [ -n "$n" ] || { echo 'note=missing'; exit 0; }`,
          'echo note=found',
          'git cat-file blob "$n"',
        ].join('\n'),
      };
    case 'identities':
      return {
        id,
        readOnly: true,
        command: [
          "git log --all --format='%an <%ae>%n%cn <%ce>'",
          "git for-each-ref --format='%(if)%(taggername)%(then)%(taggername) %(taggeremail)%(end)' refs/tags",
        ].join('\n'),
      };
    case 'answer_commit':
    case 'repo_as_found':
      return null;
  }
}
