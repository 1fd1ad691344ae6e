import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandboxDriver, LocalSandboxDriver, type BatchStep, type SandboxDriver } from '../src';

const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for sandbox integration tests (scripts/test.sh sets it)');

const runLabel = { 'org.gitbench.test': `then-python-int-${process.pid}` };

/**
 * A step's thenPython runs in the step runner's own process (no python3 start of its own): these are
 * the promises of BatchStep.thenPython, in both drivers' runners.
 */
function thenPythonSuite(name: string, makeDriver: () => Promise<SandboxDriver>) {
  describe(`thenPython in the ${name} driver`, () => {
    let driver: SandboxDriver;
    beforeAll(async () => {
      driver = await makeDriver();
    });
    afterAll(async () => {
      await driver?.close();
    });

    it(
      'appends its bytes to the command output, in the step ' +
        'directory, under the cap, and a failure ends only its step',
      async () => {
        const steps: BatchStep[] = [
          { id: 'mkdir', command: 'mkdir -p sub/deeper' },
          {
            id: 'appended',
            command: "printf 'from bash\\n'",
            cwd: 'sub',
            // print() goes to the step's stdout too: the runner's own stdout carries the records' framing.
            thenPython: 'import os\nout.write(b"cwd " + os.getcwd().encode() + b"\\n")\nprint("printed")\nleak = 1',
          },
          { id: 'fresh', command: 'true', thenPython: 'out.write(b"leaked" if "leak" in globals() else b"fresh")' },
          {
            id: 'flood',
            command: 'printf abc',
            maxOutputBytes: 10,
            thenPython: 'while True:\n    out.write(b"x" * 4)',
          },
          {
            id: 'raises',
            command: 'echo before',
            cwd: 'sub/deeper',
            thenPython: 'import os\nos.chdir("/")\nraise ValueError("no such thing")',
          },
          { id: 'pwd', command: 'pwd' },
          { id: 'here', command: 'true', thenPython: 'import os\nout.write(os.getcwd().encode())' },
          { id: 'command-failed', command: 'exit 3', thenPython: 'out.write(b"never")' },
          { id: 'exits', command: 'true', thenPython: 'import sys\nsys.exit(0)' },
          { id: 'slow', command: 'true', thenPython: 'import time\ntime.sleep(0.3)\nout.write(b"slept")' },
          {
            id: 'timeout',
            command: 'true',
            timeoutMs: 1_000,
            thenPython: 'import time\nwhile True:\n    time.sleep(0.05)',
          },
          { id: 'nul', command: 'echo never', thenPython: 'out.write(b"x")\0' },
          { id: 'last', command: 'echo still running' },
        ];
        {
          const batch = await driver.runOnce({ groups: [{ stopOnFailure: false, steps }] }, { labels: runLabel });
          expect(batch.aborted).toBeUndefined();
          // Docker's workdir is every sandbox's; a local sandbox's is under its own directory.
          const box = { workdir: driver.describe().workdir ?? `${batch.sandboxId}/work` };
          const r = Object.fromEntries(batch.groups[0]!.map((s) => [s.id, s]));
          expect(batch.groups[0]!.map((s) => s.id)).toEqual(steps.map((s) => s.id));

          expect(r.appended).toMatchObject({
            exitCode: 0,
            stdout: `from bash\ncwd ${box.workdir}/sub\nprinted\n`,
            stderr: '',
            truncated: false,
          });
          expect(r.fresh).toMatchObject({ exitCode: 0, stdout: 'fresh' });
          // Past the cap the stream is closed, as a command's pipe is: the writer stops (BrokenPipeError).
          expect(r.flood).toMatchObject({ exitCode: 1, stdout: 'abcxxxxxxx', truncated: true, timedOut: false });
          // Its traceback (BrokenPipeError) is under the same cap.
          expect(r.flood!.stderr).toBe('Traceback ');
          expect(r.raises).toMatchObject({ exitCode: 1, stdout: 'before\n', timedOut: false });
          expect(r.raises!.stderr).toMatch(/^Traceback[^]*ValueError: no such thing\n$/);
          // The directory is the batch's again for the next step, whatever the code did with it.
          expect(r.pwd).toMatchObject({ exitCode: 0, stdout: `${box.workdir}\n` });
          expect(r.here).toMatchObject({ exitCode: 0, stdout: box.workdir });
          expect(r['command-failed']).toMatchObject({ exitCode: 3, stdout: '' });
          expect(r.exits!.exitCode).toBe(1);
          expect(r.exits!.stderr).toMatch(/SystemExit/);
          expect(r.slow).toMatchObject({ exitCode: 0, stdout: 'slept' });
          expect(r.slow!.durationMs).toBeGreaterThanOrEqual(300);
          expect(r.timeout).toMatchObject({ exitCode: 124, timedOut: true });
          expect(r.timeout!.durationMs).toBeLessThan(5_000);
          expect(r.nul).toMatchObject({ exitCode: 126, stdout: '' });
          expect(r.last).toMatchObject({ exitCode: 0, stdout: 'still running\n' });
        }
      },
    );

    it('is refused by a sandbox from create(), whose runner runs commands only', async () => {
      const session = await driver.create({ labels: runLabel });
      try {
        await expect(
          session.runBatch({
            groups: [{ stopOnFailure: false, steps: [{ id: 'state', command: 'true', thenPython: 'pass' }] }],
          }),
        ).rejects.toThrow(/thenPython/);
      } finally {
        await session.cleanup();
      }
    });
  });
}

thenPythonSuite('Docker', async () => new DockerSandboxDriver({ image, labels: runLabel }).init());
thenPythonSuite('local', async () => new LocalSandboxDriver({ warn: () => undefined }));

afterAll(async () => {
  await new DockerSandboxDriver({ image, labels: runLabel }).removeByLabels(runLabel);
});
