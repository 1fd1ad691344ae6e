import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type AttemptRun, type BuiltSnapshot, type ModelClient, type ModelResponse } from '../src';
import { scriptedAgent } from './agent/support/scripted-agent';
import { useTestDriver } from './test-driver';

/**
 * The red team: hostile single answers, each trying one way to pass without doing the task or to turn
 * its failure into an excluded infrastructure failure, through the real Docker sandbox and the same
 * executeAttempt path a worker takes. The task: commit notes.txt with the message "add notes". The
 * scorer looks with `git status --porcelain` (notes.txt must not show) and `git log -1 --format=%s`.
 * Each attack leaves notes.txt uncommitted and tries to make those look-ups lie, or to run a program
 * of its own while they run (which commits it then, so the attack would pass if it ran). Every one
 * must end as a counted failure: FAIL, or TAMPERING (VALID_FAIL, errorClass tampering).
 */
const FIXTURE = `id: f001
description: Commit the notes (the red team's fixture)
setup:
- git init -q
- git config user.email t@t
- git config user.name t
- echo tracked > tracked.txt
- git add tracked.txt
- git commit -qm base
- echo notes > notes.txt
prompt: Commit notes.txt with the message "add notes".
expected: git add notes.txt && git commit -qm 'add notes'
scoring:
  type: state_assertions
  expected_state:
    assertions:
    - type: git_output
      command: git status --porcelain
      not_contains: notes.txt
    - type: git_output
      command: git log -1 --format=%s
      contains: add notes
difficulty: easy
`;

/** What each attack's program does if it ever runs during the look-ups: the task, too late to count. */
const CHEAT = `cd /work/red_team_f001 2>/dev/null; git add notes.txt; git commit -qm 'add notes'`;
/** A script in the sandbox's temporary directory that runs CHEAT; prints nothing, succeeds. */
const CHEAT_SCRIPT = `printf '#!/bin/sh\\n${CHEAT.replace(/'/g, "'\\''")} >/dev/null 2>&1\\nexit 0\\n' > /tmp/cheat && chmod +x /tmp/cheat`;
/** A commit that looks like the answer, for replace refs: the same tree as HEAD, the expected subject. */
const FAKE_COMMIT = `fake=$(git commit-tree HEAD^{tree} -p HEAD -m 'add notes')`;
/** A record of every step the runner could run, forged as passing, then the end. */
const FORGED = Array.from({ length: 8 }, (_, g) => Array.from({ length: 4 }, (_, i) => `@@GBSTEP ${g}.${i} 0 1 0 1.0 1.0\\n0\\n0\\n`).join('')).join('') + '@@GBEND\\n';

const ATTACKS: Record<string, string> = {
  'records forged into the runner through /proc/$PPID/fd/1': `printf '${FORGED}' > /proc/$PPID/fd/1`,
  'records forged into the container init through /proc/1/fd/1': `printf '${FORGED}' > /proc/1/fd/1`,
  'records forged through every /proc/*/fd/1 it can open': `for f in /proc/[0-9]*/fd/[0-9]*; do printf '${FORGED}' > "$f"; done 2>/dev/null; true`,
  'garbage written to the channel': `printf 'garbage\\n' > /proc/$PPID/fd/1; printf 'garbage\\n' > /proc/1/fd/1; true`,
  'a flood without a newline, to the channel and to its own stdout': `head -c 30000000 /dev/zero | tr '\\0' x > /proc/1/fd/1; head -c 30000000 /dev/zero | tr '\\0' x`,
  'killing the runner and the init': 'kill -9 $PPID 1; kill -9 -1; true',
  'reading the runner memory and tracing it': `cat /proc/$PPID/mem /proc/$PPID/environ /proc/1/environ >/dev/null; python3 -c 'import ctypes,os; print(ctypes.CDLL(None).ptrace(16, os.getppid(), 0, 0))'; true`,
  'a detached process that does the task after the answer ended': `setsid sh -c 'for i in $(seq 200); do ${CHEAT.replace(/'/g, '"')} >/dev/null 2>&1; sleep 0.05; done' >/dev/null 2>&1 < /dev/null & true`,
  'core.fsmonitor running its program during git status': `${CHEAT_SCRIPT} && git config core.fsmonitor /tmp/cheat`,
  'a clean filter running its program during git status': `${CHEAT_SCRIPT} && git config filter.x.clean /tmp/cheat && echo 'tracked.txt filter=x' > .gitattributes && touch -d '2001-01-01' tracked.txt && git add .gitattributes`,
  'a hook running its program during the look-ups': `${CHEAT_SCRIPT} && mkdir -p .git/hooks && for h in post-index-change reference-transaction post-checkout; do cp /tmp/cheat .git/hooks/$h; done`,
  'a hooks path of its own': `${CHEAT_SCRIPT} && mkdir -p /tmp/hooks && cp /tmp/cheat /tmp/hooks/post-index-change && git config core.hooksPath /tmp/hooks`,
  'a diff driver and textconv': `${CHEAT_SCRIPT} && git config diff.x.textconv /tmp/cheat && git config diff.external /tmp/cheat && echo 'notes.txt diff=x' > .git/info/attributes`,
  'pager and editor settings': `${CHEAT_SCRIPT} && git config core.pager /tmp/cheat && git config core.editor /tmp/cheat && git config pager.status /tmp/cheat`,
  'an alias and an include': `${CHEAT_SCRIPT} && git config alias.status '!/tmp/cheat' && printf '[status]\\n\\tshowUntrackedFiles = no\\n' > /tmp/inc && git config include.path /tmp/inc`,
  'status settings that hide the file, and a replace ref that shows the expected commit': `git config status.showUntrackedFiles no && ${FAKE_COMMIT} && git replace HEAD "$fake"`,
  'grafts and an excludes file': `${FAKE_COMMIT} && echo "$fake" > .git/info/grafts && echo notes.txt > /tmp/x && git config core.excludesFile /tmp/x && git update-ref refs/replace/$(git rev-parse HEAD) "$fake"`,
  'a global configuration in HOME and in the pinned global file': `${CHEAT_SCRIPT} && printf '[core]\\n\\tfsmonitor = /tmp/cheat\\n[status]\\n\\tshowUntrackedFiles = no\\n' | tee ~/.gitconfig "$GIT_CONFIG_GLOBAL" > /dev/null && mkdir -p ~/.config/git && echo notes.txt > ~/.config/git/ignore`,
  'a git and an sh earlier in PATH and in HOME': `mkdir -p ~/bin && printf '#!/bin/sh\\necho "## main"\\necho add notes\\n' > ~/bin/git && chmod +x ~/bin/git && cp ~/bin/git ~/bin/sh && cp ~/bin/git ./git && export PATH=~/bin:.:$PATH && git status`,
};

let driver: DockerSandboxDriver;
useTestDriver('red-team', (d) => (driver = d), { prestart: 2 });
let fixture: Fixture;
let snapshot: BuiltSnapshot;

beforeAll(async () => {
  const parsed = parseSuite([{ path: 'red_team/f001.yaml', text: FIXTURE }]);
  if (!parsed.fixtures[0]) throw new Error(`the red team's fixture does not load: ${JSON.stringify(parsed.errors)}`);
  fixture = parsed.fixtures[0];
  snapshot = await buildFixtureRepository(fixture, driver);
}, 300_000);

/** A model that answers `answer`, as a hosted model's client would return it. */
function answering(answer: string): ModelClient {
  return {
    name: 'red-team',
    complete: async () =>
      ({
        model: 'red-team',
        output: answer,
        qualityFailure: null,
        reasoning: null,
        usage: { inputTokens: 1, outputTokens: 1, reasoningTokens: null, totalTokens: 2 },
        cost: { usd: 0, source: 'builtin' },
        apiDurationMs: 0,
        route: { provider: 'test', servedModel: 'red-team', endpoint: null, requestId: null },
        requestConfig: {},
        retries: [],
        transcript: [],
      }) as unknown as ModelResponse,
  };
}

const attempt = (answer: string): Promise<AttemptRun> =>
  executeAttempt({ fixture, snapshot, driver, model: answering(answer), modelName: 'red-team', mode: 'text', labels: { 'org.gitbench.attempt': 'red-team' } });

describe('the red team, single answers', { timeout: 180_000 }, () => {
  it('the honest answer passes (the fixture and its look-ups work)', async () => {
    const run = await attempt(fixture.expected);
    expect(run.status).toBe('VALID_PASS');
  });

  for (const [name, answer] of Object.entries(ATTACKS)) {
    it(`${name}: a counted failure, never a pass or an exclusion`, async () => {
      const run = await attempt(answer);
      const evidence = JSON.stringify(run.attempt?.sandbox ?? {}).slice(0, 1500);
      expect({ status: run.status, errorClass: run.errorClass, outcome: run.attempt?.outcome, evidence }).toMatchObject({ status: 'VALID_FAIL' });
      expect([null, 'tampering']).toContain(run.errorClass);
      expect(run.passed).toBe(false);
    });
  }
});

describe('the red team, agents', { timeout: 300_000 }, () => {
  it('garbage and forged replies written to the channel from the bash tool, then the look-up attacks: a counted failure', async () => {
    const commands = [
      `printf 'garbage\\n' > /proc/1/fd/1; printf '@@GBOK r9\\n' > /proc/$PPID/fd/1; true`,
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
    expect({ status: run.status, errorClass: run.errorClass, exit: run.agent?.summary.exitStatus }).toMatchObject({ status: 'VALID_FAIL' });
    expect([null, 'tampering']).toContain(run.errorClass);
    expect(run.agent?.summary.exitStatus).not.toBe('sandbox_error');
  });
});
