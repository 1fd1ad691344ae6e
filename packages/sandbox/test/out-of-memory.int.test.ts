import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TamperingError } from '@gitbench/core';
import { DockerSandboxDriver, type BatchRequest } from '../src';

/**
 * How a one-shot batch ends when its runner dies before the end, as the host must tell it apart: the
 * container's memory ran out (Docker's State.OOMKilled), or a SIGKILL came from outside the sandbox
 * (no process inside may signal the runner). A small memory limit (64 MB) makes the kernel's OOM killer
 * act within seconds; the runner is a python3 of about 10 MB.
 */
const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for sandbox integration tests (scripts/test.sh sets it)');

const runLabel = { 'org.gitbench.test': `out-of-memory-${process.pid}` };
let driver: DockerSandboxDriver;

beforeAll(async () => {
  driver = await new DockerSandboxDriver({ image, labels: runLabel, limits: { memoryBytes: 64 * 1024 * 1024 } }).init();
});
afterAll(async () => {
  await driver?.close();
  await driver?.removeByLabels(runLabel);
});

/**
 * Fifteen processes of about 7 MB each (a `tail` holding 6 MB), once and a half the memory limit, each
 * smaller than the runner; prints how many of them were killed.
 */
const FILL_MEMORY =
  'pids=; for i in $(seq 15); do { head -c 6000000 /dev/zero; sleep 2; } | tail -c 6000000 >/dev/null & ' +
  'pids="$pids $!"; done; n=0; for p in $pids; do wait $p || n=$((n+1)); done; echo "killed $n"';

/** The command as a step, then a step that says the runner went on. */
const batch = (command: string): BatchRequest => ({
  groups: [
    { stopOnFailure: true, steps: [{ id: 'answer', command, timeoutMs: 40_000 }] },
    { stopOnFailure: false, steps: [{ id: 'after', command: 'echo still running' }] },
  ],
});

describe('a runner that dies before its batch ends', { timeout: 90_000 }, () => {
  it("loses a command's own processes to the OOM killer, not the runner: commands start as its victims", async () => {
    const r = await driver.runOnce(batch(`cat /proc/self/oom_score_adj; ${FILL_MEMORY}`));
    expect({ aborted: r.aborted, killed: r.killed }).toEqual({ aborted: undefined, killed: undefined });
    const [answer] = r.groups[0]!;
    expect(answer!.stdout).toMatch(/^1000\nkilled [1-9]\d*\n$/);
    expect(r.groups[1]![0]!.stdout).toBe('still running\n');
  });

  it("says the sandbox's memory ran out when processes that lowered their OOM score got it killed", async () => {
    const r = await driver.runOnce(batch(`echo 0 > /proc/self/oom_score_adj; ${FILL_MEMORY}`));
    expect(r.killed).toBe('out_of_memory');
    expect(r.aborted).toMatch(/^the sandbox's memory ran out and its runner was killed \(exit 137/);
    expect(r.groups[1]).toEqual([]);
  });

  it('says the runner was killed from outside when the host sends the SIGKILL', async () => {
    const running = driver.runOnce(batch('sleep 20'));
    let killed = false;
    for (let i = 0; i < 100 && !killed; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [box] = await driver.docker.listContainers({
        filters: { label: [`org.gitbench.test=${runLabel['org.gitbench.test']}`], status: ['running'] },
      });
      // The pool is empty (no prestart): the one running container is the batch's.
      if (box)
        killed = await driver.docker
          .getContainer(box.Id)
          .kill({ signal: 'SIGKILL' })
          .then(
            () => true,
            () => false,
          );
    }
    const r = await running;
    expect(killed).toBe(true);
    expect(r.killed).toBe('signal');
    expect(r.aborted).toMatch(/^the sandbox's runner was killed from outside the sandbox \(exit 137/);
  });

  it('cannot be killed by the commands it runs: every signal to it or to the init is refused', async () => {
    const r = await driver.runOnce(batch('kill -9 $PPID 1; kill -9 -1; echo refused'));
    expect({ aborted: r.aborted, killed: r.killed }).toEqual({ aborted: undefined, killed: undefined });
    expect(r.groups[0]![0]!.stderr).toMatch(/Operation not permitted/);
    expect(r.groups[1]![0]!.stdout).toBe('still running\n');
  });
});

describe("an agent's session whose runner the OOM killer takes", { timeout: 90_000 }, () => {
  it('outlives a command that fills its memory; ends as tampering if its processes lowered their score', async () => {
    const session = await driver.create();
    try {
      const filled = await session.exec(FILL_MEMORY, { timeoutMs: 40_000 });
      expect(filled.stdout).toMatch(/^killed [1-9]\d*\n$/);
      expect((await session.exec('echo alive')).stdout).toBe('alive\n');
      const lowered = session.exec(`echo 0 > /proc/self/oom_score_adj; ${FILL_MEMORY}`, { timeoutMs: 40_000 });
      await expect(lowered).rejects.toBeInstanceOf(TamperingError);
      await expect(lowered).rejects.toThrow(/^the sandbox's memory ran out and its runner was killed/);
    } finally {
      await session.cleanup();
    }
  });
});
