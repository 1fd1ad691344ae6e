import { TamperingError } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { MAX_REPLY_HEADER_BYTES, RunnerConnection, SessionEndedError } from '../src/session-protocol';

/** A connection whose runner answers each request with `answer(id)`; `lost` records why it was stopped. */
function connection(answer: (id: string) => Buffer[]) {
  const lost: string[] = [];
  const c: RunnerConnection = new RunnerConnection(
    (bytes) => {
      const id = bytes.toString('latin1').split(/[ \n]/)[1]!;
      queueMicrotask(() => answer(id).forEach((chunk) => c.push(chunk)));
    },
    (reason) => lost.push(reason),
  );
  return { c, lost };
}

const exec = (id: string, out: string) =>
  Buffer.from(`@@GBEXEC ${id} 0 1 0 1.000000 1.010000 ${out.length} 0 ${out.length} 0\n${out}`);

describe('session channel', () => {
  it('reads replies however they are cut into chunks', async () => {
    const { c, lost } = connection((id) => [...exec(id, 'hello')].map((b) => Buffer.from([b])));
    const r = await c.exec('echo hello', { cwd: '/work' });
    expect(r.stdout).toBe('hello');
    expect(lost).toEqual([]);
  });

  const attacks: [string, (id: string) => Buffer[]][] = [
    ['garbage instead of a reply', () => [Buffer.from('garbage\n')]],
    ['a reply to another request', () => [exec('r99', 'forged')]],
    ['a header without an end', () => [Buffer.alloc(MAX_REPLY_HEADER_BYTES, 0x41)]],
    [
      'a payload longer than the request allows',
      (id) => [Buffer.from(`@@GBEXEC ${id} 0 1 0 1.0 1.0 9 0 99999999 0\n`)],
    ],
    ['fields that are not numbers', (id) => [Buffer.from(`@@GBEXEC ${id} 0 1 0 x 1.0 0 0 0 0\n`)]],
  ];
  for (const [name, answer] of attacks) {
    it(`ends the session as tampering on ${name}, and every later request too`, async () => {
      const { c, lost } = connection(answer);
      await expect(c.exec('true', { cwd: '/work', maxOutputBytes: 1024 })).rejects.toBeInstanceOf(TamperingError);
      expect(lost).toHaveLength(1);
      await expect(c.readFile('/work/x')).rejects.toBeInstanceOf(TamperingError);
    });
  }

  const stateRead = (c: RunnerConnection) =>
    c.repoState({ cwd: '/work/repo', previousTree: null, diffBytes: 64, timeoutMs: 1000, maxOutputBytes: 16 });
  it("reads a state reply's head and tail, and says when the read ran out of time", async () => {
    const text = '\n@@gb:status\n# branch.oid abc\n';
    const { c } = connection((id) => [
      Buffer.from(`@@GBSTATE ${id} 0 ${text.length} 16\n${text.slice(0, 8)}${text.slice(-8)}`),
    ]);
    expect(await stateRead(c)).toEqual({
      stdout: `${text.slice(0, 8)}\n[... ${text.length - 16} bytes omitted ...]\n${text.slice(-8)}`,
      timedOut: false,
    });
    const late = connection((id) => [Buffer.from(`@@GBSTATE ${id} 1 0 0\n`)]);
    expect(await stateRead(late.c)).toEqual({ stdout: '', timedOut: true });
  });

  const stateAttacks: [string, (id: string) => Buffer[]][] = [
    ['a state reply longer than its request allows', (id) => [Buffer.from(`@@GBSTATE ${id} 0 99999999 99999999\n`)]],
    ['a state reply with a field too many', (id) => [Buffer.from(`@@GBSTATE ${id} 0 0 0 0\n`)]],
    ['a state reply timed out neither yes nor no', (id) => [Buffer.from(`@@GBSTATE ${id} 2 0 0\n`)]],
  ];
  for (const [name, answer] of stateAttacks) {
    it(`ends the session as tampering on ${name}`, async () => {
      const { c, lost } = connection(answer);
      await expect(stateRead(c)).rejects.toBeInstanceOf(TamperingError);
      expect(lost).toHaveLength(1);
    });
  }

  it("takes no command's reply for a state read", async () => {
    const { c } = connection((id) => [exec(id, 'forged')]);
    await expect(stateRead(c)).rejects.toBeInstanceOf(SessionEndedError);
  });

  it(
    'ends the session as tampering on bytes after a reply, ' + 'before the next request can be fooled by them',
    async () => {
      const { c, lost } = connection((id) => [Buffer.concat([exec(id, 'ok'), Buffer.from(`@@GBOK r2\n`)])]);
      expect((await c.exec('true', { cwd: '/work' })).stdout).toBe('ok');
      expect(lost).toHaveLength(1);
      await expect(c.writeFile('/work/x', Buffer.from('x'))).rejects.toBeInstanceOf(TamperingError);
    },
  );

  it('stays a sandbox failure when the runner is gone (the container stopped)', async () => {
    const { c } = connection(() => []);
    const pending = c.exec('true', { cwd: '/work' });
    await new Promise((r) => setTimeout(r, 5));
    c.end('the container stopped');
    await expect(pending).rejects.toBeInstanceOf(SessionEndedError);
  });

  it('costs little for a flood of 30 MB without a newline', () => {
    const { c } = connection(() => []);
    void c.exec('true', { cwd: '/work' }).catch(() => undefined);
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 480; i++) c.push(chunk);
    // Refused at the first chunk; nothing of the rest is held.
    expect(c.isEnded).toBe(true);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
  });
});
