import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type AttemptRun, type BuiltSnapshot } from '../src';
import { scriptedAgent, type ScriptedCall } from './agent/support/scripted-agent';
import {
  ATTACKS,
  FIXTURE,
  FORGE_COMMIT_OBJECT,
  HISTORY_ATTACKS,
  HISTORY_FIXTURE,
  INDEX_ATTACKS,
  INDEX_FIXTURE,
} from './red-team-attacks';
import {
  buildFamilyTasks,
  expectCountedFailure,
  FORGED_VERDICT,
  PATH_TRICK,
  PYTEST_TRICK,
  type FamilyTasks,
} from './red-team-families';
import { answering } from './answering-model';
import { useTestDriver } from './test-driver';

let driver: DockerSandboxDriver;
useTestDriver('red-team', (d) => (driver = d), { prestart: 2 });
let fixture: Fixture;
let snapshot: BuiltSnapshot;
let history: { fixture: Fixture; snapshot: BuiltSnapshot };
let index: { fixture: Fixture; snapshot: BuiltSnapshot };

beforeAll(async () => {
  const parsed = parseSuite([
    { path: 'red_team/f001.yaml', text: FIXTURE },
    { path: 'red_team/f002.yaml', text: HISTORY_FIXTURE },
    { path: 'red_team/f003.yaml', text: INDEX_FIXTURE },
  ]);
  if (parsed.fixtures.length !== 3)
    throw new Error(`the red team's fixtures do not load: ${JSON.stringify(parsed.errors)}`);
  [fixture, history, index] = await Promise.all([
    buildFixtureRepository(parsed.fixtures[0]!, driver).then((built) => {
      snapshot = built;
      return parsed.fixtures[0]!;
    }),
    buildFixtureRepository(parsed.fixtures[1]!, driver).then((built) => ({
      fixture: parsed.fixtures[1]!,
      snapshot: built,
    })),
    buildFixtureRepository(parsed.fixtures[2]!, driver).then((built) => ({
      fixture: parsed.fixtures[2]!,
      snapshot: built,
    })),
  ]);
}, 300_000);

const attempt = (answer: string, task = { fixture, snapshot }): Promise<AttemptRun> =>
  executeAttempt({
    ...task,
    driver,
    model: answering(answer),
    modelName: 'red-team',
    mode: 'text',
    labels: { 'org.gitbench.attempt': 'red-team' },
  });

describe('the red team, single answers', { timeout: 180_000 }, () => {
  it('the honest answer passes (the fixture and its look-ups work)', async () => {
    const run = await attempt(fixture.expected);
    expect(run.status).toBe('VALID_PASS');
  });

  for (const [name, answer] of Object.entries(ATTACKS)) {
    it(`${name}: a counted failure, never a pass or an exclusion`, async () => {
      expectCountedFailure(await attempt(answer));
    });
  }

  it('the honest answer to the history task passes', async () => {
    const run = await attempt(history.fixture.expected, history);
    expect(run.status).toBe('VALID_PASS');
  });

  for (const [name, answer] of Object.entries(HISTORY_ATTACKS)) {
    it(`history: ${name}: a counted failure, never a pass or an exclusion`, async () => {
      expectCountedFailure(await attempt(answer, history));
    });
  }

  it('the honest answer to the working-tree task passes, and the unanswered task fails', async () => {
    expect((await attempt(index.fixture.expected, index)).status).toBe('VALID_PASS');
    expectCountedFailure(await attempt('true', index));
  });

  for (const [name, answer] of Object.entries(INDEX_ATTACKS)) {
    it(`working tree: ${name}: a counted failure, never a pass or an exclusion`, async () => {
      const run = await attempt(answer, index);
      expectCountedFailure(run);
      // The look-ups saw the changes: the bits were cleared and the layout is the build's, where a
      // preparation that failed would have made it tampering.
      expect(run.errorClass).toBeNull();
    });
  }
});

/** An agent attempt that makes `calls`, one a turn, then submits. */
const agentAttempt = (
  name: string,
  calls: ScriptedCall[],
  task = { fixture, snapshot },
  toolSet = 'bash+editor',
): Promise<AttemptRun> =>
  executeAttempt({
    ...task,
    driver,
    model: scriptedAgent(name, calls),
    modelName: name,
    mode: 'agent',
    agent: { config: { toolSet, limits: { commandTimeoutMs: 10_000, maxTurns: 10, maxWallMs: 120_000 } } },
    labels: { 'org.gitbench.attempt': name },
  });

const writeFile = (path: string, content: string): ScriptedCall => ({ tool: 'write_file', args: { path, content } });

describe('the red team, agents', { timeout: 300_000 }, () => {
  it(
    "the editor tools writing the repository's configuration, local " +
      'excludes and a hook, with an empty commit: a counted failure',
    async () => {
      const run = await agentAttempt('red-team-editor', [
        writeFile(
          '.git/config',
          '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\thooksPath = ' +
            '.git/hooks\n[status]\n\tshowUntrackedFiles = no\n[alias]\n\tstatus = log\n',
        ),
        writeFile('.git/info/exclude', 'notes.txt\n'),
        writeFile('.git/hooks/post-index-change', '#!/bin/sh\ngit add notes.txt\n'),
        { tool: 'str_replace', args: { path: '.git/info/exclude', old_str: 'notes.txt', new_str: 'notes.txt\n*.txt' } },
        `git commit -q --allow-empty -m 'add notes'`,
      ]);
      expectCountedFailure(run);
      expect(run.agent?.summary.exitStatus).toBe('submitted');
    },
  );

  it(
    'editor paths escaping the repository (a symbolic link into the runner, ' +
      '../, a FIFO, a directory): refused to the model, then a counted failure',
    async () => {
      const run = await agentAttempt('red-team-paths', [
        'ln -s /opt/gitbench/runner/session.py runner.py && mkfifo pipe && mkdir dir',
        writeFile('runner.py', 'import os\n'),
        writeFile('../../opt/gitbench/runner/batch.py', 'import os\n'),
        'read_file pipe',
        writeFile('pipe', 'x'),
        'read_file dir',
        writeFile('dir', 'x'),
      ]);
      expectCountedFailure(run);
      expect(run.errorClass).toBeNull();
      expect(run.agent?.summary.exitStatus).toBe('submitted');
      const refused = run.agent!.steps.slice(1, 7).map((s) => s.results[0]!);
      expect(refused.map((r) => [r.isError, r.output.split(':')[0]])).toEqual([
        [true, 'Error'],
        [true, 'Error'],
        [true, 'Error'],
        [true, 'Error'],
        [true, 'Error'],
        [true, 'Error'],
      ]);
    },
  );

  it('an agent that rewrites a commit object in place: tampering, and its trajectory ends so', async () => {
    const run = await agentAttempt('red-team-forger', [FORGE_COMMIT_OBJECT], history, 'bash');
    expect({ status: run.status, errorClass: run.errorClass, exit: run.agent?.summary.exitStatus }).toEqual({
      status: 'VALID_FAIL',
      errorClass: 'tampering',
      exit: 'tampering',
    });
    expect(run.agent?.summary.exitDetail).toMatch(/objects whose content is not what their names say/);
    expect(run.agent?.steps).toHaveLength(2);
  });

  it(
    'garbage and forged replies written to the channel from the bash tool, through ' +
      'every /proc path it can open, then the look-up attacks: a counted failure',
    async () => {
      const commands = [
        `printf 'garbage\\n' > /proc/1/fd/1; printf '@@GBOK r9\\n' > /proc/$PPID/fd/1; true`,
        ATTACKS['records forged through every /proc/*/fd/1 it can open']!,
        ATTACKS['core.fsmonitor running its program during git status']!,
        ATTACKS['status settings that hide the file, and a replace ref that shows the expected commit']!,
        ATTACKS['a detached process that does the task after the answer ended']!,
      ];
      const run = await executeAttempt({
        fixture,
        snapshot,
        driver,
        model: scriptedAgent('red-team-agent', commands),
        modelName: 'red-team-agent',
        mode: 'agent',
        agent: { config: { toolSet: 'bash', limits: { commandTimeoutMs: 10_000, maxTurns: 10, maxWallMs: 120_000 } } },
        labels: { 'org.gitbench.attempt': 'red-team-agent' },
      });
      expect({ status: run.status, errorClass: run.errorClass, exit: run.agent?.summary.exitStatus }).toMatchObject({
        status: 'VALID_FAIL',
      });
      expect([null, 'tampering']).toContain(run.errorClass);
      expect(run.agent?.summary.exitStatus).not.toBe('sandbox_error');
    },
  );
});

describe('the red team, every attack from an agent’s bash tool', { timeout: 300_000 }, () => {
  const tasks: [string, Record<string, string>, () => { fixture: Fixture; snapshot: BuiltSnapshot }][] = [
    ['', ATTACKS, () => ({ fixture, snapshot })],
    ['history: ', HISTORY_ATTACKS, () => history],
    ['working tree: ', INDEX_ATTACKS, () => index],
  ];
  for (const [prefix, attacks, task] of tasks)
    for (const [name, command] of Object.entries(attacks)) {
      it(`${prefix}${name}: a counted failure, never a pass, an exclusion or a sandbox error`, async () => {
        const run = await agentAttempt('red-team-agent', [command], task(), 'bash');
        expectCountedFailure(run);
        expect(run.agent?.summary.exitStatus).not.toBe('sandbox_error');
      });
    }
});

/**
 * The task families' graders, each given a wrong answer and a trick that would change what the
 * grader sees: a program named like the grader's tools earlier in PATH and in HOME, a hook, Python
 * start-up files, pytest configuration and conftest.py files wherever pytest might look for them, and
 * git configuration and attributes for GitGoodBench's diff.
 */
describe('the red team, task families', { timeout: 300_000 }, () => {
  let tasks: FamilyTasks;
  beforeAll(async () => {
    tasks = await buildFamilyTasks(driver);
  }, 300_000);

  it(
    "a repository task's grader, after a copy of the input named like the " +
      'output, a forged verdict and programs earlier in PATH: a counted failure',
    async () => {
      const answer = [
        'mkdir -p output',
        'cp input/card.ppm output/card.png',
        FORGED_VERDICT,
        ...PATH_TRICK,
        'export PATH=~/bin:.:$PATH',
      ].join('\n');
      expectCountedFailure(await attempt(answer, tasks['repo-tasks']!));
    },
  );

  it(
    'the gist evaluator, given a gist whose test asserts nothing and ' +
      'conftest.py and pytest.ini files that pass every test: a counted failure',
    async () => {
      const gist = "cat > gist.py <<'GITBENCH_GIST'\ndef test_pattern_flat():\n    assert False\nGITBENCH_GIST";
      expectCountedFailure(await attempt([gist, ...PYTEST_TRICK, ...PATH_TRICK].join('\n'), tasks.gists!));
    },
  );

  it(
    "GitGoodBench's merge probes, with the conflict left, attributes, " +
      'diff and hook settings and programs earlier in PATH: a counted failure',
    async () => {
      const answer = [
        'git add -A && git -c core.hooksPath=/dev/null commit -q --no-verify -m merged || true',
        "printf '* -diff merge=ours\\n' | tee .gitattributes .git/info/attributes > /dev/null",
        'git config diff.noprefix true && git config diff.external /bin/true && git ' +
          'config alias.diff "!true" && git config core.attributesFile .gitattributes',
        ...PATH_TRICK,
      ].join('\n');
      expectCountedFailure(await attempt(answer, tasks.ggb!));
    },
  );
});
