import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSandboxDriver, DockerSandboxDriver, type SandboxDriver } from '@gitbench/sandbox';
import { UsageError, stringFlag, type ParsedArgs } from './args';

import { InfrastructureError, interruptedBy, interruption } from './exit';

const BUILD_IMAGE = path.resolve(import.meta.dirname, '../../../docker/build-sandbox-image.sh');

/**
 * GITBENCH_SANDBOX_IMAGE, else the image of this checkout's sandbox build inputs, built on first use
 * (docker/build-sandbox-image.sh: idempotent, and instant once the image exists). So a fresh clone's
 * `npx gitbench selfcheck` needs nothing but Docker.
 */
function sandboxImage(): string {
  const fromEnv = process.env.GITBENCH_SANDBOX_IMAGE;
  if (fromEnv) return fromEnv;
  const build = spawnSync('bash', [BUILD_IMAGE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const tag = build.stdout?.trim().split('\n').pop();
  if (build.status !== 0 || !tag)
    throw new InfrastructureError(
      `GITBENCH_SANDBOX_IMAGE is not set and ${BUILD_IMAGE} could not build the sandbox image (exit ${build.status})`,
    );
  process.stderr.write(`gitbench: GITBENCH_SANDBOX_IMAGE is not set; using ${tag}\n`);
  return tag;
}

/** Docker unless `local` is asked for explicitly; never a silent fall-back to the host. */
export async function sandboxDriver(kind: string | undefined, workers: number): Promise<SandboxDriver> {
  const chosen = kind ?? 'docker';
  if (chosen !== 'docker' && chosen !== 'local')
    throw new UsageError(`--sandbox must be docker or local, got ${chosen}`);
  const host = hostIdentity();
  const labels = cliSandboxLabels();
  // The handlers come first: the driver pre-starts sandboxes while it is made, and a signal in that
  // window would otherwise end the run with its default action and leave them behind.
  const making = createSandboxDriver({
    kind: chosen,
    image: chosen === 'docker' ? sandboxImage() : undefined,
    labels,
    prestart: workers,
  });
  removeOnSignal(making, labels);
  let driver: SandboxDriver;
  try {
    driver = await making;
  } catch (err) {
    throw new InfrastructureError((err as Error).message);
  }
  if (driver instanceof DockerSandboxDriver) {
    const removed = await removeKilledRunsSandboxes(driver, host).catch(() => 0);
    if (removed > 0)
      process.stderr.write(
        `gitbench: removed ${removed} sandbox(es) left by earlier runs on this machine that were killed\n`,
      );
  }
  return driver;
}

/**
 * The labels of every sandbox this run starts, whatever its image (a third-party agent's driver carries
 * them too): the signal handler and the next run's sweep of killed runs find them by these.
 */
export function cliSandboxLabels(): Record<string, string> {
  return { [CLI_LABEL]: String(process.pid), [CLI_HOST_LABEL]: hostIdentity() };
}

/** The run's process id: its signal handler removes what carries it. */
const CLI_LABEL = 'org.gitbench.cli';
/**
 * Where that process id means something: the machine (host name and boot), so only this machine's dead runs are judged.
 */
const CLI_HOST_LABEL = 'org.gitbench.cli-host';

function hostIdentity(): string {
  // Runs that must not sweep each other's sandboxes on one machine (concurrent test files that kill
  // runs on purpose) each name a scope of their own.
  const scope = process.env.GITBENCH_CLI_SWEEP_SCOPE;
  if (scope) return scope;
  let boot = '';
  try {
    boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    // not Linux: the host name alone
  }
  return `${os.hostname()}/${boot}`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds the id; it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A run killed with SIGKILL (or one that crashed) ran no handler, and no worker's sweep looks at a
 * CLI's containers: the next run on the same machine removes the sandboxes of runs whose process is
 * gone. A reused process id keeps its old sandboxes until that process ends too, never the reverse.
 */
async function removeKilledRunsSandboxes(driver: DockerSandboxDriver, host: string): Promise<number> {
  const containers = await driver.docker.listContainers({
    all: true,
    filters: { label: [CLI_LABEL, `${CLI_HOST_LABEL}=${host}`] },
  });
  const dead = [...new Set(containers.map((c) => c.Labels[CLI_LABEL] ?? ''))].filter(
    (pid) => /^\d+$/.test(pid) && Number(pid) !== process.pid && !alive(Number(pid)),
  );
  let removed = 0;
  for (const pid of dead) removed += await driver.removeByLabels({ [CLI_LABEL]: pid, [CLI_HOST_LABEL]: host });
  return removed;
}

/**
 * Ctrl-C or a kill of the CLI removes the sandboxes this run started: no worker's orphan sweep looks
 * at a CLI's containers, and the pre-started ones would otherwise sleep for ever.
 */
function removeOnSignal(making: Promise<SandboxDriver>, labels: Record<string, string>): void {
  making.catch(() => undefined); // its failure is the caller's to report
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interruption()) return;
      process.stderr.write(`gitbench: ${signal}: removing this run's sandboxes\n`);
      // Work in flight fails on the closed driver while we stop: expected, and not worth a stack trace.
      process.on('unhandledRejection', () => undefined);
      // Closed first, so the pool of pre-started sandboxes stops refilling; then whatever carries the label goes.
      const interrupted = interruptedBy(
        making
          .then(async (driver) => {
            await driver.close().catch(() => undefined);
            return removeUntilNoneLeft(driver, labels);
          })
          .catch(() => 0)
          .then(() => (signal === 'SIGINT' ? 130 : 143)),
      );
      void interrupted.then((code) => process.exit(code));
    });
  }
}

/**
 * Sweeps by label until a sweep finds nothing: a container Docker was still removing when the first
 * sweep listed it (a 409 answers at once) is still listed until it is gone, and the run must not exit
 * before. Bounded, so a Docker engine that stopped answering cannot keep a stopped run alive.
 */
async function removeUntilNoneLeft(driver: SandboxDriver, labels: Record<string, string>): Promise<void> {
  for (let sweep = 0; sweep < 50; sweep++) {
    if ((await driver.removeByLabels(labels)) === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function driverFromArgs(args: ParsedArgs, workers: number): Promise<SandboxDriver> {
  return sandboxDriver(stringFlag(args, 'sandbox'), workers);
}
