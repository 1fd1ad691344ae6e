import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandboxDriver, type ExecOptions, type Sandbox } from '../src';

/**
 * Model output is hostile until proven otherwise. Each case runs through the real Docker driver while
 * a second sandbox does ordinary git work, and checks that the damage stays inside the first one.
 */
const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for sandbox integration tests (scripts/test.sh sets it)');

const FAKE_SECRET = `gitbench-fake-secret-${process.pid}-${Date.now()}`;
const runLabel = { 'org.gitbench.test': `hostile-${process.pid}` };
let driver: DockerSandboxDriver;
let hostDir: string;

/** The bytes a capped stream kept: a sandbox's exec marks what it left out between the head and the tail. */
const kept = (text: string) => text.replace(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, '');

beforeAll(async () => {
  process.env.GITBENCH_TEST_SECRET = FAKE_SECRET;
  driver = await new DockerSandboxDriver({ image, labels: runLabel }).init();
  hostDir = await mkdtemp(join(tmpdir(), 'gitbench-hostile-'));
  await writeFile(join(hostDir, 'canary'), 'still here');
});
afterAll(async () => {
  delete process.env.GITBENCH_TEST_SECRET;
  await driver?.close();
  await driver?.removeByLabels(runLabel);
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

/** What a sandbox offers the bystander. */
interface Runs {
  exec(command: string): Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

/**
 * Runs `hostile` in one sandbox while a bystander sandbox, opened the same way, commits in a loop;
 * both are removed after. Checks that the bystander never failed and the host's canary is untouched.
 */
async function containedIn<S extends Runs, T>(
  open: () => Promise<S>,
  remove: (s: S) => Promise<void>,
  hostile: (box: S) => Promise<T>,
): Promise<T> {
  const [box, bystander] = await Promise.all([open(), open()]);
  try {
    await bystander.exec(
      'git init -q -b main . && echo ok > f && git add f && git -c user.name=b -c user.email=b@b commit -qm base',
    );
    let stop = false;
    // Failures are collected, not thrown, so the loop never outlives the test as an unhandled rejection.
    const work = (async () => {
      const problems: string[] = [];
      let rounds = 0;
      while (!stop || rounds < 1) {
        const r = await bystander.exec(
          `echo ${rounds} > f && git -c user.name=b -c user.email=b@b commit -qam r${rounds} && git log --format=%s -1`,
        );
        if (r.exitCode !== 0 || r.stdout.trim() !== `r${rounds}`)
          problems.push(`round ${rounds}: exit ${r.exitCode} ${r.stdout} ${r.stderr}`);
        rounds++;
      }
      return { rounds, problems };
    })();
    let result: T;
    try {
      result = await hostile(box);
    } finally {
      stop = true;
    }
    const { rounds, problems } = await work;
    expect(problems).toEqual([]);
    expect(rounds).toBeGreaterThan(0);
    const log = await bystander.exec('git log --format=%s | wc -l && cat f');
    expect(log.exitCode).toBe(0);
    expect(await readFile(join(hostDir, 'canary'), 'utf8')).toBe('still here');
    return result;
  } finally {
    await Promise.all([remove(box), remove(bystander)]);
  }
}

/** Tries a TCP connection, DNS and HTTP, then lists the network interfaces. */
const NETWORK_PROBE =
  `(exec 3<>/dev/tcp/1.1.1.1/80) 2>&1; getent hosts example.com || echo no-dns; ` +
  `python3 -c "import urllib.request; urllib.request.urlopen('http://example.com', ` +
  `timeout=3)" 2>&1 | tail -1; ls /sys/class/net`;

function expectNoNetwork(r: { stdout: string }): void {
  expect(r.stdout).toMatch(/unreachable|Network|Cannot assign/i);
  expect(r.stdout).toContain('no-dns');
  expect(r.stdout.trim().split('\n').pop()).toBe('lo');
}

const contained = <T>(hostile: (box: Sandbox) => Promise<T>) =>
  containedIn(
    () => driver.create(),
    (b) => b.cleanup(),
    hostile,
  );

describe('hostile answers in a Docker sandbox', () => {
  it('deleting everything only empties the sandbox', async () => {
    await contained(async (box) => {
      await box.exec('git init -q . && echo x > file');
      // The step's own output is lost with /tmp, where it was kept; the next command still runs.
      await box.exec(`rm -rf --no-preserve-root ~ /work ${hostDir} / 2>/dev/null`);
      const after = await box.exec('ls -A /work | wc -l; test -x /usr/bin/git && echo intact');
      expect(after.stdout.trim().split('\n')).toEqual(['0', 'intact']); // the image is read-only
    });
  });

  it('a fork bomb hits the pids limit and is killed at its timeout', async () => {
    await contained(async (box) => {
      const r = await box.exec(':(){ :|:& };:', { timeoutMs: 3_000 });
      expect(r.durationMs).toBeLessThan(15_000);
      const again = await box.exec('echo alive');
      expect(again.stdout.trim()).toBe('alive');
    });
  });

  it('has no network at all', async () => {
    await contained(async (box) => {
      expectNoNetwork(await box.exec(NETWORK_PROBE, { timeoutMs: 15_000 }));
    });
  });

  it('sees none of the host environment', async () => {
    await contained(async (box) => {
      const r = await box.exec(
        'env; cat /proc/1/environ 2>/dev/null | tr "\\0" "\\n"; grep -rs GITBENCH_TEST_SECRET /proc/*/environ',
      );
      expect(r.stdout).not.toContain(FAKE_SECRET);
      expect(r.stdout).not.toContain('GITBENCH_TEST_SECRET');
      expect(r.stdout).not.toMatch(/DATABASE_URL|REDIS_URL|DOCKER_HOST/);
    });
  });

  it('gigabytes of output are cut at the cap without filling host memory', async () => {
    await contained(async (box) => {
      const before = process.memoryUsage().rss;
      const r = await box.exec('head -c 4G /dev/zero; yes >&2', { maxOutputBytes: 64 * 1024, timeoutMs: 20_000 });
      expect(r.truncated).toBe(true);
      expect(kept(r.stdout).length).toBeLessThanOrEqual(64 * 1024);
      expect(kept(r.stderr).length).toBeLessThanOrEqual(64 * 1024);
      expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
    });
  });

  it('a disk flood ends at the workdir size, not on the host disk', async () => {
    await contained(async (box) => {
      const r = await box.exec('dd if=/dev/zero of=big bs=1M count=2000 2>&1; stat -c %s big', { timeoutMs: 20_000 });
      expect(r.stdout).toMatch(/No space left/);
      expect(Number(r.stdout.trim().split('\n').pop())).toBeLessThanOrEqual(256 * 1024 * 1024);
    });
  });

  it('sleeping forever is killed at the timeout, background children included', async () => {
    await contained(async (box) => {
      const r = await box.exec('sleep 1000 & sleep infinity', { timeoutMs: 2_000 });
      expect(r.timedOut).toBe(true);
      expect(r.durationMs).toBeLessThan(6_000);
      const ps = await box.exec(
        'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = sleep ] && echo $p; done | wc -l',
      );
      expect(ps.stdout.trim()).toBe('0'); // the container's init is the runner, not a sleep
    });
  });

  it(
    'a child that leaves its process group is killed with ' + 'every process of the sandbox uid when its step ends',
    async () => {
      await contained(async (box) => {
        const r = await box.runBatch({
          groups: [
            {
              stopOnFailure: false,
              steps: [
                { id: 'escape', command: ESCAPE, timeoutMs: 1_000 },
                { id: 'left', command: LEFTOVERS },
              ],
            },
          ],
        });
        expect(r.aborted).toBeUndefined();
        expect(r.groups[0]!.map((x) => x.stdout.trim())).toEqual(['detached', '0']);
        expect(r.durationMs).toBeLessThan(15_000);
      });
    },
  );
});

/**
 * The agent path: a model's tool calls arrive one by one in the attempt's long-lived session, with the
 * agent's command timeout and output cap (the loop's defaults are 30 s and 16 KiB). A hostile agent has
 * the whole session to try things in; each case checks that the session still answers afterwards (an
 * agent that could kill its own runner would turn its failure into an infrastructure error, which is
 * retried and excluded from quality denominators) and that a bystander session is untouched.
 */
describe('hostile tool calls in an agent session', () => {
  const containedSession = <T>(hostile: (s: Sandbox) => Promise<T>) =>
    containedIn(
      () => driver.create({ labels: { 'org.gitbench.attempt': 'hostile-agent' } }),
      (s) => s.cleanup(),
      hostile,
    );
  const TOOL = { timeoutMs: 3_000, maxOutputBytes: 16 * 1024 };
  const call = (s: Sandbox, command: string, opts: ExecOptions = {}) => s.exec(command, { ...TOOL, ...opts });
  const alive = async (s: Sandbox) => expect((await call(s, 'echo alive')).stdout).toBe('alive\n');
  /** Processes in the sandbox besides its runner (and an init, when there is one). */
  const leftovers = async (s: Sandbox) =>
    Number(
      (
        await call(
          s,
          'n=0; for p in /proc/[0-9]*; do [ "${p#/proc/}" = "$$" ] || [ "${p#/proc/}" ' +
            '= "$PPID" ] || [ "${p#/proc/}" = 1 ] || n=$((n+1)); done; echo $n',
        )
      ).stdout.trim(),
    );

  it('deleting everything empties the workspace; the image and the session survive', async () => {
    await containedSession(async (s) => {
      await call(s, 'git init -q . && echo x > file');
      await call(s, `rm -rf --no-preserve-root ~ /work ${hostDir} / 2>/dev/null`, { timeoutMs: 20_000 });
      const after = await call(s, 'ls -A /work | wc -l; test -x /usr/bin/git && echo intact');
      expect(after.stdout.trim().split('\n')).toEqual(['0', 'intact']);
    });
  });

  it('a fork bomb hits the pids limit, is killed at the command timeout, and leaves nothing running', async () => {
    await containedSession(async (s) => {
      const t0 = performance.now();
      await call(s, ':(){ :|:& };:');
      expect(performance.now() - t0).toBeLessThan(15_000);
      await alive(s);
      expect(await leftovers(s)).toBe(0);
    });
  });

  it('has no network, and the session keeps --network none', async () => {
    await containedSession(async (s) => {
      expectNoNetwork(await call(s, NETWORK_PROBE, { timeoutMs: 15_000 }));
      const net = (await driver.docker.getContainer(s.id).inspect()).HostConfig;
      expect(net.NetworkMode).toBe('none');
    });
  });

  it('prints to no log file on the host: what a sandbox prints reaches the driver only', async () => {
    await containedSession(async (s) => {
      const r = await call(s, 'head -c 300000 /dev/zero | tr "\\0" x; echo');
      expect(r.exitCode).toBe(0);
      const inspected = await driver.docker.getContainer(s.id).inspect();
      expect(inspected.HostConfig.LogConfig?.Type).toBe('none');
      expect(inspected.LogPath).toBe('');
    });
  });

  it('sleeping forever is stopped at the command timeout, and so is a child that left its process group', async () => {
    await containedSession(async (s) => {
      const t0 = performance.now();
      const r = await call(s, 'sleep 1000 & sleep infinity');
      expect(r).toMatchObject({ timedOut: true, exitCode: 124 });
      expect(performance.now() - t0).toBeLessThan(8_000);
      await alive(s);
      // A detached child holds the output pipes open; the call still ends, and the child with it.
      const t1 = performance.now();
      const escaped = await call(s, ESCAPE);
      expect(performance.now() - t1).toBeLessThan(8_000);
      expect(escaped.stdout).toContain('detached');
      await alive(s);
      expect(await leftovers(s)).toBe(0);
    });
  });

  it('cannot kill its own session runner', async () => {
    await containedSession(async (s) => {
      await call(s, 'kill -9 -1; kill -9 1; pkill -9 python3; killall -9 python3; true');
      await alive(s);
      await call(s, 'for p in /proc/[0-9]*; do kill -STOP "${p#/proc/}"; done 2>/dev/null; true');
      await alive(s);
    });
  });

  it('gigabytes of tool output are cut to the cap, sizes counted, without filling host memory', async () => {
    await containedSession(async (s) => {
      const before = process.memoryUsage().rss;
      const t0 = performance.now();
      const r = await call(s, 'head -c 4G /dev/zero | tr "\\0" x; yes >&2', { timeoutMs: 60_000 });
      expect(performance.now() - t0).toBeLessThan(60_000);
      expect(r.truncated).toBe(true);
      expect(r.stdout.length).toBeLessThanOrEqual(16 * 1024 + 100);
      expect(r.stderr.length).toBeLessThanOrEqual(16 * 1024 + 100);
      // Reading stops at the drain limit, which closes the pipe on the writer.
      expect(r.stdoutBytes).toBeGreaterThanOrEqual(16 * 1024 * 1024);
      expect(r.stdoutBytes).toBeLessThan(1024 * 1024 * 1024);
      expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
      await alive(s);
    });
  });

  it(
    'a file that fills the workspace ends at its size limit, and reading ' +
      'it, /dev/zero or a FIFO is refused without ending the session',
    async () => {
      await containedSession(async (s) => {
        const r = await call(s, 'dd if=/dev/zero of=big bs=1M count=2000 2>&1; stat -c %s big', { timeoutMs: 20_000 });
        expect(r.stdout).toMatch(/No space left/);
        const size = Number(r.stdout.trim().split('\n').pop());
        expect(size).toBeLessThanOrEqual(256 * 1024 * 1024);
        // An editor's read of it is refused at the read limit, not read whole; an endless device, a FIFO
        // no one writes (whose open would wait for ever) and a directory are not regular files.
        await expect(s.readFile('big')).rejects.toMatchObject({ name: 'FileTooLargeError' });
        await call(s, 'mkfifo pipe && mkdir dir');
        for (const path of ['/dev/zero', 'pipe', 'dir'])
          await expect(s.readFile(path)).rejects.toMatchObject({ name: 'FileRefusedError' });
        for (const path of ['pipe', 'dir', '/opt/gitbench/runner/session.py'])
          await expect(s.writeFile(path, 'x')).rejects.toMatchObject({ name: 'FileRefusedError' });
        await expect(s.readFile('big', { maxBytes: 1024 })).rejects.toThrow(/more than the 1024/);
        expect((await s.readFile('/etc/hostname', { maxBytes: 1024 }))?.length).toBeGreaterThan(0);
        await alive(s);
      });
    },
  );
});

/**
 * Leaves the step's process group for a session of its own and waits until it has: without the wait,
 * a loaded machine may kill the group before the child escapes, and then there is nothing to report.
 */
/** Processes of the sandbox's uid other than the command's own shell. */
const LEFTOVERS =
  'n=0; for p in /proc/[0-9]*; do [ "${p#/proc/}" = "$$" ] || ! ' +
  'grep -qs "^Uid:.10001" "$p/status" || n=$((n+1)); done; echo $n';
const ESCAPE =
  `setsid sh -c 'echo out > "\${TMPDIR:-/tmp}/escaped"; exec sleep 1000' & ` +
  `while [ ! -s "\${TMPDIR:-/tmp}/escaped" ]; do sleep 0.05; done; echo detached`;

describe('hostile answers in one-shot sandboxes (the path attempts take)', () => {
  const once = (command: string, timeoutMs = 5_000, maxOutputBytes?: number) =>
    driver.runOnce(
      {
        groups: [
          {
            stopOnFailure: false,
            steps: [{ id: 'x', command, timeoutMs, ...(maxOutputBytes ? { maxOutputBytes } : {}) }],
          },
        ],
      },
      { labels: { attempt: 'hostile' } },
    );

  it('an escaped child is killed when its step ends, and its container removed', async () => {
    const r = await once(ESCAPE, 1_000);
    expect(r.aborted).toBeUndefined();
    expect(r.groups[0]![0]!.stdout).toBe('detached\n');
    expect(r.durationMs).toBeLessThan(15_000);
    await eventuallyGone(r.sandboxId);
  });

  it('deleting everything leaves the next sandbox intact', async () => {
    await once(`rm -rf --no-preserve-root ~ /work ${hostDir} / 2>/dev/null`);
    const after = await once('test -x /usr/bin/git && echo intact; ls -A /work | wc -l');
    expect(after.groups[0]![0]!.stdout.trim().split('\n')).toEqual(['intact', '0']);
    expect(await readFile(join(hostDir, 'canary'), 'utf8')).toBe('still here');
  });

  it('sees none of the host environment and caps a flood', async () => {
    const env = await once('env; grep -rs GITBENCH_TEST_SECRET /proc/*/environ');
    expect(env.groups[0]![0]!.stdout).not.toContain(FAKE_SECRET);
    expect(env.groups[0]![0]!.stdout).not.toMatch(/DATABASE_URL|REDIS_URL|DOCKER_HOST/);
    const flood = await once('head -c 2G /dev/zero', 20_000, 64 * 1024);
    expect(flood.groups[0]![0]).toMatchObject({ truncated: true });
    expect(flood.groups[0]![0]!.stdout.length).toBeLessThanOrEqual(64 * 1024);
  });
});

async function eventuallyGone(id: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const list = await driver.docker.listContainers({ all: true, filters: { id: [id] } });
    if (list.length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`container ${id} was not removed`);
}
