import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-process';

/**
 * A `gitbench run` stopped from outside (Ctrl-C, a CI timeout) removes the sandboxes it started: no
 * worker's orphan sweep looks at a CLI's containers, and its pre-started ones would sleep for ever.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');

const containersOf = (pid: number) =>
  spawnSync('docker', ['ps', '-aq', '--filter', `label=org.gitbench.cli=${pid}`], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const v = probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

function startRun() {
  const proc = spawn(
    process.execPath,
    [
      path.join(ROOT, 'apps/cli/bin/gitbench.js'),
      'run',
      path.join(ROOT, 'fixtures'),
      '--model',
      'oracle',
      '--mode',
      'agent',
      '--workers',
      '2',
    ],
    {
      cwd: ROOT,
      // Other test files run `gitbench run` meanwhile, and their start-up sweep would remove this file's
      // killed run first: a scope of its own keeps "the next run removes them" this file's to observe.
      env: { ...process.env, GITBENCH_CLI_SWEEP_SCOPE: `signal-test-${process.pid}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => proc.on('close', (c) => r(c)));
  return { proc, exited, stderr: () => stderr };
}

describe('gitbench run stopped by a signal', () => {
  it('SIGKILL leaves its sandboxes, and the next run on this machine removes them', { timeout: 180_000 }, async () => {
    const killed = startRun();
    const pid = killed.proc.pid!;
    // An attempt's sandbox can end, and be removed by the run, between seeing it and the kill: freeze
    // the run first (SIGSTOP), so the sandboxes seen are the ones the SIGKILL leaves behind.
    await waitFor(
      'the first run to be frozen with sandboxes started',
      () => {
        if (containersOf(pid).length === 0) return false;
        killed.proc.kill('SIGSTOP');
        if (containersOf(pid).length > 0) return true;
        killed.proc.kill('SIGCONT');
        return false;
      },
      60_000,
    );
    killed.proc.kill('SIGKILL');
    await killed.exited;
    // No handler ran: its containers outlive it.
    expect(containersOf(pid).length).toBeGreaterThan(0);
    const next = startRun();
    try {
      await waitFor('the next run to remove them', () => containersOf(pid).length === 0, 60_000);
      await waitFor(
        'the next run to say so',
        () => next.stderr().includes('left by earlier runs on this machine that were killed'),
        30_000,
      );
    } finally {
      next.proc.kill('SIGINT');
      await next.exited;
    }
    expect(containersOf(next.proc.pid!)).toEqual([]);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} removes every sandbox of the run and exits ${code}`, { timeout: 120_000 }, async () => {
      const { proc, exited, stderr } = startRun();
      const pid = proc.pid!;
      await waitFor('the run to start sandboxes', () => containersOf(pid).length > 0, 60_000);
      proc.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr()).toContain(`gitbench: ${signal}: removing this run's sandboxes`);
      expect(containersOf(pid)).toEqual([]);
    });
  }
});
