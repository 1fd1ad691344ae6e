import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandboxDriver, LocalSandboxDriver, OBSERVER_UID, type Sandbox } from '../src';

const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for sandbox integration tests (scripts/test.sh sets it)');

/**
 * What a third-party agent's attempt needs of a session: a host directory (the gateway's socket)
 * mounted into a container that keeps --network none, and a read of the repository while the agent's
 * one long request still runs, by a uid the agent can neither signal nor be swept with.
 */
describe('docker session: mounts and observe', () => {
  const driver = new DockerSandboxDriver({ image, labels: { 'org.gitbench.test': `observe-int-${process.pid}` } });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gitbench-mount-'));
  const socketPath = path.join(dir, 'echo.sock');
  let server: net.Server;
  let session: Sandbox;

  beforeAll(async () => {
    await driver.init();
    server = net.createServer((c) => c.on('data', (d) => c.end(`echo:${d.toString()}`)));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    execFileSync('chmod', ['0755', dir]);
    execFileSync('chmod', ['0666', socketPath]);
    writeFileSync(path.join(dir, 'note.txt'), 'from the host\n');
    session = await driver.create({
      mounts: [{ hostPath: dir, containerPath: '/run/gitbench-test', readOnly: true }],
    });
    const init = await session.exec(
      'git init -q -b main repo && cd repo && echo one > a.txt && git ' +
        'add . && git -c user.name=a -c user.email=a@b commit -qm one',
    );
    expect(init.exitCode).toBe(0);
  });
  afterAll(async () => {
    await session?.cleanup();
    await driver.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the host socket through the mount, with no network interface but loopback', async () => {
    const r = await session.exec(
      `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('/run/gitbench-test/echo.sock'); ` +
        `s.sendall(b'hi'); print(s.recv(100).decode())"; cat /run/gitbench-test/note.txt; ` +
        `ls /sys/class/net; touch /run/gitbench-test/x 2>/dev/null || echo read-only`,
    );
    expect(r.stdout).toBe('echo:hi\nfrom the host\nlo\nread-only\n');
  });

  it('reads the repository beside a request that is still running, and the request goes on', async () => {
    const long = session.exec(
      'sleep 3; echo two > a.txt; git -c user.name=a -c user.email=a@b commit -qam two; echo done',
      { cwd: 'repo', timeoutMs: 20_000 },
    );
    await new Promise((r) => setTimeout(r, 500));
    const seen = await session.observe!('id -u; git -c safe.directory="*" log --format=%s; cat a.txt', { cwd: 'repo' });
    expect(seen).toMatchObject({ exitCode: 0, stdout: `${OBSERVER_UID}\none\none\n`, timedOut: false });
    await expect(long).resolves.toMatchObject({ exitCode: 0, stdout: 'done\n' });
    // The observer is no process of the sandbox's uid: a kill of everything that uid may signal misses it.
    const observer = session.observe!('sleep 2; echo alive', { timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 500));
    await session.exec('kill -9 -1', { timeoutMs: 5_000 });
    await expect(observer).resolves.toMatchObject({ exitCode: 0, stdout: 'alive\n' });
    const after = await session.observe!('git -c safe.directory="*" log --format=%s', { cwd: 'repo' });
    expect(after.stdout).toBe('two\none\n');
  });

  it("reads the repository's state as the session's runner does, as the observer's uid", async () => {
    const env = {
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      HOME: '/nonexistent',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'safe.directory',
      GIT_CONFIG_VALUE_0: '*',
    };
    const edit = await session.exec('echo three >> a.txt && echo new > b.txt', { cwd: 'repo' });
    expect(edit.exitCode).toBe(0);
    /** Both reads with the same previous tree: the same bytes, not timed out. */
    const bothReads = async (previousTree: string | null) => {
      const options = { cwd: 'repo', previousTree, diffBytes: 65_536, timeoutMs: 30_000, maxOutputBytes: 1 << 22 };
      const read = await session.readRepoState!({ ...options, env });
      const observed = await session.observeRepoState!({ ...options, env: { ...env, TMPDIR: '/tmp/gb-observer' } });
      expect(observed).toEqual(read);
      expect(read.timedOut).toBe(false);
      return read.stdout;
    };
    const first = await bothReads(null);
    expect(first).toContain('\n@@gb:status\n# branch.oid ');
    // With a previous tree, the diff too.
    await session.exec('echo four >> a.txt', { cwd: 'repo' });
    expect(await bothReads(/\n@@gb:tree\n([0-9a-f]{40})\n/.exec(first)![1]!)).toContain('+four');
  });

  it("continues the sandbox's processes itself after a read that did not end as observe.py's (--thaw)", async () => {
    // A request that stopped itself stands for one the read stopped: only a SIGCONT to the sandbox's uid
    // lets it finish. The read fails before observe.py could send one (no such directory), so the host must.
    const stopped = session.exec('kill -STOP $$; echo resumed', { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    const options = { previousTree: null, diffBytes: 65_536, timeoutMs: 5_000, maxOutputBytes: 1 << 22 };
    await session.observeRepoState!({ ...options, cwd: 'no-such-directory' });
    await expect(stopped).resolves.toMatchObject({ exitCode: 0, stdout: 'resumed\n', timedOut: false });
  });

  it(
    'lets through reads beside honest processes that a stop leaves in D, busy, or that stop themselves',
    { timeout: 240_000 },
    async () => {
      // A spawn loop's parents wait in D inside vfork (Python's subprocess) for a child the stop holds; threads that
      // spin stop when next scheduled; a shell stops itself again each time a read ends. No read may be called
      // tampering, nor withheld: none of them runs while a read does.
      const done = "os.path.exists('/tmp/honest-done')";
      await session.writeFile(
        '/tmp/spawn.py',
        `import os, subprocess\nwhile not ${done}:\n    subprocess.run(['true'])\n`,
      );
      await session.writeFile(
        '/tmp/spin.py',
        `import os, threading\ndef spin():\n    while not ${done}:\n        pass\n` +
          'threads = [threading.Thread(target=spin) for _ in range(2)]\n[t.start() for t in threads]\n',
      );
      const honest = session.exec(
        'python3 /tmp/spawn.py & python3 /tmp/spin.py & while [ ! -e /tmp/honest-done ]; do /bin/true; done & ' +
          "sh -c 'while [ ! -e /tmp/honest-done ]; do kill -STOP $$; done' & wait; echo done",
        { timeoutMs: 120_000 },
      );
      await new Promise((r) => setTimeout(r, 1_000));
      const options = {
        cwd: 'repo',
        previousTree: null,
        diffBytes: 65_536,
        timeoutMs: 30_000,
        maxOutputBytes: 1 << 22,
      };
      const env = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };
      const reads = [];
      // The sandbox's one CPU is theirs between reads: each read's start waits for it.
      for (let i = 0; i < 10; i++) {
        const r = await session.observeRepoState!({ ...options, env: { ...env, TMPDIR: '/tmp/gb-observer' } });
        reads.push({ unobserved: r.unobserved, read: r.stdout.includes('\n@@gb:status\n') });
      }
      expect(reads).toEqual(Array(10).fill({ unobserved: undefined, read: true }));
      await session.observe!('touch /tmp/honest-done');
      // The shell that stops itself goes on with the next read's SIGCONT, and ends.
      await session.observeRepoState!({ ...options, env: { ...env, TMPDIR: '/tmp/gb-observer' } });
      await expect(honest).resolves.toMatchObject({ exitCode: 0, stdout: 'done\n' });
    },
  );

  it('ends an observed command at its timeout', async () => {
    const r = await session.observe!('sleep 20', { timeoutMs: 1_000 });
    expect(r.timedOut).toBe(true);
  });
});

describe('local driver', () => {
  it('refuses a session with mounts, naming why', async () => {
    const local = new LocalSandboxDriver({});
    await expect(local.create({ mounts: [{ hostPath: '/tmp', containerPath: '/x' }] })).rejects.toThrow(
      /cannot mount directories/,
    );
    await local.close();
  });
});
