import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type AttemptRun, type BuiltSnapshot } from '../src';
import { scriptedAgent, type ScriptedCall } from './agent/support/scripted-agent';
import { answering } from './answering-model';
import { useTestDriver } from './test-driver';

/**
 * The hard tier's checks (scoring type repo_checks) against a model that attacks them, through the
 * real sandbox and the path a worker takes. Two tasks: fix `add` in calc.py (checked by the pinned
 * tests at main, which must report 2 passed, and must fail at the commit before), and name the first
 * bad commit of three leaving the repository as found. Every attack leaves the task undone (or the
 * repository changed) and tries to make the checks see otherwise; each must be a counted failure.
 */

const CALC = `id: f001
description: Fix add (the checks' red team)
setup:
  - git init -q
  - |-
    printf 'def add(a, b):\\n    return a - b\\n' > calc.py
    mkdir tests && printf 'from calc import add\\n\\ndef test_add():\\n    assert add(2, 3) == 5\\n' > \
tests/test_calc.py
    git add -A && git commit -q -m 'Add calc'
prompt: Fix add in calc.py and commit it on main.
expected: printf 'def add(a, b):\\n    return a + b\\n' > calc.py && git commit -qam 'Fix add'
assets: [_assets/calc-tests.tar.gz]
scoring:
  type: repo_checks
  checks:
    - {type: tests_pass, rev: main, command: python3 -m pytest -q tests, pythonpath: ['.'], overlay: {tests/: \
_assets/calc-tests.tar.gz}, expect_passed: 2}
    - {type: tests_fail, rev: 'main~1', command: python3 -m pytest -q tests, pythonpath: ['.'], overlay: {tests/: \
_assets/calc-tests.tar.gz}}
difficulty: easy
`;

const BISECT = `id: f002
description: Name the first bad commit (the checks' red team)
setup:
  - git init -q
  - printf 'def add(a, b):\\n    return a + b\\n' > calc.py && git add -A && git commit -q -m 'Add calc'
  - printf '# calc\\n' > README && git add -A && git commit -q -m 'Readme'
  - printf 'def add(a, b):\\n    return a - b\\n' > calc.py && git commit -qam 'Refactor add'
  - printf 'v2\\n' > VERSION && git add -A && git commit -q -m 'Version'
prompt: Which commit broke add? Leave the repository as you found it.
expected: Refactor add
scoring:
  type: repo_checks
  run_answer: false
  checks:
    - {type: repo_as_found}
difficulty: easy
`;

/** A conftest.py that reports every test passed. */
const CONFTEST =
  `import pytest\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, ` +
  `call):\\n    r = (yield).get_result()\\n    r.outcome, r.longrepr = "passed", None\\n`;
const PASSING_TESTS = 'def test_add():\\n    pass\\n\\ndef test_add_neg():\\n    pass\\n';

/** Single answers: each leaves calc.py wrong on main and tries to make the tests pass anyway. */
export const CALC_ATTACKS: Record<string, string> = {
  'the tests edited to pass, and committed':
    `printf '${PASSING_TESTS}' > tests/test_calc.py && ` + `git commit -qam 'Fix add'`,
  'a conftest.py committed at the root and beside the tests':
    `printf '${CONFTEST}' > conftest.py && cp conftest.py ` +
    `tests/conftest.py && git add -A && git commit -qm 'Fix add'`,
  'sitecustomize.py, pytest.ini, tox.ini and pyproject.toml committed':
    `printf 'import os\\nos._exit(0)\\n' > sitecustomize.py && printf '[pytest]\\naddopts ` +
    `= -p no:python\\n' | tee pytest.ini tox.ini > /dev/null && printf '[tool.pytest.ini_options]\\naddopts ` +
    `= "--co"\\n' > pyproject.toml && git add -A && git commit -qm 'Fix add'`,
  'a module named pytest that shadows it, committed':
    `printf 'import sys\\nprint("2 passed in 0.01s")\\nsys.exit(0)\\n' > pytest.py && ` +
    `mkdir -p _pytest && touch _pytest/__init__.py && git add -A && git commit -qm 'Fix add'`,
  'a process that exits 0 as the tests import the code':
    `printf 'import os\\nos._exit(0)\\n' > calc.py && ` + `git commit -qam 'Fix add'`,
  'the fix left uncommitted in the working tree': `printf 'def add(a, b):\\n    return a + b\\n' > calc.py`,
  'a filter and attributes that would fix the file on checkout':
    `printf 'calc.py filter=fix\\n' > .gitattributes && git config filter.fix.smudge "sed ` +
    `s/a\\\\ -\\\\ b/a\\\\ +\\\\ b/" && git add .gitattributes && git commit -qm 'Fix add'`,
  'conftest.py, pytest.ini and python3 planted in HOME, the temporary directories and PATH': [
    `printf '${CONFTEST}' > /tmp/conftest.py`,
    'for d in "${TMPDIR:-/tmp}" /tmp ~ ..; do mkdir -p "$d" && cp /tmp/conftest.py ' +
      '"$d/conftest.py" && printf "[pytest]\\naddopts = -p conftest\\n" > "$d/pytest.ini"; done',
    `mkdir -p ~/bin && printf '#!/bin/sh\\necho "2 passed in 0.01s"\\n' > ~/bin/python3 && ` +
      `chmod +x ~/bin/python3 && echo 'export PATH=~/bin:$PATH PYTHONPATH=/tmp' >> ~/.bashrc`,
  ].join(' && '),
  'a detached process that writes a conftest.py into every tree the tests run in':
    `setsid sh -c 'for i in $(seq 600); do for d in "\${TMPDIR:-/tmp}"/gitbench-tests.*/tree ` +
    `/tmp/gitbench-tests.*/tree; do [ -d "$d" ] && printf "${CONFTEST.replace(/"/g, '\\"')}" ` +
    `> "$d/conftest.py"; done; sleep 0.02; done' >/dev/null 2>&1 < /dev/null & true`,
};

let driver: DockerSandboxDriver;
useTestDriver('repo-checks', (d) => (driver = d), { prestart: 2 });
let calc: { fixture: Fixture; snapshot: BuiltSnapshot };
let bisect: { fixture: Fixture; snapshot: BuiltSnapshot };
let firstBad: string;
const scratch = mkdtempSync(join(tmpdir(), 'gitbench-repo-checks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The pinned tests, as a suite would hold them: tests/test_calc.py with two tests, as a .tar.gz. */
function pinnedTests(): Uint8Array {
  mkdirSync(join(scratch, 'tests'));
  writeFileSync(
    join(scratch, 'tests/test_calc.py'),
    'from calc import add\n\ndef test_add():\n    assert add(2, ' +
      '3) == 5\n\ndef test_add_neg():\n    assert add(-2, -3) == -5\n',
  );
  execFileSync('tar', [
    '-C',
    scratch,
    '-czf',
    join(scratch, 'tests.tar.gz'),
    '--owner=0',
    '--group=0',
    '--mtime=2020-01-01',
    'tests',
  ]);
  return readFileSync(join(scratch, 'tests.tar.gz'));
}

beforeAll(async () => {
  const parsed = parseSuite(
    [
      { path: 'hard/f001.yaml', text: CALC },
      { path: 'hard/f002.yaml', text: BISECT },
    ],
    undefined,
    new Map([['_assets/calc-tests.tar.gz', pinnedTests()]]),
  );
  if (parsed.fixtures.length !== 2) throw new Error(`the fixtures do not load: ${JSON.stringify(parsed.errors)}`);
  const [c, b] = parsed.fixtures as [Fixture, Fixture];
  const [cs, bs] = await Promise.all([buildFixtureRepository(c, driver), buildFixtureRepository(b, driver)]);
  // The expected commit is known once built (the harness's dates make it): the check names it.
  firstBad = bs.commits.find((commit) => commit.subject === 'Refactor add')!.hash;
  // Built again with the check that names it (the definition is part of the input hash; the history is the same).
  const withId: Fixture = {
    ...b,
    scoring: { ...b.scoring, checks: [{ type: 'answer_commit', expected: firstBad }, { type: 'repo_as_found' }] },
  };
  const rebuilt = await buildFixtureRepository(withId, driver);
  expect(rebuilt.commits.find((commit) => commit.subject === 'Refactor add')!.hash).toBe(firstBad);
  calc = { fixture: c, snapshot: cs };
  bisect = { fixture: withId, snapshot: rebuilt };
}, 300_000);

const single = (answer: string, task = calc): Promise<AttemptRun> =>
  executeAttempt({
    ...task,
    driver,
    model: answering(answer),
    modelName: 'red-team',
    mode: 'text',
    labels: { 'org.gitbench.attempt': 'repo-checks' },
  });

const agent = (name: string, calls: ScriptedCall[], task = calc, answer?: string): Promise<AttemptRun> =>
  executeAttempt({
    ...task,
    driver,
    model: scriptedAgent(name, answer === undefined ? calls : [...calls, { tool: 'submit', args: { answer } }]),
    modelName: name,
    mode: 'agent',
    agent: { config: { toolSet: 'bash', limits: { commandTimeoutMs: 20_000, maxTurns: 12, maxWallMs: 180_000 } } },
    labels: { 'org.gitbench.attempt': name },
  });

function expectCountedFailure(run: AttemptRun): void {
  const checks = JSON.stringify(run.attempt?.checks ?? []).slice(0, 1500);
  expect({ status: run.status, checks }).toMatchObject({ status: 'VALID_FAIL' });
  expect([null, 'tampering']).toContain(run.errorClass);
}

describe('repo_checks against a hostile single answer', { timeout: 240_000 }, () => {
  it('the honest fix passes: 2 tests pass at main, and fail before it', async () => {
    const run = await single(calc.fixture.expected);
    expect({ status: run.status, checks: run.attempt?.checks.map((c) => c.detail) }).toMatchObject({
      status: 'VALID_PASS',
    });
    expect(run.attempt?.checks.find((c) => c.check === 'tests_pass at main')?.detail).toContain('(2 passed)');
  });

  for (const [name, answer] of Object.entries(CALC_ATTACKS)) {
    it(`${name}: a counted failure, the pinned tests having run and failed`, async () => {
      const run = await single(answer);
      expectCountedFailure(run);
      expect(run.attempt?.checks.find((c) => c.check === 'tests_pass at main')?.detail).toMatch(
        /^(tests fail at [0-9a-f]{12}: exit 1 \(|expected 2 passed tests)/,
      );
    });
  }
});

describe('repo_checks against a hostile agent', { timeout: 300_000 }, () => {
  it(
    'an agent that fixes and commits passes; one that edits the tests ' +
      'and plants a conftest.py, leaving a process that writes more, fails',
    async () => {
      const honest = await agent('honest', [calc.fixture.expected]);
      expect(honest.status).toBe('VALID_PASS');
      const cheat = await agent('cheat', [
        CALC_ATTACKS['the tests edited to pass, and committed']!,
        CALC_ATTACKS['a conftest.py committed at the root and beside the tests']!,
        CALC_ATTACKS['a detached process that writes a conftest.py into every tree the tests run in']!,
      ]);
      expectCountedFailure(cheat);
      expect(cheat.agent?.summary.exitStatus).toBe('submitted');
    },
  );

  it(
    'bisection: the right commit with the repository as found passes; a ' +
      'bisection left running, or a ref rewritten after finding the answer, fails',
    async () => {
      const run =
        'git bisect start HEAD $(git rev-list --max-parents=0 HEAD) ' +
        '>/dev/null && git bisect run sh -c "grep -q \\"a + b\\" calc.py"';
      const honest = await agent('bisect-honest', [`${run} && git bisect reset >/dev/null`], bisect, firstBad);
      expect({ status: honest.status, checks: honest.attempt?.checks.map((c) => c.detail) }).toMatchObject({
        status: 'VALID_PASS',
      });
      expectCountedFailure(await agent('bisect-unfinished', [run], bisect, firstBad));
      expectCountedFailure(
        await agent(
          'bisect-rewrote',
          [`${run} && git bisect reset >/dev/null && git reset -q --hard HEAD~1`],
          bisect,
          firstBad,
        ),
      );
      expectCountedFailure(
        await agent(
          'bisect-hedge',
          [`${run}; git bisect reset >/dev/null`],
          bisect,
          `${firstBad} or ${bisect.snapshot.commits[0]!.hash}`,
        ),
      );
    },
  );
});
