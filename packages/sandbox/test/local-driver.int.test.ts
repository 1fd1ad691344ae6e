import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_DRIVER_WARNING, LocalSandboxDriver, resetScratchStep, withSandbox } from '../src';

// The local driver spawns bash on this machine: quick, and still "pure" in needing no service.
const warnings: string[] = [];
const driver = new LocalSandboxDriver({ warn: (l) => warnings.push(l) });
afterAll(() => driver.close());

const LOOK = 'ls -A . "$HOME" "${TMPDIR:-/tmp}" | grep -v "^gb\\."';

/** The bytes a capped stream kept: a sandbox's exec marks what it left out between the head and the tail. */
const kept = (text: string) => text.replace(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, '');

describe('the local sandbox driver', () => {
  it('says loudly that it isolates nothing', async () => {
    expect(driver.describe().isolated).toBe(false);
    await withSandbox(driver, async () => undefined);
    expect(warnings).toEqual([LOCAL_DRIVER_WARNING]);
    expect(LOCAL_DRIVER_WARNING).toMatch(/NO isolation/);
  });

  it('runs with an empty HOME and none of the host environment', async () => {
    process.env.GITBENCH_LOCAL_SECRET = 'local-fake-secret';
    try {
      await withSandbox(driver, async (box) => {
        const r = await box.exec('env; ls -A "$HOME" | wc -l; pwd');
        expect(r.stdout).not.toContain('local-fake-secret');
        const lines = r.stdout.trim().split('\n');
        expect(lines.at(-1)).toBe(box.workdir);
        expect(lines.at(-2)).toBe('0');
      });
    } finally {
      delete process.env.GITBENCH_LOCAL_SECRET;
    }
  });

  it('applies timeouts, output caps and stop-on-failure in batches', async () => {
    await withSandbox(driver, async (box) => {
      const slow = await box.exec('sleep 20', { timeoutMs: 1_000 });
      expect(slow.timedOut).toBe(true);
      const flood = await box.exec('yes', { maxOutputBytes: 100 });
      expect(flood.truncated).toBe(true);
      expect(kept(flood.stdout)).toHaveLength(100);
      const batch = await driver.runOnce({
        groups: [
          {
            stopOnFailure: true,
            steps: [
              { id: 'a', command: 'echo one' },
              { id: 'b', command: 'exit 4' },
              { id: 'c', command: 'echo never' },
            ],
          },
          { stopOnFailure: false, steps: [{ id: 'p', command: 'printf "%s" "$((6*7))"' }] },
        ],
      });
      expect(batch.groups[0]!.map((r) => [r.id, r.exitCode])).toEqual([
        ['a', 0],
        ['b', 4],
      ]);
      expect(batch.stoppedAt).toEqual([1, undefined]);
      expect(batch.groups[1]![0]!.stdout).toBe('42');
    });
  });

  it('runs each step as its own shell, with default signals, and reports how it ended', async () => {
    const batch = await driver.runOnce({
      groups: [
        {
          stopOnFailure: false,
          steps: [
            // A reader that stops early ends its writer quietly, as in any shell (SIGPIPE is not ignored).
            { id: 'pipe', command: 'yes | head -n 2; echo "status ${PIPESTATUS[0]}"' },
            { id: 'nul', command: 'echo a\0b' },
            { id: 'cwd', command: 'pwd', cwd: 'no/such/dir' },
            { id: 'self', command: 'kill -9 $$' },
            { id: 'stdin', command: 'cat; echo "<- stdin"' },
            { id: 'vars', command: 'echo "$0|$#|${gb_dir:-unset}"' },
            { id: 'bytes', command: "printf 'caf\\303\\251 \\377'" },
          ],
        },
      ],
    });
    const [pipe, nul, cwd, self, stdin, vars, bytes] = batch.groups[0]!;
    expect(pipe).toMatchObject({ exitCode: 0, stdout: 'y\ny\nstatus 141\n', stderr: '' });
    expect(nul).toMatchObject({ exitCode: 126, stderr: 'command contains a NUL byte and was not run' });
    expect(cwd!.exitCode).toBe(126);
    expect(cwd!.stderr).toMatch(/cannot enter no\/such\/dir/);
    expect(self).toMatchObject({ exitCode: 137, timedOut: false });
    expect(stdin).toMatchObject({ exitCode: 0, stdout: '<- stdin\n' });
    expect(vars!.stdout).toBe('bash|0|unset\n');
    expect(bytes!.stdout).toBe('café \ufffd');
  });

  it('skips a group whose required group did not run cleanly, and runs the others', async () => {
    const batch = await driver.runOnce({
      groups: [
        { stopOnFailure: true, steps: [{ id: 'build.a', command: 'true' }] },
        { stopOnFailure: false, requires: 0, steps: [{ id: 'after.a', command: 'echo a' }] },
        {
          stopOnFailure: true,
          steps: [
            { id: 'build.b', command: 'exit 3' },
            { id: 'never', command: 'true' },
          ],
        },
        { stopOnFailure: false, requires: 2, steps: [{ id: 'after.b', command: 'echo b' }] },
        {
          stopOnFailure: false,
          steps: [
            { id: 'ctx', command: 'false' },
            { id: 'ctx2', command: 'true' },
          ],
        },
        { stopOnFailure: false, requires: 4, steps: [{ id: 'after.ctx', command: 'echo c' }] },
      ],
    });
    expect(batch.groups.map((g) => g.map((r) => r.id))).toEqual([
      ['build.a'],
      ['after.a'],
      ['build.b'],
      [],
      ['ctx', 'ctx2'],
      [],
    ]);
    expect(batch.groups[1]![0]!.stdout).toBe('a\n');
  });

  it('empties the workspace, home and temporary directory between builds, and refuses an unknown home', async () => {
    const batch = await driver.runOnce({
      groups: [
        {
          stopOnFailure: true,
          steps: [
            {
              id: 'dirty',
              command: 'mkdir -p w/.g && touch w/.g/x .hidden "$HOME/.gitconfig" "${TMPDIR:-/tmp}/left"',
            },
          ],
        },
        { stopOnFailure: false, steps: [{ id: 'before', command: LOOK }] },
        { stopOnFailure: true, steps: [resetScratchStep('reset')] },
        { stopOnFailure: false, steps: [{ id: 'after', command: LOOK }] },
      ],
    });
    for (const name of ['w', '.hidden', '.gitconfig', 'left'])
      expect(batch.groups[1]![0]!.stdout.split('\n')).toContain(name);
    expect(batch.groups[2]![0]!.exitCode).toBe(0);
    expect(batch.groups[3]![0]!.stdout).not.toMatch(/\bw\b|hidden|gitconfig|left/);
    const refused = await driver.runOnce({
      env: { HOME: '/root' },
      groups: [{ stopOnFailure: true, steps: [resetScratchStep('reset')] }],
    });
    expect(refused.groups[0]![0]!.exitCode).not.toBe(0);
  });

  it('keeps binary and frame-like output intact', async () => {
    const batch = await driver.runOnce({
      groups: [
        {
          stopOnFailure: false,
          steps: [{ id: 'frame', command: "printf '@@GBSTEP 0.0 0 1 0 0 0\\n5\\n5\\n'; printf 'x\\n' >&2" }],
        },
      ],
    });
    expect(batch.groups[0]![0]).toMatchObject({ stdout: '@@GBSTEP 0.0 0 1 0 0 0\n5\n5\n', stderr: 'x\n' });
  });
});
