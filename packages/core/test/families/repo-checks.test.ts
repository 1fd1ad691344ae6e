import { describe, expect, it } from 'vitest';
import { getScorer, parseSuite, repoChecksConfig, TESTS_MARK, type Fixture, type ScoringConfig } from '../../src';
import { exec, fixture } from '../scoring/fixture-factory';

const asset = (path: string, text = 'x') => ({
  asset: path,
  sha256: 'a'.repeat(64),
  base64: Buffer.from(text).toString('base64'),
});
const BAD = 'b'.repeat(40);
const GOOD = 'c'.repeat(40);

function task(checks: unknown[], extra: Partial<ScoringConfig> = {}): Fixture {
  const scoring = { type: 'repo_checks', checks, ...extra } as ScoringConfig;
  return { ...fixture(scoring, BAD, 'bisection'), assets: [asset('_assets/tests.tar.gz')] };
}

const testsPass = {
  type: 'tests_pass',
  rev: 'main',
  command: 'python3 -m pytest -q tests',
  overlay: { 'tests/': '_assets/tests.tar.gz' },
  expect_passed: 3,
};
const marker = (record: unknown) => `${TESTS_MARK}${JSON.stringify(record)}`;
const testRun = (commits: { commit: string; subject: string }[], runs: unknown[], chatter = '') =>
  exec('tests', [marker({ commits }), chatter, ...runs.map(marker)].join('\n') + '\n');

function score(
  fixture: Fixture,
  probes: Record<string, ReturnType<typeof exec>>,
  answer = '',
  states: { before?: string; after?: string } = {},
) {
  const evidence = { answer: [], probes, ...(states.after !== undefined ? { repoStateAfter: states.after } : {}) };
  return getScorer('repo_checks').score({
    fixture,
    output: answer,
    evidence,
    ...(states.before !== undefined ? { repoStateBefore: states.before } : {}),
  });
}

describe('repo_checks configuration', () => {
  it('names the check and field of every problem', () => {
    const parsed = repoChecksConfig(
      task([
        { type: 'tests_pass', rev: '--all', command: 'x' },
        { type: 'ref_equals', ref: 'main', commit: 'abc' },
        { type: 'nope' },
        { type: 'tests_pass', rev: 'main', command: 'x', overlay: { 'tests/': '_assets/missing.tar.gz' } },
      ]),
    );
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems.map((p) => p.field)).toEqual([
      'checks.0.rev',
      'checks.1.commit',
      'checks.2.type',
      'checks.3.overlay.tests/',
    ]);
    expect(problems[3]!.message).toContain('_assets/missing.tar.gz is not among the fixture');
  });

  it('refuses a key a check does not take, saying which it takes', () => {
    const parsed = repoChecksConfig(task([{ type: 'linear_onto', branch: 'feature', onto: 'main', range: 'x' }]));
    expect(parsed.ok ? '' : parsed.problems[0]!.message).toMatch(/range.*takes type, branch, onto/);
  });

  it('gitbench validate reports a bad check at its file, line and field', () => {
    const text = [
      'id: t01',
      'description: d',
      'purpose: p',
      'difficulty: hard',
      'tags: [x]',
      'setup: [git init -q]',
      'prompt: p',
      'expected: x',
      'scoring:',
      '  type: repo_checks',
      '  checks:',
      '    - {type: tree_equals, rev: main, tree: 123}',
      'negatives: [{answer: a, why: w}, {answer: b, why: w}]',
    ].join('\n');
    const parsed = parseSuite([{ path: 'history-surgery/t01.yaml', text }]);
    expect(parsed.errors).toMatchObject([
      {
        file: 'history-surgery/t01.yaml',
        line: 12,
        field: 'scoring.checks[0].tree',
        message: 'must be a full 40-character object id',
      },
    ]);
  });
});

describe('repo_checks plans', () => {
  it(
    'stages the overlay, then runs each test check through the ' +
      'harness with its limit; the answer runs unless run_answer is false',
    () => {
      const plan = getScorer('repo_checks').plan(
        task([testsPass, { type: 'answer_commit', expected: BAD }, { type: 'repo_as_found' }]),
        'git bisect reset',
      )!;
      expect(plan.answerCommands).toEqual(['git bisect reset']);
      expect(plan.probes[0]!.command).toContain('rm -rf');
      const run = plan.probes.find((p) => p.id === 'check.1')!;
      expect(run.command).toContain('/usr/bin/python3 -I -S -c');
      expect(run.command).toContain('"tests/", "overlay.0"'.replace(/ /g, ''));
      expect(run.timeoutMs).toBe((120 + 10 + 60) * 1000);
      expect(plan.probes.filter((p) => p.id.startsWith('check.'))).toHaveLength(1);
      expect(
        getScorer('repo_checks').plan(task([{ type: 'answer_commit', expected: BAD }], { run_answer: false }), BAD)!
          .answerCommands,
      ).toEqual([]);
    },
  );
});

describe('repo_checks verdicts', () => {
  const commit = { commit: GOOD, subject: 'Fix' };

  it('tests_pass holds on exit 0 with the expected count, and fails on a count that differs or no summary', () => {
    const f = task([testsPass]);
    expect(
      score(f, { 'check.1': testRun([commit], [{ commit: GOOD, exit: 0, timed_out: false, counts: { passed: 3 } }]) })
        .passed,
    ).toBe(true);
    const fewer = score(f, {
      'check.1': testRun([commit], [{ commit: GOOD, exit: 0, timed_out: false, counts: { passed: 1 } }]),
    });
    expect(fewer.checks[0]!.detail).toContain('expected 3 passed tests');
    expect(
      score(f, { 'check.1': testRun([commit], [{ commit: GOOD, exit: 0, timed_out: false, counts: null }]) }).passed,
    ).toBe(false);
  });

  it(
    'a marker the tested code prints cannot stand for the harness: only ' +
      'whole marker lines count, and the harness defuses them in output',
    () => {
      const f = task([{ ...testsPass, expect_passed: undefined }]);
      const forged = exec(
        'tests',
        `${marker({ commits: [commit] })}\nfake ${marker({ commit: GOOD, exit: 0 })}\n` +
          `${marker({ commit: GOOD, exit: 1, timed_out: false, counts: { failed: 1 } })}\n`,
      );
      expect(score(f, { 'check.1': forged }).passed).toBe(false);
    },
  );

  it('tests_fail wants failing tests (exit 1), not a crash or a timeout', () => {
    const f = task([{ type: 'tests_fail', rev: 'main~1', command: 'python3 -m pytest -q tests' }]);
    expect(
      score(f, { 'check.1': testRun([commit], [{ commit: GOOD, exit: 1, timed_out: false, counts: { failed: 1 } }]) })
        .passed,
    ).toBe(true);
    expect(
      score(f, { 'check.1': testRun([commit], [{ commit: GOOD, exit: 127, timed_out: false, counts: null }]) }).passed,
    ).toBe(false);
    expect(
      score(f, { 'check.1': testRun([commit], [{ commit: GOOD, exit: -9, timed_out: true, counts: null }]) }).passed,
    ).toBe(false);
  });

  it('tests_pass_each fails on any commit but the exempt, and on too few commits', () => {
    const f = task([
      {
        type: 'tests_pass_each',
        range: 'main..split',
        command: 'python3 -m pytest -q',
        except_subjects: ['WIP'],
        min_commits: 2,
      },
    ]);
    const commits = [commit, { commit: BAD, subject: 'WIP' }, { commit: 'd'.repeat(40), subject: 'Docs' }];
    const runs = (last: number) => [
      { commit: GOOD, exit: 0 },
      { commit: BAD, exit: 1 },
      { commit: 'd'.repeat(40), exit: last },
    ];
    expect(score(f, { 'check.1': testRun(commits, runs(0)) }).passed).toBe(true);
    expect(score(f, { 'check.1': testRun(commits, runs(1)) }).checks[0]!.detail).toContain('tests fail at 1 of 3');
    expect(score(f, { 'check.1': testRun([commit], [{ commit: GOOD, exit: 0 }]) }).checks[0]!.detail).toContain(
      'at least 2 expected',
    );
  });

  it('answer_commit accepts the id or a prefix, and fails another commit or a hedge', () => {
    const f = task([{ type: 'answer_commit', expected: BAD }]);
    expect(score(f, {}, `The first bad commit is ${BAD.slice(0, 10)}.`).passed).toBe(true);
    expect(score(f, {}, GOOD).passed).toBe(false);
    expect(score(f, {}, `${BAD} or ${GOOD.slice(0, 8)}`).passed).toBe(false);
    expect(score(f, {}, 'the commit that changed parsing').passed).toBe(false);
  });

  it('repo_as_found compares HEAD, refs, index, operations, stash and working tree, not reflogs or test caches', () => {
    const state = (head: string, extra = '') =>
      [
        '== HEAD',
        `symbolic refs/heads/main ${head}`,
        '== refs',
        `${head} commit refs/heads/main`,
        '== in-progress',
        '== reflog HEAD',
        `${head} checkout: moving`,
        '== worktree',
        '100644 aa ./a.py',
        extra,
      ].join('\n');
    const f = task([{ type: 'repo_as_found' }]);
    expect(
      score(f, {}, '', {
        before: state(GOOD),
        after: state(GOOD, '040000 - ./__pycache__\n100644 bb ./__pycache__/a.cpython-311.pyc').replace(
          '== reflog HEAD',
          `== reflog HEAD\n${GOOD} checkout: moving back`,
        ),
      }).passed,
    ).toBe(true);
    const moved = score(f, {}, '', { before: state(GOOD), after: state(BAD) });
    expect(moved.passed).toBe(false);
    expect(moved.checks[0]!.detail).toContain('HEAD, refs changed');
    expect(
      score(f, {}, '', {
        before: state(GOOD),
        after: state(GOOD).replace('== in-progress', '== in-progress\nBISECT_LOG 00'),
      }).passed,
    ).toBe(false);
    expect(score(f, {}, '', { before: state(GOOD) }).passed).toBe(false);
  });

  it('the git checks read their look-ups', () => {
    const f = task([
      { type: 'linear_onto', branch: 'feature', onto: 'main' },
      { type: 'commits_preserved', range: 'main..feature', messages: ['One', 'Two\n\nBody.'] },
      { type: 'absent_everywhere', text: 'AKIA1234' },
      { type: 'identities', allowed: ['Ana <ana@example.com>'] },
      { type: 'tree_equals', rev: 'feature', tree: GOOD },
      { type: 'no_conflict_markers', rev: 'feature' },
    ]);
    const good = {
      'check.1': exec('x', 'ancestor=yes\nmerges=0\ncommits=2\n'),
      'check.2': exec('x', `${GOOD}\nOne\n\0${BAD}\nTwo\n\nBody.\n\0`),
      'check.3': exec('x', 'matches=0\n'),
      'check.4': exec('x', 'Ana <ana@example.com>\nAna <ana@example.com>\n\n'),
      'check.5': exec('x', `${GOOD}\n`),
      'check.6': exec('x', ''),
    };
    expect(score(f, good).checks.map((c) => c.ok)).toEqual([true, true, true, true, true, true]);
    const bad = {
      'check.1': exec('x', 'ancestor=yes\nmerges=1\ncommits=3\n'),
      'check.2': exec('x', `${BAD}\nTwo\n\nBody.\n\0${GOOD}\nOne\n\0`),
      'check.3': exec('x', 'matches=2\n'),
      'check.4': exec('x', 'Ana <ana@example.com>\nBo <bo@corp.example>\n'),
      'check.5': exec('x', `${BAD}\n`),
      'check.6': exec('x', 'src/a.py:3:<<<<<<< HEAD\n', 1),
    };
    const checks = score(f, bad).checks;
    expect(checks.map((c) => c.ok)).toEqual([false, false, false, false, false, false]);
    expect(checks[1]!.detail).toContain('not in their original order');
    expect(checks[3]!.detail).toContain('Bo <bo@corp.example>');
  });
  it('commits_preserved wants a message listed twice (two real commits share it) exactly twice', () => {
    const f = task([{ type: 'commits_preserved', range: 'main..feature', messages: ['One', 'Same', 'Same', 'Two'] }]);
    const run = (subjects: string[]) =>
      score(f, { 'check.1': exec('x', subjects.map((m) => `${GOOD}\n${m}\n\0`).join('')) }).checks[0]!;
    expect(run(['One', 'Same', 'Same', 'Two']).ok).toBe(true);
    const dropped = run(['One', 'Same', 'Two']);
    expect(dropped.ok).toBe(false);
    expect(dropped.detail).toBe('"Same" appears 1 times (2 wanted)');
    expect(run(['One', 'Same', 'Same', 'Same', 'Two']).ok).toBe(false);
    expect(run(['Same', 'One', 'Same', 'Two']).detail).toBe('the commits are not in their original order');
  });
  it(
    'remote_branch reads a bare remote in the sandbox: the branch must ' +
      'reach every listed commit, and have the tree when one is given',
    () => {
      const LOST = 'd'.repeat(40);
      const f = task([
        { type: 'remote_branch', repository: 'remote.git', ref: 'refs/heads/main', contains: [LOST, GOOD], tree: BAD },
      ]);
      const run = (out: string) => score(f, { 'check.1': exec('x', out) }).checks[0]!;
      expect(run(`tip=${'e'.repeat(40)}\ntree=${BAD}\nhas=${LOST}\nhas=${GOOD}\n`)).toMatchObject({ ok: true });
      const forced = run(`tip=${LOST}\ntree=${BAD}\nhas=${LOST}\nlacks=${GOOD}\n`);
      expect(forced).toMatchObject({ ok: false });
      expect(forced.detail).toContain(`does not contain ${GOOD.slice(0, 12)}`);
      expect(run(`tip=${GOOD}\ntree=${GOOD}\nhas=${LOST}\nhas=${GOOD}\n`).detail).toContain(
        'the tree of refs/heads/main in remote.git',
      );
      expect(run('repository=missing\n').detail).toBe('remote.git is not a git repository');
      expect(run('ref=missing\n').detail).toBe('refs/heads/main does not exist in remote.git');
      // A listed commit the look-up did not report (its output cut short) is not there.
      expect(run(`tip=${GOOD}\ntree=${BAD}\nhas=${GOOD}\n`).ok).toBe(false);
    },
  );

  it(
    'remote_branch refuses a remote whose storage is a ' + 'link, and a ref listed twice or listed at another value',
    () => {
      const f = task([{ type: 'remote_branch', repository: 'remote.git', ref: 'refs/heads/main', contains: [GOOD] }]);
      const run = (out: string) => score(f, { 'check.1': exec('x', out) }).checks[0]!;
      const read = (listed: string[]) =>
        `ref=${GOOD}\n${listed.map((o) => `listed=${o}\n`).join('')}tip=${GOOD}\ntree=${BAD}\nhas=${GOOD}\n`;
      expect(run(read([GOOD])).ok).toBe(true);
      expect(run('linked=remote.git/refs\n').detail).toBe(
        'remote.git is not a repository of its own: remote.git/refs is a link or names another git directory',
      );
      expect(run(read([BAD, GOOD])).detail).toBe(
        'remote.git lists refs/heads/main 2 time(s): one value, as every client sees it, expected',
      );
      expect(run(read([])).ok).toBe(false);
      expect(run(read([BAD])).detail).toContain(`at ${BAD.slice(0, 12)}, not ${GOOD.slice(0, 12)}`);
    },
  );

  it('remote_branch takes a full ref in a repository inside the sandbox, never a path out of it', () => {
    const problems = (check: unknown) => {
      const r = repoChecksConfig(task([check]));
      return r.ok ? [] : r.problems.map((p) => p.field);
    };
    const ok = { type: 'remote_branch', repository: 'remote.git', ref: 'refs/heads/main', contains: [GOOD] };
    expect(problems(ok)).toEqual([]);
    expect(problems({ ...ok, repository: '../elsewhere.git' })).toEqual(['checks.0.repository']);
    expect(problems({ ...ok, ref: 'main' })).toEqual(['checks.0.ref']);
    expect(problems({ ...ok, contains: [] })).toEqual(['checks.0.contains']);
  });
  it('stash_entries wants exactly the listed entries, newest first, each with its tree', () => {
    const f = task([{ type: 'stash_entries', trees: [GOOD] }]);
    const run = (out: string) => score(f, { 'check.1': exec('x', out) }).checks[0]!;
    expect(run(`${BAD} ${GOOD}\n`).ok).toBe(true);
    // A rewrite that left the old entry behind in the stash's reflog: two entries.
    expect(run(`${BAD} ${GOOD}\n${GOOD} ${BAD}\n`).detail).toBe('the stash holds 2 entries, 1 expected');
    expect(run(`${GOOD} ${BAD}\n`).detail).toBe(`stash@{0} has tree ${BAD.slice(0, 12)}, not ${GOOD.slice(0, 12)}`);
    expect(run('').ok).toBe(false);
    expect(score(task([{ type: 'stash_entries', trees: [] }]), { 'check.1': exec('x', '') }).checks[0]!.ok).toBe(true);
  });

  it('tag_message wants an annotated tag with exactly that message; note wants exactly that note on the commit', () => {
    const f = task([
      { type: 'tag_message', tag: 'v1.0', message: 'Release 1.0\n\nCoverage uploaded with [REDACTED].' },
      { type: 'note', rev: 'main~2', text: 'Released on 2026-02-01.' },
    ]);
    const run = (tag: string, note: string) =>
      score(f, { 'check.1': exec('x', tag), 'check.2': exec('x', note) }).checks;
    const tagObject = (message: string) =>
      `type=tag\nobject ${GOOD}\ntype commit\ntag v1.0\ntagger T <t@t> 1 +0000\n\n${message}`;
    const [tag, note] = run(
      tagObject('Release 1.0\n\nCoverage uploaded with [REDACTED].\n'),
      'note=found\nReleased on 2026-02-01.\n',
    );
    expect([tag, note]).toMatchObject([{ ok: true }, { ok: true, detail: 'main~2 has the expected note' }]);
    expect(run(tagObject('Release 1.0\n\nCoverage uploaded with 1234-5678.\n'), '')[0]!.detail).toBe(
      'the message of v1.0 is not the expected one',
    );
    expect(run(`type=commit\n`, '')[0]!.detail).toBe('v1.0 is a lightweight tag, not an annotated tag');
    expect(run('tag=missing\n', '')[0]!.detail).toBe('the tag v1.0 does not exist');
    expect(run('', 'note=missing\n')[1]!.detail).toBe('main~2 has no note in refs/notes/commits');
    expect(run('', 'note=found\nReleased on 2026-02-01. Token 1234.\n')[1]!.ok).toBe(false);
    expect(run('', 'rev=missing\n')[1]!.detail).toBe('main~2 does not name a commit');
    const problems = (check: unknown) => {
      const r = repoChecksConfig(task([check]));
      return r.ok ? [] : r.problems.map((p) => p.field);
    };
    expect(problems({ type: 'tag_message', tag: 'refs/tags/v1', message: 'x' })).toEqual(['checks.0.tag']);
    expect(problems({ type: 'note', rev: 'main', ref: 'refs/heads/x', text: 'x' })).toEqual(['checks.0.ref']);
  });

  it(
    'stash_entries wants refs/stash of its own, at the newest ' +
      'entry, and every entry a stash (two or three parents)',
    () => {
      const f = task([{ type: 'stash_entries', trees: [GOOD] }]);
      const run = (out: string) => score(f, { 'check.1': exec('x', out) }).checks[0]!;
      const S = 'd'.repeat(40);
      const P = 'e'.repeat(40);
      expect(run(`ref=${S}\n${S} ${GOOD} ${P} ${BAD}\n`)).toMatchObject({
        ok: true,
        detail: 'the stash holds the 1 entry expected',
      });
      expect(run(`ref=${S}\n${S} ${GOOD} ${P} ${BAD} ${BAD}\n`).ok).toBe(true);
      // An ordinary commit with the right tree is not a stash: git stash apply refuses it.
      expect(run(`ref=${S}\n${S} ${GOOD} ${P}\n`).detail).toBe(
        `stash@{0} (${S.slice(0, 12)}) is not a stash: 1 parent(s), where git stash makes 2 or 3`,
      );
      expect(run(`ref=${P}\n${S} ${GOOD} ${P} ${BAD}\n`).detail).toBe(
        `refs/stash holds ${P.slice(0, 12)}, but the newest entry of its reflog is ${S.slice(0, 12)}`,
      );
      expect(run('linked=refs/stash\n').detail).toBe(
        "refs/stash is not the repository's own (refs/stash is a link or a symbolic ref)",
      );
      expect(run('linked=symbolic\n').ok).toBe(false);
    },
  );
});
