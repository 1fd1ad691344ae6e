import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Docker from 'dockerode';
import { DockerSandboxDriver, type Sandbox } from '../src';

const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for sandbox integration tests (scripts/test.sh sets it)');

const runLabel = { 'org.gitbench.test': `docker-int-${process.pid}` };
let driver: DockerSandboxDriver;
let box: Sandbox;

/** The bytes a capped stream kept: a sandbox's exec marks what it left out between the head and the tail. */
const kept = (text: string) => text.replace(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, '');

beforeAll(async () => {
  driver = await new DockerSandboxDriver({ image, labels: runLabel }).init();
  box = await driver.create();
});
afterAll(async () => {
  await box?.cleanup();
  await driver?.removeByLabels(runLabel);
});

describe('a container from the sandbox image', () => {
  it('runs git as a non-root user', async () => {
    const who = await box.exec('id -u; id -un');
    expect(who.stdout.trim().split('\n')).toEqual(['10001', 'sandbox']);
    const git = await box.exec(
      'git init -q -b main repo && cd repo && git -c user.name=a -c ' +
        'user.email=a@b commit -q --allow-empty -m x && git log --format=%s',
    );
    expect(git.exitCode).toBe(0);
    expect(git.stdout.trim()).toBe('x');
  });

  it('has no network', async () => {
    const ifaces = await box.exec('ls /sys/class/net');
    expect(ifaces.stdout.trim().split(/\s+/)).toEqual(['lo']);
    const py = await box.exec(
      `python3 -c "import socket; s=socket.socket(); s.settimeout(2); s.connect(('1.1.1.1', 80))"`,
    );
    expect(py.exitCode).not.toBe(0);
    expect(py.stderr).toMatch(/unreachable|Network/i);
  });

  it('kills a command at its timeout and caps its output', async () => {
    const slow = await box.exec('sleep 30', { timeoutMs: 1_000 });
    expect(slow.timedOut).toBe(true);
    expect(slow.durationMs).toBeLessThan(10_000);
    const flood = await box.exec('yes', { maxOutputBytes: 4096, timeoutMs: 10_000 });
    expect(flood.truncated).toBe(true);
    expect(kept(flood.stdout).length).toBeLessThanOrEqual(4096);
  });

  it('has a /tmp of the size its driver describes (the agent is told it): a bigger file does not fit', async () => {
    const tmpBytes = driver.describe().tmpBytes!;
    expect(tmpBytes).toBe(64 * 1024 * 1024);
    const size = await box.exec("stat -f -c '%b %S' /tmp");
    const [blocks, blockSize] = size.stdout.trim().split(' ').map(Number);
    expect(blocks! * blockSize!).toBe(tmpBytes);
    const big = await box.exec(`head -c ${tmpBytes + 1024 * 1024} /dev/zero > /tmp/big; echo $?; rm -f /tmp/big`);
    expect(big.stdout.trim()).not.toBe('0');
    expect(big.stderr).toMatch(/No space left on device/);
  });

  it('is removed by cleanup and by label', async () => {
    const extra = await driver.create();
    await extra.cleanup();
    await extra.cleanup(); // idempotent
    const list = await driver.docker.listContainers({ all: true, filters: { id: [extra.id] } });
    expect(list).toHaveLength(0);
  });
});

describe('an image without the runner', () => {
  it('is refused when the driver starts, naming the image and what is missing, and leaves no container', async () => {
    // The sandbox image with one runner file removed, as an image built before the runner moved into it.
    const tag = `gitbench-sandbox-test-norunner:${process.pid}`;
    const c = await driver.docker.createContainer({
      Image: image,
      User: '0:0',
      Cmd: ['rm', '/opt/gitbench/runner/session.py'],
      Labels: runLabel,
    });
    await c.start();
    await c.wait();
    const [repo, version] = tag.split(':');
    await c.commit({ repo, tag: version });
    await c.remove();
    try {
      const labels = { ...runLabel, 'org.gitbench.probe': 'norunner' };
      await expect(new DockerSandboxDriver({ image: tag, labels, prestart: 1 }).init()).rejects.toThrow(
        `sandbox image ${tag} does not hold the step runner: /opt/gitbench/runner/session.py missing`,
      );
      expect(
        await driver.docker.listContainers({ all: true, filters: { label: ['org.gitbench.probe=norunner'] } }),
      ).toEqual([]);
    } finally {
      await driver.docker.getImage(tag).remove();
    }
  });
});

describe('one-shot sandboxes', () => {
  let pooled: DockerSandboxDriver;
  beforeAll(async () => {
    pooled = await new DockerSandboxDriver({ image, labels: runLabel, prestart: 2 }).init();
  });
  afterAll(async () => {
    await pooled?.close();
  });

  it('restore an archive, apply the environment, run the batch, and are removed afterwards', async () => {
    const archive = (
      await box.runBatch({
        groups: [
          {
            stopOnFailure: true,
            steps: [{ id: 'mk', command: 'mkdir -p r && echo hello > r/f && tar -c -f - r | base64 -w0' }],
          },
        ],
      })
    ).groups[0]![0]!;
    const r = await pooled.runOnce(
      {
        restoreTar: Buffer.from(archive.stdout, 'base64'),
        env: { GREETING: "it's me" },
        groups: [
          {
            stopOnFailure: true,
            steps: [
              { id: 'read', command: 'cat f; printf %s "$GREETING"', cwd: 'r' },
              { id: 'fail', command: 'exit 3' },
              { id: 'never', command: 'true' },
            ],
          },
          { stopOnFailure: false, steps: [{ id: 'who', command: 'id -u' }] },
        ],
      },
      { labels: { attempt: 'a1' } },
    );
    expect(r.aborted).toBeUndefined();
    expect(r.groups[0]!.map((s) => [s.id, s.exitCode, s.stdout])).toEqual([
      ['read', 0, "hello\nit's me"],
      ['fail', 3, ''],
    ]);
    expect(r.groups[1]![0]!.stdout.trim()).toBe('10001');
    for (
      let i = 0;
      i < 100 && (await driver.docker.listContainers({ all: true, filters: { id: [r.sandboxId] } })).length > 0;
      i++
    ) {
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(await driver.docker.listContainers({ all: true, filters: { id: [r.sandboxId] } })).toHaveLength(0);
  });

  it('tell each step record as the step ends, while later steps still run', async () => {
    const heard: string[] = [];
    let release: (() => void) | undefined;
    const firstHeard = new Promise<void>((res) => (release = res));
    let ended = false;
    const run = pooled
      .runOnce({
        groups: [
          { stopOnFailure: false, steps: [{ id: 'first', command: 'echo one' }] },
          { stopOnFailure: false, steps: [{ id: 'second', command: 'sleep 2; echo two' }] },
        ],
        onRecord: (group, record) => {
          heard.push(`${group}:${record.id}:${record.stdout}`);
          if (record.id === 'first') release?.();
        },
      })
      .finally(() => (ended = true));
    await Promise.race([
      firstHeard,
      run.then(() => Promise.reject(new Error('the batch ended before its first record was told'))),
    ]);
    expect(ended).toBe(false);
    expect(heard).toEqual(['0:first:one\n']);
    const r = await run;
    expect(r.aborted).toBeUndefined();
    expect(heard).toEqual(['0:first:one\n', '1:second:two\n']);
  });

  it(
    'start a plain git call without bash, as bash -c ' + 'would have started it: same environment, output and exit',
    async () => {
      // `git` here is env itself: `git -0` prints the environment it was started with. The `# same`
      // comment makes the second command not plain, so bash -c runs it and execs the same program.
      const steps = [
        { id: 'direct', command: 'git -0', cwd: 'sub' },
        { id: 'shell', command: 'git -0 # same', cwd: 'sub' },
      ];
      const r = await pooled.runOnce({
        preamble: 'mkdir -p bin sub && ln -s /usr/bin/env bin/git && export PATH="$PWD/bin:$PATH"',
        groups: [{ stopOnFailure: false, steps }],
      });
      const [direct, shell] = r.groups[0]!;
      const vars = (text: string) => text.split('\0').filter(Boolean).sort();
      expect(direct!.exitCode).toBe(0);
      expect(vars(direct!.stdout)).toEqual(vars(shell!.stdout));
      // What bash sets for the program it execs: the directory and the program's path.
      expect(vars(direct!.stdout)).toEqual(expect.arrayContaining(['PWD=/work/sub', `_=/work/bin/git`]));
      expect(direct!.stderr).toBe('');

      // No git on PATH (only what the batch itself needs): the same exit and message as bash's.
      const missing = await pooled.runOnce({
        preamble: 'mkdir -p only && ln -s /usr/bin/python3 /usr/bin/bash only/ && export PATH="$PWD/only"',
        groups: [
          {
            stopOnFailure: false,
            steps: [
              { id: 'direct', command: 'git status' },
              { id: 'shell', command: 'git status # same' },
            ],
          },
        ],
      });
      const [gone, goneInShell] = missing.groups[0]!;
      expect(gone).toMatchObject({ exitCode: 127, stderr: 'bash: line 1: git: command not found\n' });
      expect(goneInShell).toMatchObject({ exitCode: 127, stderr: gone!.stderr, stdout: gone!.stdout });
    },
  );

  it('never share a container: each run sees a fresh workspace', async () => {
    const dirty = {
      groups: [{ stopOnFailure: false, steps: [{ id: 'w', command: 'ls -A | wc -l; touch mine ~/mine /tmp/mine' }] }],
    };
    const runs = await Promise.all([pooled.runOnce(dirty), pooled.runOnce(dirty), pooled.runOnce(dirty)]);
    expect(new Set(runs.map((r) => r.sandboxId)).size).toBe(3);
    const after = await pooled.runOnce({
      groups: [{ stopOnFailure: false, steps: [{ id: 'w', command: 'ls -A . ~ /tmp | grep -c mine' }] }],
    });
    expect([...runs, after].map((r) => r.groups[0]![0]!.stdout.trim())).toEqual(['0', '0', '0', '0']);
  });

  it('are removed as orphans only within their own deployment', async () => {
    const deployment = (d: string) =>
      new DockerSandboxDriver({
        image: image!,
        labels: { ...runLabel, 'org.gitbench.deployment': d, 'org.gitbench.worker': `w-${d}` },
        prestart: 1,
      }).init();
    const [a, b] = await Promise.all([deployment(`a${process.pid}`), deployment(`b${process.pid}`)]);
    try {
      await Promise.all([a.runOnce({ groups: [] }), b.runOnce({ groups: [] })]); // both pools refilled
      const live = async (d: string) =>
        (await driver.docker.listContainers({ filters: { label: [`org.gitbench.deployment=${d}`] } })).length;
      await waitUntil(async () => (await live(`a${process.pid}`)) > 0 && (await live(`b${process.pid}`)) > 0);
      // A container younger than the silence window may belong to a worker that is still starting.
      expect(
        await a.removeOrphans(
          'org.gitbench.worker',
          new Set(),
          { 'org.gitbench.deployment': `a${process.pid}` },
          { createdBeforeMs: Date.now() - 60_000 },
        ),
      ).toBe(0);
      expect(await live(`a${process.pid}`)).toBeGreaterThan(0);
      // Deployment a knows no live worker: everything of its own is an orphan, nothing of b's is.
      expect(
        await a.removeOrphans('org.gitbench.worker', new Set(), { 'org.gitbench.deployment': `a${process.pid}` }),
      ).toBeGreaterThan(0);
      expect(await live(`a${process.pid}`)).toBe(0);
      expect(await live(`b${process.pid}`)).toBeGreaterThan(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it(
    'are started again only below a quarter of the pool while ' +
      'any is in use, and up to the whole pool once none is',
    async () => {
      const pool = await new DockerSandboxDriver({
        image: image!,
        labels: runLabel,
        prestart: 4,
        idleRefillMs: 200,
        spareCpu: () => true,
      }).init();
      try {
        expect(pool.waitingCount).toBe(4);
        // Held long enough for the three batches below on a busy machine (each takes 0.5-1 s at a load of 20).
        const held = pool.runOnce({ groups: [{ stopOnFailure: false, steps: [{ id: 's', command: 'sleep 6' }] }] });
        expect(pool.waitingCount).toBe(3);
        await pool.runOnce({ groups: [] });
        await pool.runOnce({ groups: [] });
        expect(pool.waitingCount).toBe(1);
        // The last one taken: the pool fell below its quarter, so one is started at once.
        await pool.runOnce({ groups: [] });
        expect(pool.waitingCount).toBe(1);
        // One is still in use: nothing more is started meanwhile.
        await new Promise((res) => setTimeout(res, 500));
        expect(pool.waitingCount).toBe(1);
        expect((await held).groups[0]![0]!.exitCode).toBe(0);
        await waitUntil(async () => pool.waitingCount === 4);
      } finally {
        await pool.close();
      }
    },
  );

  it(
    'are not started ahead while others are in use when the machine ' +
      'has no CPU to spare: a take from an empty pool starts its own',
    async () => {
      let asked = 0;
      const pool = await new DockerSandboxDriver({
        image: image!,
        labels: runLabel,
        prestart: 4,
        idleRefillMs: 200,
        spareCpu: () => (asked++, false),
      }).init();
      try {
        const held = pool.runOnce({ groups: [{ stopOnFailure: false, steps: [{ id: 's', command: 'sleep 8' }] }] });
        for (let i = 0; i < 4; i++)
          expect(
            (await pool.runOnce({ groups: [{ stopOnFailure: false, steps: [{ id: 'n', command: `echo ${i}` }] }] }))
              .groups[0]![0]!.stdout,
          ).toBe(`${i}\n`);
        // Three taken from the pool, the fourth started on demand; none started ahead, though asked.
        expect(pool.waitingCount).toBe(0);
        expect(asked).toBeGreaterThan(0);
        expect((await held).groups[0]![0]!.exitCode).toBe(0);
        await waitUntil(async () => pool.waitingCount === 4);
      } finally {
        await pool.close();
      }
    },
  );

  it('leave no container behind when Docker answers a creation after close() began', async () => {
    // A stopped CLI run closes its driver, then removes what carries its label: a container Docker was
    // still creating at that moment must not appear afterwards (two were left in a CI run at load 15).
    const labels = { ...runLabel, 'org.gitbench.close-race': String(process.pid) };
    const racing = await new DockerSandboxDriver({ image: image!, labels }).init();
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const create = racing.docker.createContainer.bind(racing.docker);
    racing.docker.createContainer = (async (...args: Parameters<typeof create>) => {
      const container = await create(...args);
      await gate;
      return container;
    }) as typeof create;
    // Settled as they end, so their refusals are not unhandled while close() runs.
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'made',
        (err: Error) => err.message,
      );
    const session = outcome(racing.create({ labels: { attempt: 'late' } }));
    const sandbox = outcome(racing.create());
    // Both creations reached Docker; the driver hears of neither before it is closed.
    await waitUntil(
      async () =>
        (await driver.docker.listContainers({ all: true, filters: { label: ['org.gitbench.close-race'] } })).length ===
        2,
    );
    const closed = racing.close();
    release();
    await closed;
    expect([await session, await sandbox]).toEqual(['sandbox driver is closed', 'sandbox driver is closed']);
    expect(
      await driver.docker.listContainers({ all: true, filters: { label: [`org.gitbench.close-race=${process.pid}`] } }),
    ).toEqual([]);
  });

  it('start no creation once close() began, even to replace a pooled container that failed', async () => {
    // A SIGTERM'd run's pooled container is removed under an attempt waiting for it; the attempt's fallback
    // used to create a replacement that Docker answered after the process had exited (CI: 2 left behind).
    const labels = { ...runLabel, 'org.gitbench.close-refill': String(process.pid) };
    const docker = new Docker();
    const create = docker.createContainer.bind(docker);
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    let creations = 0;
    let closing = false;
    let createdWhileClosing = 0;
    // The first creation is init's look at the image; the second, the pooled container, waits at the gate.
    docker.createContainer = (async (...args: Parameters<typeof create>) => {
      creations++;
      if (closing) createdWhileClosing++;
      const container = await create(...args);
      if (creations > 1) await gate;
      return container;
    }) as typeof create;
    const racing = await new DockerSandboxDriver({ image: image!, labels, prestart: 1, docker }).init();
    const attempt = racing.runOnce({ groups: [{ stopOnFailure: false, steps: [{ id: 's', command: 'true' }] }] }).then(
      () => 'ran',
      (err: Error) => err.message,
    );
    closing = true;
    const closed = racing.close();
    release();
    await closed;
    expect(await attempt).toBe('sandbox driver is closed');
    expect(createdWhileClosing).toBe(0);
    expect(
      await docker.listContainers({ all: true, filters: { label: [`org.gitbench.close-refill=${process.pid}`] } }),
    ).toEqual([]);
  });

  it('are found by the labels of the attempt using them, so a cancel stops a running one', async () => {
    const running = pooled.runOnce(
      { groups: [{ stopOnFailure: false, steps: [{ id: 's', command: 'sleep 30' }] }] },
      { labels: { attempt: 'cancel-me' } },
    );
    await new Promise((res) => setTimeout(res, 1_000));
    expect(await pooled.removeByLabels({ attempt: 'cancel-me' })).toBe(1);
    const r = await running;
    expect(r.durationMs).toBeLessThan(20_000);
    expect(r.groups[0]![0]?.exitCode ?? 137).not.toBe(0);
  });
});

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in 10 s');
}
