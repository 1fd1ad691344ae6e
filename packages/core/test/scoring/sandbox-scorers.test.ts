import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMIT_LOG_PROBE, REFLOG_PROBE, extractCommands, getScorer, readsOnly, shellWords } from '../../src/scoring';
import type { SandboxEvidence } from '../../src/scoring';
import { exec, fixture } from './fixture-factory';

const files = (expected: Record<string, string>, extra: Record<string, unknown> = {}) =>
  fixture({ type: 'resolved_file_blocks', expected_files: expected, ...extra });
const resolve = (f: ReturnType<typeof files>, output: string) =>
  getScorer('resolved_file_blocks').score({ fixture: f, output });

describe('resolved_file_blocks', () => {
  const two = files({
    'main.py': 'def main():\n    print("Running enterprise")\n',
    'utils.py': 'DEBUG = True\nPORT = 9000\n',
  });
  it('reads heading variants, any order, per-file fences', () => {
    expect(
      resolve(
        two,
        '### `utils.py`:\nDEBUG = True\nPORT = 9000\n\n--- main.py\ndef main():\n    print("Running enterprise")\n',
      ).passed,
    ).toBe(true);
    expect(
      resolve(
        two,
        'main.py:\n```python\ndef main():\n    print("Running ' +
          'enterprise")\n```\n\nutils.py:\n```\nDEBUG = True\nPORT = 9000\n```\n',
      ).passed,
    ).toBe(true);
    expect(
      resolve(
        two,
        '`main.py`\ndef main():\n    print("Running enterprise")\n`utils.py`\nDEBUG = True   \r\nPORT = 9000',
      ).passed,
    ).toBe(true);
    // Upstream's heading pattern has no bold form: `**main.py**` is content, not a heading.
    expect(
      resolve(two, '**main.py**\ndef main():\n    print("Running enterprise")\n\nutils.py:\nDEBUG = True\nPORT = 9000')
        .passed,
    ).toBe(false);
  });
  it('keeps whitespace-only lines at the ends of a block, and rejects a file given twice', () => {
    const one = files({ 'a.txt': 'x\n' });
    expect(resolve(one, 'a.txt:\n\nx\n\n').passed).toBe(true);
    expect(resolve(one, 'a.txt:\n  \nx').passed).toBe(false);
    expect(resolve(one, 'a.txt:\nx\n\na.txt:\nx').checks[0]?.detail).toContain('twice');
  });
  it('fails missing, extra (unless allowed) and changed content', () => {
    const missing = resolve(two, 'main.py:\ndef main():\n    print("Running enterprise")\n');
    expect(missing.passed).toBe(false);
    expect(missing.score).toBe(0.5);
    const one = files({ 'main.py': "print('ok')\n" });
    expect(resolve(one, "main.py:\nprint('ok')\n\nREADME.md:\nextra\n").passed).toBe(false);
    expect(
      resolve(
        files({ 'main.py': "print('ok')\n" }, { allow_extra_files: true }),
        "main.py:\nprint('ok')\n\nREADME.md:\nextra\n",
      ).passed,
    ).toBe(true);
    const indent = files({ 'main.py': 'if ok:\n    return True\n' });
    expect(resolve(indent, 'main.py:\nif ok:   \n    return True').passed).toBe(true);
    expect(resolve(indent, 'main.py:\nif ok:\nreturn True\n').passed).toBe(false);
  });
  it('takes bare single-file content, rejects prose', () => {
    const greet = files({ 'greeting.txt': 'Hello, Planet!!!' });
    expect(resolve(greet, 'Hello, Planet!!!').passed).toBe(true);
    expect(resolve(greet, '```text\nHello, Planet!!!\n```').passed).toBe(true);
    expect(resolve(greet, 'Here is the answer:\nHello, Planet!!!').passed).toBe(false);
    const prose = resolve(greet, 'Here is the file:\n\ngreeting.txt:\nHello, Planet!!!');
    expect(prose.passed).toBe(false);
    expect(prose.checks[0]?.detail).toContain('heading before file content');
  });
  it('does not take YAML keys for file headings', () => {
    const yaml = files({ 'config.yaml': 'server:\n  port: 443\n' });
    expect(resolve(yaml, 'config.yaml:\nserver:\n  port: 443\n').passed).toBe(true);
    const dotted = files({ 'config.yaml': 'example.com:\n  enabled: true\n' });
    expect(resolve(dotted, 'example.com:\n  enabled: true\n').passed).toBe(true);
    expect(resolve(dotted, 'config.yaml:\nexample.com:\n  enabled: true\n').passed).toBe(true);
    expect(
      resolve(
        files({ Dockerfile: 'FROM python:3.12\n', Makefile: 'test:\n\tpytest\n' }),
        'Dockerfile:\nFROM python:3.12\n\nMakefile:\ntest:\n\tpytest\n',
      ).passed,
    ).toBe(true);
  });
  it('reports a missing expected_files as a config error', () => {
    expect(
      getScorer('resolved_file_blocks').score({ fixture: fixture({ type: 'resolved_file_blocks' }), output: 'x' })
        .checks[0]?.detail,
    ).toContain('expected_files');
  });
});

const LOG = 'a'.repeat(40);
const BAD = `3ab0c81${'d'.repeat(33)}`;
const logEvidence = (stdout: string): SandboxEvidence => ({
  answer: [],
  probes: { [COMMIT_LOG_PROBE.id]: exec(COMMIT_LOG_PROBE.command, stdout) },
});
const history = logEvidence(
  `${'9'.repeat(40)} 9999999 add feature telemetry\n${BAD} 3ab0c81 disable feature\n${LOG} aaaaaaa Initial commit\n`,
);

describe('bisect_regression', () => {
  const f = fixture({ type: 'bisect_regression', threshold: 0.5 }, 'disable feature');
  const bisect = (output: string, evidence: SandboxEvidence | undefined = history) =>
    getScorer('bisect_regression').score({ fixture: f, output, evidence });
  it('plans a log probe and accepts the subject or a hash prefix', () => {
    expect(getScorer('bisect_regression').plan(f, 'x')).toEqual({ answerCommands: [], probes: [COMMIT_LOG_PROBE] });
    expect(bisect('The bad commit is `3ab0c81`').passed).toBe(true);
    expect(bisect(BAD.toUpperCase()).passed).toBe(true);
    expect(bisect('It was "Disable Feature".').passed).toBe(true);
  });
  it('fails other hashes, hashes glued to letters, and missing evidence', () => {
    expect(bisect('9999999').passed).toBe(false);
    expect(bisect('é3ab0c81').passed).toBe(false);
    expect(bisect('3ab0c81').passed).toBe(true);
    expect(getScorer('bisect_regression').score({ fixture: f, output: '3ab0c81' }).checks[0]?.detail).toContain(
      'no sandbox evidence',
    );
    expect(bisect('3ab0c81', logEvidence('')).passed).toBe(false);
  });
  it('with exclusive, fails an answer that also names another commit by hash or subject', () => {
    const only = (output: string) =>
      getScorer('bisect_regression').score({
        fixture: { ...f, scoring: { ...f.scoring, exclusive: true } },
        output,
        evidence: history,
      });
    expect(only('3ab0c81 disable feature').passed).toBe(true);
    expect(bisect('3ab0c81 or 9999999').passed).toBe(true);
    const hedge = only('3ab0c81 or 9999999');
    expect(hedge.passed).toBe(false);
    expect(hedge.checks.at(-1)?.detail).toBe('answer also names 9999999 add feature telemetry');
    expect(only('Either "disable feature" or "add feature telemetry"').passed).toBe(false);
    // "feature" alone would be another commit's subject only if some commit were called that.
    const sub = logEvidence(`${'9'.repeat(40)} 9999999 disable\n${BAD} 3ab0c81 disable feature\n`);
    expect(
      getScorer('bisect_regression').score({
        fixture: { ...f, scoring: { ...f.scoring, exclusive: true } },
        output: 'disable feature',
        evidence: sub,
      }).passed,
    ).toBe(true);
  });
});

describe('commit_hash_by_subject', () => {
  const f = fixture({ type: 'commit_hash_by_subject', subject: 'disable feature', hash_length: 'short' });
  const hash = (output: string) => getScorer('commit_hash_by_subject').score({ fixture: f, output, evidence: history });
  it('derives the hash from the repository', () => {
    expect(hash('3ab0c81').passed).toBe(true);
    expect(hash('The hash is 3AB0C81.').passed).toBe(true);
    expect(hash('disable feature').passed).toBe(false);
    expect(hash('3ab0c81d').passed).toBe(false);
    const full = fixture({ type: 'commit_hash_by_subject', subject: 'disable feature' });
    expect(getScorer('commit_hash_by_subject').score({ fixture: full, output: BAD, evidence: history }).passed).toBe(
      true,
    );
  });
});

describe('reflog_recovery', () => {
  const reflog =
    `${'1'.repeat(40)} HEAD@{0}: reset: moving to HEAD~1\n${BAD} HEAD@{1}: commit: Add ` +
    `third version - important\n${'1'.repeat(40)} HEAD@{2}: commit: Add second version\n`;
  const evidence: SandboxEvidence = { answer: [], probes: { [REFLOG_PROBE.id]: exec(REFLOG_PROBE.command, reflog) } };
  const f = fixture({ type: 'reflog_recovery', threshold: 0.5 }, 'Add third version - important');
  const score = (output: string, extra = {}) =>
    getScorer('reflog_recovery').score({ fixture: { ...f, scoring: { ...f.scoring, ...extra } }, output, evidence });
  it('accepts a hash prefix or a HEAD@{n} selector of the target', () => {
    expect(score(`git reset --hard ${BAD}`).passed).toBe(true);
    expect(score('git checkout HEAD@{1}').passed).toBe(true);
    expect(score('git checkout HEAD@{2}').passed).toBe(false);
    expect(score('Add third version - important').passed).toBe(false);
    expect(score('Add third version - important', { accept_message: true }).passed).toBe(true);
  });
  it('with exclusive, fails an answer that also names another entry', () => {
    expect(score(`git reset --hard ${BAD.slice(0, 7)}`, { exclusive: true }).passed).toBe(true);
    expect(score(`${BAD.slice(0, 7)} (HEAD@{1})`, { exclusive: true }).passed).toBe(true);
    expect(score('HEAD@{1} or HEAD@{2}').passed).toBe(true);
    const hedge = score('HEAD@{1} or HEAD@{2}', { exclusive: true });
    expect(hedge.passed).toBe(false);
    expect(hedge.checks.at(-1)?.detail).toBe('answer also names HEAD@{2}');
    expect(score(`HEAD@{1}, maybe ${'1'.repeat(9)}`, { exclusive: true }).passed).toBe(false);
    // A hash-like word that is no reflog commit is not counted against the answer.
    expect(score('HEAD@{1} (not deadbeef)', { exclusive: true }).passed).toBe(true);
  });
});

describe('state_assertions', () => {
  const assertions = [
    { type: 'file_not_exists', path: 'untracked.txt' },
    { type: 'dir_exists', path: '../feature-wt' },
    { type: 'file_content', path: "it's.txt", value: 'Updated' },
    { type: 'file_not_contains', path: '.gitmodules', value: 'lib' },
    { type: 'branch_exists', name: 'feature', in_worktree: '../feature-wt' },
    { type: 'git_config', key: 'user.name', value: 'Ann' },
    { type: 'git_output', command: 'git tag -l  *', contains: 'v1.0' },
    { type: 'model_output', contains: 'git tag' },
  ];
  const f = fixture({ type: 'state_assertions', expected_state: { assertions } });
  const scorer = getScorer('state_assertions');

  it('plans the extracted commands, shell-safe probes and the environment', () => {
    const plan = scorer.plan(f, '```bash\ngit clean -f\ngit tag v1.0\n```');
    expect(plan?.answerCommands).toEqual(['git clean -f', 'git tag v1.0']);
    expect(plan?.env).toEqual({ GIT_ALLOW_PROTOCOL: 'file:git:ssh:https' });
    expect(plan?.probes.map((p) => p.command)).toEqual([
      'test -f untracked.txt',
      'test -d ../feature-wt',
      `if test -f 'it'\\''s.txt'; then cat -- 'it'\\''s.txt'; else exit 3; fi`,
      'if test -f .gitmodules; then cat -- .gitmodules; else exit 3; fi',
      'cd -- ../feature-wt || exit 3; git branch --list feature',
      'git config --get user.name',
      "git tag -l '*'",
    ]);
    expect(scorer.plan(f, 'Run this:\n```\nrm -rf /\n```')?.answerCommands).toEqual([]);
  });

  it(
    'marks the look-ups that only read: its own tests and ' +
      'reads, and a git_output command that only prints or lists',
    () => {
      expect(scorer.plan(f, '')?.probes.map((p) => p.readOnly === true)).toEqual([
        true,
        true,
        true,
        true,
        true,
        true,
        true,
      ]);
      const writes = fixture({
        type: 'state_assertions',
        expected_state: { assertions: [{ type: 'git_output', command: 'git tag v2', contains: 'x' }] },
      });
      expect(scorer.plan(writes, '')?.probes[0]?.readOnly).toBeUndefined();
      expect(COMMIT_LOG_PROBE.readOnly && REFLOG_PROBE.readOnly).toBe(true);
      const reads = [
        'git tag -l',
        'git tag -n1 v1.0.0',
        'git log v1.0 --oneline -1',
        'git -C ../wt branch --show-current',
        'git branch',
        'git branch -a',
        'git branch --list f*',
        'git worktree list',
        'git submodule status',
        'git cat-file -t v1',
        'git stash list',
        'git reflog',
        'git config --get user.name',
        'git status --porcelain',
      ];
      // Writes, or a form not told apart from writing (a --contains value reads like a new branch's name).
      const mayWrite = [
        'git tag v2',
        'git tag -d v1',
        'git tag -l -d v1',
        'git branch feature',
        'git branch -d feature',
        'git branch --contains HEAD',
        'git log --output=f',
        'git -c core.pager=x log',
        'git stash',
        'git worktree add ../x',
        'git submodule update',
        'git reflog expire --all',
        'git config user.name x',
        'git gc',
        'ls',
        'git',
      ];
      expect(reads.filter((c) => !readsOnly(c.split(' ')))).toEqual([]);
      expect(mayWrite.filter((c) => readsOnly(c.split(' ')))).toEqual([]);
    },
  );

  const good: SandboxEvidence = {
    answer: [exec('git tag v1.0')],
    probes: {
      'assertion-1': exec('', '', 1),
      'assertion-2': exec('', '', 0),
      'assertion-3': exec('', 'Updated\r\n'),
      'assertion-4': exec('', '', 3),
      'assertion-5': exec('', '+ feature\n'),
      'assertion-6': exec('', 'Ann\n'),
      'assertion-7': exec('', 'v0.9\nv1.0\n'),
    },
  };
  it('passes when every assertion holds', () => {
    const result = scorer.score({ fixture: f, output: 'git tag v1.0', evidence: good });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.score).toBe(1);
  });
  it('fails with the share held and says which assertion broke', () => {
    const bad: SandboxEvidence = {
      ...good,
      stoppedAt: 0,
      probes: { ...good.probes, 'assertion-1': exec('', '', 0), 'assertion-5': exec('', '', 3) },
    };
    const result = scorer.score({ fixture: f, output: 'git tag v1.0', evidence: bad });
    expect(result.passed).toBe(false);
    expect(result.score).toBe(6 / 8);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual([
      'answer commands (not decisive)',
      'file_not_exists untracked.txt',
      'branch_exists feature',
    ]);
    expect(scorer.score({ fixture: f, output: 'echo hi', evidence: good }).passed).toBe(false);
  });
  it('counts missing evidence, timeouts and unknown assertions as failures', () => {
    expect(scorer.score({ fixture: f, output: 'git tag v1.0' }).passed).toBe(false);
    const timedOut = { ...good, probes: { ...good.probes, 'assertion-4': exec('', '', 124, { timedOut: true }) } };
    expect(scorer.score({ fixture: f, output: 'git tag v1.0', evidence: timedOut }).passed).toBe(false);
    const odd = fixture({ type: 'state_assertions', expected_state: { assertions: [{ type: 'file_smells' }] } });
    expect(
      scorer.score({ fixture: odd, output: '', evidence: { answer: [], probes: {} } }).checks[1]?.detail,
    ).toContain('unknown assertion type');
    expect(scorer.score({ fixture: fixture({ type: 'state_assertions' }), output: '' }).checks[0]?.detail).toContain(
      'no assertions',
    );
  });
});

describe('extractCommands', () => {
  it('reads plain lines and one whole-answer fence', () => {
    expect(extractCommands(' git status \n\ngit log --oneline ').commands).toEqual(['git status', 'git log --oneline']);
    expect(extractCommands('```bash\ngit submodule status\n```').commands).toEqual(['git submodule status']);
  });
  it('rejects prose around a fence, two fences and unparsable lines', () => {
    expect(extractCommands('Run this:\n```bash\ngit status\n```')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('prose around'),
    });
    expect(extractCommands('```\na\n```\n```\nb\n```')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('more than one'),
    });
    expect(extractCommands("git status 'unterminated")).toMatchObject({
      ok: false,
      reason: expect.stringContaining('No closing quotation'),
    });
    expect(extractCommands('')).toMatchObject({ ok: false, commands: [] });
  });
});

describe('shellWords equals Python shlex.split', () => {
  const lines = [
    `git commit -m "a \\"quoted\\" word" -- 'it''s'`,
    `a\\ b "c\\d" 'e\\f' "" '' x"y"z`,
    `echo "$HOME" \`pwd\` # not a comment`,
    '  tabs\tand\r\nnewlines  ',
    'unicode café 😀 "é x"',
  ];
  it('on a set of tricky lines', () => {
    expect(
      spawnSync('/usr/bin/python3', ['--version']).status,
      '/usr/bin/python3 is needed to compare with Python',
    ).toBe(0);
    const run = spawnSync(
      '/usr/bin/python3',
      ['-c', 'import sys,json,shlex\nprint(json.dumps([shlex.split(l) for l in json.load(sys.stdin)]))'],
      {
        input: JSON.stringify(lines),
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(run.status).toBe(0);
    expect(lines.map((line) => shellWords(line))).toEqual(JSON.parse(run.stdout));
  });
  it('raises the same errors', () => {
    expect(() => shellWords('"open')).toThrow('No closing quotation');
    expect(() => shellWords('end\\')).toThrow('No escaped character');
  });
});
