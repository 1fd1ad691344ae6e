import type { ExecRecord } from '../../scoring/types';
import type { CheckOf } from './config';
import { short, type Judged } from './judge-refs';

/** tests-run.py's records, in the test checks' look-ups' output, and how a test check is judged on them. */

export const TESTS_MARK = '@@gitbench-tests ';

export type TestCheck = CheckOf<'tests_pass'> | CheckOf<'tests_fail'> | CheckOf<'tests_pass_each'>;

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

export function judgeTests(check: TestCheck, record: ExecRecord): Judged {
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
      detail:
        `tests ran at ${runs.length} of ${commits.length} ` +
        `commit(s)${record.timedOut ? ' before the time limit' : ''}`,
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
          detail:
            `tests pass at all ${runs.length - exempt} commit(s) ` +
            `of ${check.range}${exempt ? ` (${exempt} exempt)` : ''}`,
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
    // pytest's 1 is "tests failed"; a usage error, no tests, an interrupted run or a missing program is not a failing
    // test.
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
        detail:
          `expected ${check.expect_passed} passed tests, the run ` +
          `reports ${c ? JSON.stringify(c) : 'no pytest summary'}`,
        actual: output,
      };
  }
  return { ok: true, detail: `tests pass at ${describeRun(run)}` };
}
