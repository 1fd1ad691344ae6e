import { lookupEnvironment, parseSuite, shellQuote, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type AttemptRun, type BuiltSnapshot } from '../src';
import { scriptedAgent } from './agent/support/scripted-agent';
import { swappedAgentAttempt } from './agent/support/swapped-agent';
import { FIXTURE } from './red-team-attacks';
import { useTestDriver } from './test-driver';

/**
 * The red team against GitBench's own reads of an agent's repository (the state recorded with each
 * step): the session runner's read after each tool call of our loop (as the sandbox's uid), and the
 * observer's beside a third-party agent (as a uid of its own, OBSERVER_UID). The agent commits an
 * embedded repository (a submodule to git) whose own configuration names a clean filter and an
 * external diff driver, and sets diff.submodule=diff in the repository: the read's `git status` and
 * `git add -A` look into the submodule with a git that reads its configuration, and its diff of the
 * moved gitlink runs a `git diff` there. Each program leaves a file named after the uid it ran as in
 * the work tree (made world-writable), which the scorer's `git status --porcelain` would show; the
 * filter also tries the observer's own state directory (its TMPDIR), which only the observer's uid may
 * write. No read may start any of them. Once, such a filter started by the observer's `git add -A`
 * started a process that outlived the agent (the runner's sweep of the sandbox's uid does not reach
 * the observer's) and kept hiding notes.txt in the local excludes during the scorer's look-ups: each
 * observation also ends by killing every other process of the observer's uid (docker-observe.ts,
 * runner/observe.py). No agent image is built (agent/support/swapped-agent.ts).
 */
let driver: DockerSandboxDriver;
const labels = useTestDriver('red-team-observer', (d) => (driver = d));
let fixture: Fixture;
let snapshot: BuiltSnapshot;

beforeAll(async () => {
  fixture = parseSuite([{ path: 'red_team/f001.yaml', text: FIXTURE }]).fixtures[0]!;
  snapshot = await buildFixtureRepository(fixture, driver);
}, 300_000);

const FILTER = 'touch "../ran-as-$(id -u)"; touch "$TMPDIR/gitbench-owned" && touch ../wrote-the-observer-tmp\ncat\n';
const EXTERNAL_DIFF = 'touch "../diff-ran-as-$(id -u)"\n';

const PLANT = [
  'chmod a+rwx .',
  'git init -q sub',
  `printf '%s' ${shellQuote(FILTER)} > sub/filter.sh`,
  `printf '%s' ${shellQuote(EXTERNAL_DIFF)} > sub/diff.sh`,
  "echo 's.txt filter=x' > sub/.gitattributes && echo s > sub/s.txt",
  'git -C sub add s.txt .gitattributes && git -C sub commit -qm s',
  "git add sub 2>/dev/null && git commit -qm 'add notes'",
  'git -C sub commit -q --allow-empty -m moved',
  // Only now the programs: the agent's own git above ran none of them.
  "git -C sub config filter.x.clean 'sh filter.sh' && git -C sub config diff.external 'sh diff.sh'",
  'git config diff.submodule diff',
  'touch -d 2001-01-01 sub/s.txt',
].join(' && ');

/** Run by a filter, in the embedded repository: a process of its own that keeps hiding notes.txt. */
const LINGER =
  "setsid sh -c 'for i in $(seq 30000); do rm -f ../.git/info/exclude; echo notes.txt > ../.git/info/exclude; " +
  "done' " +
  '</dev/null >/dev/null 2>&1 &\ncat\n';

const PLANT_LINGER = [
  'chmod a+rwx .git/info',
  'git init -q sub',
  `printf '%s' ${shellQuote(LINGER)} > sub/linger.sh`,
  "echo 's.txt filter=x' > sub/.gitattributes && echo s > sub/s.txt",
  'git -C sub add s.txt .gitattributes && git -C sub commit -qm s',
  "git -C sub config filter.x.clean 'sh linger.sh'",
  'touch -d 2001-01-01 sub/s.txt',
  "git add sub 2>/dev/null && git commit -qm 'add notes'",
].join(' && ');

/** What the scorer's look-ups saw: the submodule changed, notes.txt left out, and nothing a program left. */
function expectNoProgramRan(run: AttemptRun): void {
  expect({ status: run.status, errorClass: run.errorClass }).toEqual({ status: 'VALID_FAIL', errorClass: null });
  const probes = run.attempt?.sandbox.kind === 'docker' ? run.attempt.sandbox.evidence.probes : {};
  expect(Object.values(probes).map((p) => p.stdout)).toEqual([' M sub\n?? notes.txt\n', 'add notes\n']);
}

describe("GitBench's reads of an agent's repository start no program of the agent's", { timeout: 180_000 }, () => {
  it("our loop's read after a tool call (the session runner's, as the sandbox's uid)", async () => {
    const run = await executeAttempt({
      fixture,
      snapshot,
      driver,
      model: scriptedAgent('red-team-observer', [PLANT]),
      modelName: 'red-team-observer',
      mode: 'agent',
      agent: { config: { toolSet: 'bash', limits: { commandTimeoutMs: 10_000, maxTurns: 4, maxWallMs: 120_000 } } },
      labels: { ...labels, 'org.gitbench.attempt': 'red-team-observer' },
    });
    expect(run.agent?.summary.exitStatus).toBe('submitted');
    expectNoProgramRan(run);
    // The read still saw what the step did: the submodule committed, and moved since.
    const repo = run.agent?.steps[0]?.repo;
    expect(repo?.unstaged).toBe(1);
    expect(repo?.diff).toContain('Subproject commit');
  });

  it("the observer's reads beside a third-party agent (as the observer's own uid)", async () => {
    const run = await swappedAgentAttempt({ fixture, snapshot, driver, labels }, PLANT);
    expect(run.agent?.summary.exitStatus).toBe('model_stopped');
    expectNoProgramRan(run);
  });

  it("the observer's reads: no program of the agent's outlives them to hide the file from the look-ups", async () => {
    const run = await swappedAgentAttempt({ fixture, snapshot, driver, labels }, PLANT_LINGER);
    expect(run.agent?.summary.exitStatus).toBe('model_stopped');
    expectNoProgramRan(run);
  });
});

/**
 * A hostile agent's process rewrites its repository's configuration in a tight loop, a filter key
 * (named by .gitattributes for the changed a.txt) there one moment and gone the next, to land it
 * between the read's look for filter keys and the git calls that would run the filter. The
 * observation stops every process of the sandbox's uid for the whole read (runner/observe.py); each
 * run of the filter adds its uid to /tmp/filter-runs, and only a read runs git on a.txt meanwhile.
 */
const FLIP = [
  "git init -q flip && cd flip && echo '* filter=x' > .gitattributes && echo a > a.txt",
  'git add . && git -c user.name=a -c user.email=a@b commit -qm a && echo changed > a.txt',
  'cp .git/config /tmp/plain && cp .git/config /tmp/hostile',
  `git config --file /tmp/hostile filter.x.clean ${shellQuote('echo $(id -u) >> /tmp/filter-runs; cat')}`,
  'plain="$(cat /tmp/plain)" && hostile="$(cat /tmp/hostile)" && touch /tmp/flipping',
  'while [ ! -e /tmp/stop-flipping ]; do echo "$hostile" > .git/config; echo "$plain" > .git/config; done',
  'echo stopped',
].join(' && ');

describe("the observer's read against a configuration that changes under it", { timeout: 300_000 }, () => {
  it('runs no filter the agent adds while the read is under way', async () => {
    const session = await driver.create({ labels: { ...labels, 'org.gitbench.attempt': 'red-team-flip' } });
    try {
      const agent = session.exec(FLIP, { timeoutMs: 240_000 });
      const env = lookupEnvironment();
      const n = Number(env.GIT_CONFIG_COUNT ?? 0);
      const trusted = { GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${n}`]: 'safe.directory' };
      const options = {
        cwd: 'flip',
        previousTree: null,
        diffBytes: 65_536,
        timeoutMs: 30_000,
        maxOutputBytes: 1 << 22,
      };
      while ((await session.observe!('test -e /tmp/flipping')).exitCode !== 0);
      const reads = [];
      for (let i = 0; i < 30; i++)
        reads.push(
          await session.observeRepoState!({ ...options, env: { ...env, ...trusted, [`GIT_CONFIG_VALUE_${n}`]: '*' } }),
        );
      await session.observe!('touch /tmp/stop-flipping');
      await expect(agent).resolves.toMatchObject({ exitCode: 0, stdout: 'stopped\n' });
      expect(reads.filter((r) => r.timedOut || !r.stdout.includes('\n@@gb:status\n'))).toEqual([]);
      const runs = await session.observe!('cat /tmp/filter-runs 2>/dev/null | sort | uniq -c');
      expect(runs.stdout).toBe('');
    } finally {
      await session.cleanup();
    }
  });
});
