import type { ExecRecord } from '../../scoring/types';
import type { RepoCheck } from './config';
import { judgeNote, judgeRemoteBranch, judgeStash, judgeTagMessage, lines, short, type Judged } from './judge-refs';
import { judgeAnswerCommit, judgeAsFound, judgeCommits } from './judge-history';
import { judgeTests } from './judge-tests';
import { judgeAmbiguous } from '../../scoring/ref-name-guard';

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

export { checkProbe } from './check-probes';
export { TESTS_MARK, testRecords } from './judge-tests';

/** Whether a check holds, from its record (null for the checks that run no look-up). */
export function judgeCheck(check: RepoCheck, record: ExecRecord | undefined, ctx: JudgeContext): Judged {
  if (check.type === 'answer_commit') return judgeAnswerCommit(check, ctx.answer);
  if (check.type === 'repo_as_found') return judgeAsFound(ctx);
  if (!record) return { ok: false, detail: 'no sandbox evidence for this check; the attempt was not run in a sandbox' };
  const ambiguous = judgeAmbiguous(record);
  if (ambiguous) return ambiguous;
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
