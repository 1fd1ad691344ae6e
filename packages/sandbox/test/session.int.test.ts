import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandboxDriver, FileRefusedError, LocalSandboxDriver, type SandboxDriver, type Sandbox } from '../src';

const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for sandbox integration tests (scripts/test.sh sets it)');

const runLabel = { 'org.gitbench.test': `session-int-${process.pid}` };

/** A tar archive of one repository with a commit, made on the host. */
function repoTar(): Buffer {
  const dir = execFileSync('mktemp', ['-d']).toString().trim();
  execFileSync(
    'bash',
    [
      '-c',
      'git init -q -b main repo && cd repo && printf "a\\r\\nb\\n" > crlf.txt ' +
        '&& git add . && git -c user.name=a -c user.email=a@b commit -qm one',
    ],
    { cwd: dir },
  );
  const tar = execFileSync('tar', ['-c', '-f', '-', '-C', dir, '.']);
  execFileSync('rm', ['-rf', dir]);
  return tar;
}

function sessionSuite(name: string, makeDriver: () => Promise<SandboxDriver>) {
  describe(`${name} sandbox session`, () => {
    let driver: SandboxDriver;
    let session: Sandbox;
    beforeAll(async () => {
      driver = await makeDriver();
      session = await driver.create({ labels: { 'org.gitbench.attempt': `s-${name}` } });
      await session.restore(repoTar());
      await session.applyPreamble('export GB_PINNED=yes');
    });
    afterAll(async () => {
      await session?.cleanup();
      await driver?.close();
    });

    it('runs many commands over time in one restored repository, with the preamble applied', async () => {
      const log = await session.exec('git log --format=%s', { cwd: 'repo' });
      expect(log).toMatchObject({ exitCode: 0, stdout: 'one\n', finished: true, timedOut: false });
      await session.exec('git switch -q -c feature && echo two > two.txt && git add two.txt', { cwd: 'repo' });
      const status = await session.exec('git branch --show-current; git status --porcelain; echo "$GB_PINNED $EXTRA"', {
        cwd: 'repo',
        env: { EXTRA: 'x' },
      });
      expect(status.stdout).toBe('feature\nA  two.txt\nyes x\n');
      const stdin = await session.exec('wc -c', { stdin: 'hello' });
      expect(stdin.stdout.trim()).toBe('5');
    });

    it('reads and writes files as exact bytes, making parent directories', async () => {
      expect(await session.readFile('repo/crlf.txt')).toEqual(Buffer.from('a\r\nb\n'));
      expect(await session.readFile('repo/missing.txt')).toBeNull();
      const bytes = Buffer.from([0xff, 0x00, 0x0d, 0x0a, 0xe2, 0x82]);
      await session.writeFile('repo/deep/er/bin.dat', bytes);
      expect(await session.readFile('repo/deep/er/bin.dat')).toEqual(bytes);
      expect((await session.exec('wc -c < deep/er/bin.dat', { cwd: 'repo' })).stdout.trim()).toBe('6');
    });

    it('refuses a file request whose path holds a NUL byte, and goes on (the runner once died of it)', async () => {
      await expect(session.readFile('repo/crlf.txt\u0000')).rejects.toBeInstanceOf(FileRefusedError);
      await expect(session.writeFile('repo/a\u0000b', 'x')).rejects.toThrow(/cannot be written: .*null/);
      expect((await session.exec('echo alive')).stdout).toBe('alive\n');
    });

    it('keeps the head and the tail of a long output and records its full size', async () => {
      const r = await session.exec('seq 1 100000', { maxOutputBytes: 1000 });
      const full = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join('');
      expect(r.stdoutBytes).toBe(full.length);
      expect(r.truncated).toBe(true);
      expect(r.stdout.startsWith(full.slice(0, 500))).toBe(true);
      expect(r.stdout.endsWith(full.slice(-500))).toBe(true);
      expect(r.stdout).toContain(`[... ${full.length - 1000} bytes omitted ...]`);
    });

    it('kills a command and its process group at the timeout, and goes on', async () => {
      const t0 = performance.now();
      const r = await session.exec('sleep 61.4321 & sleep 61.4321', { timeoutMs: 500 });
      expect(r).toMatchObject({ timedOut: true, exitCode: 124, finished: false });
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect((await session.exec("grep -sl '61[.]4321' /proc/[0-9]*/cmdline | wc -l")).stdout.trim()).toBe('0');
      const flood = await session.exec('yes', { maxOutputBytes: 100, drainBytes: 1_000_000, timeoutMs: 10_000 });
      expect(flood.stdoutBytes).toBeGreaterThanOrEqual(1_000_000);
      expect(flood.stdoutBytes).toBeLessThan(1_200_000);
      expect((await session.exec('echo alive')).stdout).toBe('alive\n');
    });

    it('runs a batch step by step, stopping a group at its first failure', async () => {
      const r = await session.runBatch({
        preamble: 'export GB_PINNED=yes',
        groups: [
          {
            stopOnFailure: true,
            steps: [
              { id: 'a', command: 'true' },
              { id: 'b', command: 'false' },
              { id: 'c', command: 'true' },
            ],
          },
          { stopOnFailure: false, steps: [{ id: 'p', command: 'echo $GB_PINNED', cwd: 'repo' }] },
        ],
      });
      expect(r.groups.map((g) => g.map((s) => s.id))).toEqual([['a', 'b'], ['p']]);
      expect(r.stoppedAt).toEqual([1, undefined]);
      expect(r.groups[1]![0]!.stdout).toBe('yes\n');
    });
  });
}

sessionSuite('docker', () => new DockerSandboxDriver({ image: image!, labels: runLabel }).init());
sessionSuite('local', async () => new LocalSandboxDriver({ warn: () => undefined }));

describe('docker session lifecycle', () => {
  let driver: DockerSandboxDriver;
  beforeAll(async () => {
    driver = await new DockerSandboxDriver({ image: image!, labels: runLabel }).init();
  });
  afterAll(async () => {
    await driver?.removeByLabels(runLabel);
    await driver?.close();
  });

  it(
    'is found and stopped by its labels mid-command, and the ' + 'command fails as a sandbox failure within 2 s',
    async () => {
      const session = await driver.create({ labels: { 'org.gitbench.attempt': 'cancel-me' } });
      const running = session.exec('sleep 600', { timeoutMs: 600_000 }).then(
        () => null,
        (err: Error) => err,
      );
      await new Promise((r) => setTimeout(r, 300));
      const t0 = performance.now();
      expect(await driver.removeByLabels({ 'org.gitbench.attempt': 'cancel-me' })).toBe(1);
      expect(await running).toMatchObject({ name: 'SessionEndedError' });
      expect(performance.now() - t0).toBeLessThan(2_000);
      await session.cleanup();
    },
  );

  it(
    'closed mid-command (an attempt cancelled), is removed ' + 'within 2 s and the command fails as a sandbox failure',
    async () => {
      const session = await driver.create({ labels: { 'org.gitbench.attempt': 'close-me' } });
      const running = session.exec('sleep 600', { timeoutMs: 600_000 }).then(
        () => null,
        (err: Error) => err,
      );
      await new Promise((r) => setTimeout(r, 300));
      const t0 = performance.now();
      await session.cleanup();
      expect(await running).toMatchObject({ name: 'SessionEndedError' });
      expect(performance.now() - t0).toBeLessThan(2_000);
      expect(await driver.docker.listContainers({ all: true, filters: { id: [session.id] } })).toHaveLength(0);
    },
  );

  it('keeps --network none and leaves nothing behind when closed', async () => {
    const session = await driver.create();
    expect((await session.exec('ls /sys/class/net')).stdout.trim()).toBe('lo');
    const id = session.id;
    await session.cleanup();
    await session.cleanup();
    expect(await driver.docker.listContainers({ all: true, filters: { id: [id] } })).toHaveLength(0);
  });

  it("refuses io_uring to its commands (ENOSYS): queued work would go on under the observer's stop", async () => {
    const session = await driver.create();
    // io_uring_setup(1, params) as the agent's processes would call it, and a plain call beside it.
    const probe =
      'import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); ' +
      'r = libc.syscall(425, 1, ctypes.create_string_buffer(120)); print(r, ctypes.get_errno(), os.getpid() > 0)';
    const r = await session.exec(`python3 -c '${probe}'`);
    expect(r).toMatchObject({ exitCode: 0, stdout: '-1 38 True\n' });
    await session.cleanup();
  });

  it('is removed as an orphan when its worker is gone', async () => {
    const orphaned = await new DockerSandboxDriver({
      image: image!,
      labels: { ...runLabel, 'org.gitbench.worker': 'dead-worker' },
    }).init();
    const session = await orphaned.create();
    const removed = await driver.removeOrphans('org.gitbench.worker', new Set(['alive']), runLabel);
    expect(removed).toBe(1);
    await expect(session.exec('true')).rejects.toMatchObject({ name: 'SessionEndedError' });
    await session.cleanup();
    await orphaned.close();
  });
});
