import { shellQuote } from '../../shell-quote';
import { hashPattern } from '../../scoring/probes';
import type { ExecRecord, Probe } from '../../scoring/types';
import type { StagedFiles } from '../sandbox-staging';
import type { CheckOf, RepoCheck } from './config';
import { judgeNote, judgeRemoteBranch, judgeStash, judgeTagMessage, lines, short, type Judged } from './judge-refs';
import { TESTS_RUN_PY } from './tests-run-py.generated';

/**
 * Each check of a repo_checks task: the look-up it runs in the sandbox after the attempt (with the
 * look-ups' environment, once the model's processes are gone, its configuration rewritten and every
 * object checked against its name) and how its record is judged. Git look-ups read the object
 * database and refs only (never the working tree, except worktree_file, which is about it); the test
 * checks run in a tree written out of the object database (tests-run.py).
 */

export type { Judged } from './judge-refs';

/** What a check is judged on besides its own record. */
export interface JudgeContext {
  /** The model's answer (a single answer's text, or what an agent submitted). */
  answer: string;
  /** The repository's canonical state as the build left it, and after the attempt. */
  stateBefore?: string | undefined;
  stateAfter?: string | undefined;
}

export const TESTS_MARK = '@@gitbench-tests ';
const q = shellQuote;
/** A revision as one argument, peeled to a commit. */
const commitOf = (rev: string) => `git rev-parse -q --verify --end-of-options ${q(`${rev}^{commit}`)}`;

type TestCheck = CheckOf<'tests_pass'> | CheckOf<'tests_fail'> | CheckOf<'tests_pass_each'>;

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

/** The look-up a check needs, or null when it is judged without one (on the answer or the state reads). */
export function checkProbe(
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
          `git grep -I -n -E '^=======$' "$c" -- ':(exclude)*.rst' ':(exclude)*.md' ':(exclude)*.txt' ':(exclude)*.adoc'; b=$?`,
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
        command: `if [ -f ${q(check.path)} ] && [ ! -L ${q(check.path)} ]; then git hash-object --no-filters -- ${q(check.path)}; else exit 3; fi`,
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
          `[ -d "$d" ] && [ ! -L "$d" ] && git --git-dir="$d" rev-parse -q --git-dir >/dev/null 2>&1 || { echo 'repository=missing'; exit 0; }`,
          'case "$(cd "$d" && pwd -P)" in "$(pwd -P)/$d") ;; *) echo "linked=$d"; exit 0 ;; esac',
          'l=$(find "$d" -type l -print -quit); [ -z "$l" ] || { echo "linked=$l"; exit 0; }',
          '[ ! -e "$d/commondir" ] || { echo "linked=$d/commondir"; exit 0; }',
          `r=$(git --git-dir="$d" rev-parse -q --verify --end-of-options ${q(check.ref)}) || { echo 'ref=missing'; exit 0; }`,
          `t=$(git --git-dir="$d" rev-parse -q --verify --end-of-options ${q(`${check.ref}^{commit}`)}) || { echo 'ref=missing'; exit 0; }`,
          'echo "ref=$r"',
          `git --git-dir="$d" for-each-ref --format='%(refname) %(objectname)' | awk -v r=${q(check.ref)} '$1 == r { print "listed=" $2 }'`,
          'echo "tip=$t"',
          'echo "tree=$(git --git-dir="$d" rev-parse -q --verify "$t^{tree}")"',
          `for c in ${check.contains.join(' ')}; do if git --git-dir="$d" merge-base --is-ancestor "$c" "$t" 2>/dev/null; then echo "has=$c"; else echo "lacks=$c"; fi; done`,
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
          'for p in refs refs/stash logs logs/refs logs/refs/stash; do [ ! -L "$c/$p" ] || { echo "linked=$p"; exit 0; }; done',
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
          `n=$(git rev-list --objects --all | cut -d' ' -f1 | git cat-file --batch | grep -c -F -e ${q(check.text)}); s=$?`,
          '[ $s -le 1 ] || exit 4',
          'echo "matches=$n"',
        ].join('\n'),
      };
    case 'tag_message':
      return {
        id,
        readOnly: true,
        command: [
          `o=$(git rev-parse -q --verify --end-of-options ${q(`refs/tags/${check.tag}`)}) || { echo 'tag=missing'; exit 0; }`,
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
          `n=$(git notes --ref=${q(check.ref)} list "$c" 2>/dev/null) && [ -n "$n" ] || { echo 'note=missing'; exit 0; }`,
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

/** tests-run.py's marker records, in order. */
export function testRecords(stdout: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith(TESTS_MARK)) continue;
    try {
      const value: unknown = JSON.parse(line.slice(TESTS_MARK.length));
      if (value && typeof value === 'object' && !Array.isArray(value)) records.push(value as Record<string, unknown>);
    } catch {
      // A marker line is written whole by the harness; one cut by the output cap is not a record.
    }
  }
  return records;
}

interface CommitRun {
  commit: string;
  subject: string;
  exit?: number;
  timedOut: boolean;
  error?: string;
  counts: Record<string, number> | null;
}

function runsOf(
  stdout: string,
): { commits: { commit: string; subject: string }[]; runs: CommitRun[] } | { error: string } {
  const records = testRecords(stdout);
  const head = records[0];
  if (!head) return { error: 'the test harness printed no record' };
  if (typeof head.error === 'string') return { error: head.error };
  const commits = Array.isArray(head.commits)
    ? (head.commits as unknown[]).filter((c): c is { commit: string; subject: string } => !!c && typeof c === 'object')
    : [];
  const runs = records.slice(1).map((r) => ({
    commit: String(r.commit ?? ''),
    subject: commits.find((c) => c.commit === r.commit)?.subject ?? '',
    ...(typeof r.exit === 'number' ? { exit: r.exit } : {}),
    timedOut: r.timed_out === true,
    ...(typeof r.error === 'string' ? { error: r.error } : {}),
    counts: r.counts && typeof r.counts === 'object' ? (r.counts as Record<string, number>) : null,
  }));
  return { commits, runs };
}

function describeRun(run: CommitRun): string {
  if (run.error !== undefined) return `${short(run.commit)}: ${run.error}`;
  if (run.timedOut) return `${short(run.commit)}: timed out`;
  const tally = run.counts
    ? ` (${Object.entries(run.counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')})`
    : '';
  return `${short(run.commit)}: exit ${run.exit}${tally}`;
}

function judgeTests(check: TestCheck, record: ExecRecord): Judged {
  if (record.exitCode === 5)
    return { ok: false, detail: 'the pinned test files could not be staged', actual: record.stderr };
  const parsed = runsOf(record.stdout);
  if ('error' in parsed)
    return { ok: false, detail: parsed.error, actual: record.stderr || record.stdout.slice(-2000) };
  const { commits, runs } = parsed;
  const output = record.stdout.slice(-4000);
  if (runs.length !== commits.length)
    return {
      ok: false,
      detail: `tests ran at ${runs.length} of ${commits.length} commit(s)${record.timedOut ? ' before the time limit' : ''}`,
      actual: output,
    };
  if (check.type === 'tests_pass_each') {
    if (commits.length < check.min_commits)
      return {
        ok: false,
        detail: `${check.range} holds ${commits.length} commit(s); at least ${check.min_commits} expected`,
      };
    const failing = runs.filter(
      (r) => !check.except_subjects.includes(r.subject) && (r.error !== undefined || r.timedOut || r.exit !== 0),
    );
    const exempt = runs.filter((r) => check.except_subjects.includes(r.subject)).length;
    return failing.length === 0
      ? {
          ok: true,
          detail: `tests pass at all ${runs.length - exempt} commit(s) of ${check.range}${exempt ? ` (${exempt} exempt)` : ''}`,
        }
      : {
          ok: false,
          detail: `tests fail at ${failing.length} of ${runs.length} commit(s): ${failing.map(describeRun).join('; ')}`,
          actual: output,
        };
  }
  const run = runs[0]!;
  if (run.error !== undefined || run.timedOut) return { ok: false, detail: describeRun(run), actual: output };
  if (check.type === 'tests_fail') {
    // pytest's 1 is "tests failed"; a usage error, no tests, an interrupted run or a missing program is not a failing test.
    const ok = run.exit === 1;
    return {
      ok,
      detail: ok
        ? `tests fail at ${short(run.commit)}, as they must`
        : `expected failing tests (exit 1) at ${describeRun(run)}`,
      actual: output,
    };
  }
  if (run.exit !== 0) return { ok: false, detail: `tests fail at ${describeRun(run)}`, actual: output };
  if (check.expect_passed !== undefined) {
    const c = run.counts;
    const ok = !!c && c.passed === check.expect_passed && !c.failed && !c.errors;
    if (!ok)
      return {
        ok: false,
        detail: `expected ${check.expect_passed} passed tests, the run reports ${c ? JSON.stringify(c) : 'no pytest summary'}`,
        actual: output,
      };
  }
  return { ok: true, detail: `tests pass at ${describeRun(run)}` };
}

/** Sections of a repository state (REPO_STATE_SCRIPT) that "as found" compares; reflogs may grow. */
const FOUND_SECTIONS = ['HEAD', 'refs', 'index', 'unmerged', 'in-progress', 'stash', 'worktree'];
/** Caches a test run leaves (ignored by every project's .gitignore) do not count as a change. */
const CACHE_PATH = /\/(__pycache__|\.pytest_cache)(\/|$)|\.pyc$/;

function foundSections(state: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of state.split('\n')) {
    const header = /^== (.+)$/.exec(line);
    if (header) {
      current = FOUND_SECTIONS.includes(header[1]!) ? [] : null;
      if (current) sections.set(header[1]!, current);
    } else if (current && line !== '' && !CACHE_PATH.test(line)) {
      current.push(line);
    }
  }
  return sections;
}

function judgeAsFound(ctx: JudgeContext): Judged {
  if (ctx.stateBefore === undefined || ctx.stateAfter === undefined)
    return { ok: false, detail: 'the repository state before or after the attempt was not read' };
  const before = foundSections(ctx.stateBefore);
  const after = foundSections(ctx.stateAfter);
  const changed: string[] = [];
  for (const name of FOUND_SECTIONS) {
    const b = before.get(name) ?? [];
    const a = after.get(name) ?? [];
    if (b.join('\n') === a.join('\n')) continue;
    const gone = b.filter((l) => !a.includes(l));
    const added = a.filter((l) => !b.includes(l));
    changed.push(
      `${name}: ${[...gone.slice(0, 3).map((l) => `- ${l}`), ...added.slice(0, 3).map((l) => `+ ${l}`)].join('; ')}`,
    );
  }
  return changed.length === 0
    ? {
        ok: true,
        detail: 'HEAD, refs, index, working tree, stash and operations in progress are as the task found them',
      }
    : {
        ok: false,
        detail: `the repository was not left as found (${changed.map((c) => c.split(':')[0]).join(', ')} changed)`,
        actual: changed.join('\n'),
      };
}

function judgeAnswerCommit(check: CheckOf<'answer_commit'>, answer: string): Judged {
  const named = [...new Set((answer.match(hashPattern()) ?? []).map((h) => h.toLowerCase()))];
  if (named.length === 0)
    return {
      ok: false,
      detail: 'the answer names no commit id (7 to 40 hexadecimal characters)',
      actual: answer.slice(0, 300),
    };
  const wrong = named.filter((h) => !check.expected.startsWith(h));
  if (wrong.length > 0)
    return {
      ok: false,
      detail: `the answer names ${wrong.length === named.length ? 'another commit' : 'other commits besides the first bad one'}: ${wrong.join(', ')}`,
      actual: answer.slice(0, 300),
    };
  return { ok: true, detail: `the answer names ${short(check.expected)}` };
}

function judgeCommits(check: CheckOf<'commits_preserved'>, record: ExecRecord): Judged {
  if (record.exitCode !== 0)
    return { ok: false, detail: `${check.range} cannot be listed (exit ${record.exitCode})`, actual: record.stderr };
  const commits = record.stdout
    .split('\0')
    .filter((r) => r.trim() !== '')
    .map((r) => {
      const nl = r.indexOf('\n');
      const message = r.slice(nl + 1).replace(/\s+$/, '');
      return { oid: r.slice(0, nl).trim(), message, subject: message.split('\n')[0] ?? '' };
    });
  const matches = (want: string, c: { message: string; subject: string }) =>
    want.trim().includes('\n') ? c.message === want.replace(/\s+$/, '') : c.subject === want.trim();
  const problems: string[] = [];
  for (const want of check.messages) {
    const n = commits.filter((c) => matches(want, c)).length;
    if (n !== 1) problems.push(`"${want.split('\n')[0]}" appears ${n} times`);
  }
  const order = commits.map((c) => check.messages.findIndex((w) => matches(w, c))).filter((i) => i >= 0);
  if (problems.length === 0 && order.some((v, i) => i > 0 && v < order[i - 1]!))
    problems.push('the commits are not in their original order');
  const extra = commits.filter((c) => !check.messages.some((w) => matches(w, c)));
  if (!check.allow_extra && extra.length > 0)
    problems.push(
      `${extra.length} other commit(s): ${extra
        .slice(0, 3)
        .map((c) => `"${c.subject}"`)
        .join(', ')}`,
    );
  return problems.length === 0
    ? { ok: true, detail: `each of the ${check.messages.length} commit(s) appears once, in order, with its message` }
    : { ok: false, detail: problems.join('; '), actual: commits.map((c) => `${short(c.oid)} ${c.subject}`).join('\n') };
}

/** Whether a check holds, from its record (null for the checks that run no look-up). */
export function judgeCheck(check: RepoCheck, record: ExecRecord | undefined, ctx: JudgeContext): Judged {
  if (check.type === 'answer_commit') return judgeAnswerCommit(check, ctx.answer);
  if (check.type === 'repo_as_found') return judgeAsFound(ctx);
  if (!record) return { ok: false, detail: 'no sandbox evidence for this check; the attempt was not run in a sandbox' };
  if (record.timedOut && check.type !== 'tests_pass' && check.type !== 'tests_fail' && check.type !== 'tests_pass_each')
    return { ok: false, detail: 'the look-up timed out' };
  const out = record.stdout.trim();
  switch (check.type) {
    case 'tests_pass':
    case 'tests_fail':
    case 'tests_pass_each':
      return judgeTests(check, record);
    case 'linear_onto': {
      const facts = Object.fromEntries(lines(out).map((l) => l.split('=') as [string, string]));
      if (facts.onto === 'missing') return { ok: false, detail: `${check.onto} does not name a commit` };
      if (facts.branch === 'missing') return { ok: false, detail: `${check.branch} does not name a commit` };
      if (facts.ancestor !== 'yes') return { ok: false, detail: `${check.branch} is not based on ${check.onto}` };
      if (facts.merges !== '0')
        return { ok: false, detail: `${check.branch} has ${facts.merges} merge commit(s) on top of ${check.onto}` };
      return { ok: true, detail: `${check.branch} is ${facts.commits} commit(s) in a line on ${check.onto}` };
    }
    case 'commits_preserved':
      return judgeCommits(check, record);
    case 'commit_count': {
      if (record.exitCode !== 0)
        return { ok: false, detail: `${check.range} cannot be counted`, actual: record.stderr };
      const ok = out === String(check.equals);
      return { ok, detail: `${check.range} holds ${out} commit(s)${ok ? '' : `, ${check.equals} expected`}` };
    }
    case 'no_conflict_markers':
      if (record.exitCode !== 0)
        return { ok: false, detail: `${check.rev} does not name a commit`, actual: record.stderr };
      return out === ''
        ? { ok: true, detail: `no conflict marker line in ${check.rev}` }
        : { ok: false, detail: `conflict marker lines in ${check.rev}`, actual: out.slice(0, 2000) };
    case 'ref_equals':
      if (record.exitCode !== 0) return { ok: false, detail: `${check.ref} does not exist` };
      return out === check.commit
        ? { ok: true, detail: `${check.ref} is ${short(check.commit)}` }
        : { ok: false, detail: `${check.ref} is ${short(out)}, not ${short(check.commit)}` };
    case 'ref_exists':
      return record.exitCode === 0
        ? { ok: true, detail: `${check.ref} exists (${short(out)})` }
        : { ok: false, detail: `${check.ref} does not name a commit` };
    case 'tree_equals':
      if (record.exitCode !== 0) return { ok: false, detail: `${check.rev} does not name a commit` };
      return out === check.tree
        ? { ok: true, detail: `the tree of ${check.rev} is ${short(check.tree)}` }
        : { ok: false, detail: `the tree of ${check.rev} is ${short(out)}, not ${short(check.tree)}` };
    case 'file_at': {
      if (record.exitCode !== 0) return { ok: false, detail: `${check.rev} has no ${check.path}` };
      const nl = record.stdout.indexOf('\n');
      const [kind, oid] = record.stdout.slice(0, nl).split(' ');
      if (kind !== 'blob') return { ok: false, detail: `${check.path} in ${check.rev} is a ${kind}, not a file` };
      if (check.blob !== undefined)
        return oid === check.blob
          ? { ok: true, detail: `${check.path} in ${check.rev} has the expected content` }
          : { ok: false, detail: `${check.path} in ${check.rev} is ${short(oid ?? '')}, not ${short(check.blob)}` };
      const found = record.stdout.slice(nl + 1).includes(check.contains!);
      return { ok: found, detail: `${check.path} in ${check.rev} ${found ? 'contains' : 'does not contain'} the text` };
    }
    case 'worktree_file':
      if (record.exitCode !== 0) return { ok: false, detail: `${check.path} is not a file in the working tree` };
      return out === check.blob
        ? { ok: true, detail: `${check.path} in the working tree has the expected content` }
        : { ok: false, detail: `${check.path} in the working tree is ${short(out)}, not ${short(check.blob)}` };
    case 'absent_everywhere': {
      if (record.exitCode !== 0)
        return {
          ok: false,
          detail: `the objects could not be searched (exit ${record.exitCode})`,
          actual: record.stderr,
        };
      const n = /^matches=(\d+)$/.exec(out)?.[1];
      return n === '0'
        ? { ok: true, detail: 'no object any ref reaches contains the text' }
        : { ok: false, detail: `${n ?? '?'} line(s) of objects that refs reach still contain the text` };
    }
    case 'remote_branch':
      return judgeRemoteBranch(check, out);
    case 'tag_message':
      return judgeTagMessage(check, record);
    case 'note':
      return judgeNote(check, record);
    case 'stash_entries':
      return judgeStash(check, record);
    case 'identities': {
      if (record.exitCode !== 0)
        return { ok: false, detail: 'the identities could not be listed', actual: record.stderr };
      const seen = [...new Set(lines(record.stdout))];
      const stray = seen.filter((who) => !check.allowed.includes(who));
      return stray.length === 0
        ? { ok: true, detail: `every author, committer and tagger is one of the ${check.allowed.length} allowed` }
        : {
            ok: false,
            detail: `identities that must not remain: ${stray.slice(0, 5).join(', ')}`,
            actual: seen.join('\n'),
          };
    }
  }
}

/** One line naming a check, for the attempt's checks list. */
export function describeCheck(check: RepoCheck): string {
  switch (check.type) {
    case 'tests_pass':
    case 'tests_fail':
      return `${check.type} at ${check.rev}`;
    case 'tests_pass_each':
      return `tests_pass_each over ${check.range}`;
    case 'linear_onto':
      return `linear_onto ${check.branch} on ${check.onto}`;
    case 'commits_preserved':
    case 'commit_count':
      return `${check.type} ${check.range}`;
    case 'no_conflict_markers':
    case 'tree_equals':
      return `${check.type} ${check.rev}`;
    case 'ref_equals':
    case 'ref_exists':
      return `${check.type} ${check.ref}`;
    case 'file_at':
      return `file_at ${check.rev}:${check.path}`;
    case 'worktree_file':
      return `worktree_file ${check.path}`;
    case 'absent_everywhere':
      return 'absent_everywhere (the text)';
    case 'remote_branch':
      return `remote_branch ${check.ref} in ${check.repository}`;
    case 'stash_entries':
      return `stash_entries (${check.trees.length})`;
    case 'tag_message':
      return `tag_message ${check.tag}`;
    case 'note':
      return `note on ${check.rev}${check.ref === 'refs/notes/commits' ? '' : ` (${check.ref})`}`;
    default:
      return check.type;
  }
}
