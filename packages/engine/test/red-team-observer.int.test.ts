import { lookupEnvironment, parseSuite, shellQuote, TamperingError, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver, Sandbox } from '@gitbench/sandbox';
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

/**
 * A hostile agent's process that the kernel continues under the observer's stop, no process of the
 * sandbox's uid running to send the SIGCONT: an inotify watch of reads of .git/config whose owner gets
 * SIGCONT for each event (F_SETOWN, F_SETSIG, O_ASYNC), or a POSIX timer whose signal is SIGCONT, set
 * again to 2 ms from now every millisecond the process runs, so that it expires 2 ms into a stop (a
 * periodic one whose signal a SIGSTOP discards, pending, is not set again by the kernel). Each
 * time it is continued it swaps the configuration between a filter key and none (.gitattributes names
 * the filter for every file), to land the key between the read's look for filter keys and git's read of
 * the configuration. The filter, run, adds its uid to /tmp/filter-runs. With `call`, a child makes ten
 * calls to the gateway (the Anthropic Messages API on its socket), whose reads before each call are the
 * ones attacked. With `exit` (inotify), a child continued once puts the key in and exits, leaving only its
 * death to see; another takes its place. With `top`, the command's own process does so, and the runner
 * kills the rest. Run only in the sandbox, as the sandbox's uid.
 */
const RESUMER = `import ctypes, fcntl, json, os, signal, socket, sys, time
SIGCONT, IN_ACCESS, F_SETOWN, F_SETSIG, O_ASYNC = 18, 0x1, 8, 10, 0o20000
libc = ctypes.CDLL(None, use_errno=True)
configs = [open('/tmp/plain').read(), open('/tmp/hostile').read()]
flips = [0]
watch = None


def flip(*_):
    if watch is not None:
        try:
            os.read(watch, 65536)  # a queued event would take the next one in, unsignalled
        except OSError:
            pass
    flips[0] += 1
    with open('.git/config', 'w') as f:
        f.write(configs[flips[0] % 2])


def watched():
    watch = libc.inotify_init1(os.O_NONBLOCK)
    assert watch >= 0 and libc.inotify_add_watch(watch, b'.git/config', IN_ACCESS) >= 0
    fcntl.fcntl(watch, F_SETOWN, os.getpid())
    fcntl.fcntl(watch, F_SETSIG, SIGCONT)
    fcntl.fcntl(watch, fcntl.F_SETFL, fcntl.fcntl(watch, fcntl.F_GETFL) | O_ASYNC)
    return watch


def flip_and_exit(*_):
    with open('.git/config', 'w') as f:
        f.write(configs[1])
    os._exit(0)


signal.signal(signal.SIGCONT, flip)
if sys.argv[1] == 'exit':
    # A child that, continued once, puts the filter key in and exits: the read sees only its death,
    # its parent still stopped. Another child takes its place for the next read.
    open('/tmp/resuming', 'w').close()
    while not os.path.exists('/tmp/stop-resuming'):
        child = os.fork()
        if child == 0:
            with open('.git/config', 'w') as f:
                f.write(configs[0])
            signal.signal(signal.SIGCONT, flip_and_exit)
            watch = watched()
            while True:
                time.sleep(1)
        os.waitpid(child, 0)
    print('ended by itself')
    sys.exit(0)
if sys.argv[1] == 'top':
    # The command's own process (exec'd), continued once, puts the key in and exits: the runner, its
    # command ended, kills what is left, which must not excuse the exit.
    signal.signal(signal.SIGCONT, flip_and_exit)
    watch = watched()
    open('/tmp/resuming', 'w').close()
    while True:
        time.sleep(1)
if sys.argv[1] == 'inotify':
    watch = watched()
else:
    # A handler, not SIGCONT's default: the kernel parks a timer whose signal is ignored.
    class SigEvent(ctypes.Structure):
        _fields_ = [('value', ctypes.c_void_p), ('signo', ctypes.c_int), ('notify', ctypes.c_int),
                    ('pad', ctypes.c_int * 12)]
    # 2 ms: on a quiet machine a read can end within 20 ms, before a later timer fires.
    timer, later = ctypes.c_void_p(), (ctypes.c_long * 4)(0, 0, 0, 2_000_000)
    assert libc.timer_create(1, ctypes.byref(SigEvent(None, SIGCONT, 0)), ctypes.byref(timer)) == 0


def ended():
    if watch is None:
        libc.timer_settime(timer, 0, later, None)
    time.sleep(0.001)
    return os.path.exists('/tmp/stop-resuming') or caller and os.waitpid(caller, os.WNOHANG)[0]


caller = None
open('/tmp/resuming', 'w').close()
if sys.argv[2:] == ['call']:
    caller = os.fork()
    for _ in range(10 if caller == 0 else 0):
        s = socket.socket(socket.AF_UNIX)
        s.connect('/run/gitbench-gateway/gateway.sock')
        body = json.dumps({'model': 'nop', 'max_tokens': 64, 'messages': [{'role': 'user', 'content': 'hi'}]})
        s.sendall(('POST /v1/messages HTTP/1.1\\r\\nHost: gateway\\r\\nContent-Type: application/json\\r\\n'
                   'Content-Length: %d\\r\\nConnection: close\\r\\n\\r\\n%s' % (len(body), body)).encode())
        while s.recv(65536):
            pass
    if caller == 0:
        os._exit(0)
while not ended():
    pass
print('ended by itself')
`;

/** The repository's two configurations, and a filter named for every file: run in the repository. */
const RESUMER_CONFIGS = [
  "echo '* filter=x' > .gitattributes && cp .git/config /tmp/plain && cp .git/config /tmp/hostile",
  `git config --file /tmp/hostile filter.x.clean ${shellQuote('echo $(id -u) >> /tmp/filter-runs; cat')}`,
].join(' && ');

const resumer = (mode: 'inotify' | 'timer' | 'exit' | 'top', call: boolean) =>
  `${RESUMER_CONFIGS} && ${mode === 'top' ? 'exec ' : ''}python3 -c ${shellQuote(RESUMER)} ${mode}` +
  (call ? ' call' : '');

/** The observer's reads of the session's repository `flip`, as a third-party agent's observer reads. */
function flipReads(session: Sandbox) {
  const env = lookupEnvironment();
  const n = Number(env.GIT_CONFIG_COUNT ?? 0);
  const trusted = { GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${n}`]: 'safe.directory' };
  const options = { cwd: 'flip', previousTree: null, diffBytes: 65_536, timeoutMs: 30_000, maxOutputBytes: 1 << 22 };
  return () => session.observeRepoState!({ ...options, env: { ...env, ...trusted, [`GIT_CONFIG_VALUE_${n}`]: '*' } });
}

describe("the observer's read against a process the kernel continues under the stop", { timeout: 300_000 }, () => {
  it.each(['inotify', 'timer', 'exit', 'top'] as const)(
    'calls a read tampering if the process ran during it (%s), and no read it let through ran the filter',
    async (mode) => {
      const session = await driver.create({ labels: { ...labels, 'org.gitbench.attempt': `red-team-${mode}` } });
      try {
        const init = ['git init -q flip && cd flip && echo a > a.txt && git add .', 'echo changed > a.txt'];
        const commit = 'git -c user.name=a -c user.email=a@b commit -qm a';
        expect((await session.exec(`${init[0]} && ${commit} && ${init[1]}`)).exitCode).toBe(0);
        const agent = session.exec(`cd flip && ${resumer(mode, false)}`, { timeoutMs: 240_000 });
        while ((await session.observe!('test -e /tmp/resuming')).exitCode !== 0);
        const read = flipReads(session);
        const filterRuns = async () => (await session.observe!('cat /tmp/filter-runs 2>/dev/null')).stdout;
        // Each read's output: a state (let through), withheld (unobserved: a thread it could not judge
        // changed), or a TamperingError; with the filter's runs during it.
        const reads: { read: number; letThrough: boolean; filterRan: boolean; unobserved?: string }[] = [];
        let tampering: unknown = null;
        for (let i = 0; i < 20 && !tampering; i++) {
          const runsBefore = await filterRuns();
          try {
            const { unobserved, stdout } = await read();
            reads.push({
              read: i,
              letThrough: stdout !== '',
              filterRan: (await filterRuns()) !== runsBefore,
              unobserved,
            });
          } catch (error) {
            tampering = error;
          }
        }
        // Every read let through: the stop held, and no filter of the agent's ran.
        expect(reads.filter((r) => r.letThrough && (r.filterRan || r.unobserved))).toEqual([]);
        expect(tampering).toBeInstanceOf(TamperingError);
        expect((tampering as Error).message).toMatch(/of the sandbox's uid ran/);
        // The observer killed the agent's processes: it never ends by itself.
        await session.observe!('touch /tmp/stop-resuming');
        expect((await agent).stdout).not.toContain('ended by itself');
      } finally {
        await session.cleanup();
      }
    },
  );

  it.each(['inotify', 'timer'] as const)('ends a third-party agent that does so (%s) as TAMPERING', async (mode) => {
    const run = await swappedAgentAttempt({ fixture, snapshot, driver, labels }, resumer(mode, true));
    expect({ status: run.status, errorClass: run.errorClass, exit: run.agent?.summary.exitStatus }).toEqual({
      status: 'VALID_FAIL',
      errorClass: 'tampering',
      exit: 'tampering',
    });
    expect(run.agent?.summary.exitDetail).toMatch(/the observer's read of the repository: threads .* ran/);
  });
});
