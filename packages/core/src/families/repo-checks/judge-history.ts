import { hashPattern } from '../../scoring/probes';
import type { ExecRecord } from '../../scoring/types';
import type { CheckOf } from './config';
import { short, type Judged } from './judge-refs';

/** The checks judged on the repository's history and state: as found, the answer's commit, commits kept. */

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

/** repo_as_found: the states read before and after the attempt (JudgeContext's) agree, caches aside. */
export function judgeAsFound(ctx: { stateBefore?: string | undefined; stateAfter?: string | undefined }): Judged {
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

export function judgeAnswerCommit(check: CheckOf<'answer_commit'>, answer: string): Judged {
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
      detail:
        `the answer names ` +
        (wrong.length === named.length ? 'another commit' : 'other commits besides the first bad one') +
        `: ${wrong.join(', ')}`,
      actual: answer.slice(0, 300),
    };
  return { ok: true, detail: `the answer names ${short(check.expected)}` };
}

export function judgeCommits(check: CheckOf<'commits_preserved'>, record: ExecRecord): Judged {
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
  for (const [i, want] of check.messages.entries()) {
    // Two real commits may share a message (a contributor's "fix typo" twice): such a message is wanted as often as it
    // is listed.
    if (check.messages.indexOf(want) !== i) continue;
    const wanted = check.messages.filter((w) => w === want).length;
    const n = commits.filter((c) => matches(want, c)).length;
    if (n !== wanted)
      problems.push(`"${want.split('\n')[0]}" appears ${n} times${wanted > 1 ? ` (${wanted} wanted)` : ''}`);
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
