import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createSandboxDriver, type SandboxDriver } from '@gitbench/sandbox';
import { UsageError, stringFlag, type ParsedArgs } from './args';

export const EXIT = { ok: 0, failed: 1, usage: 2, infrastructure: 3 } as const;

export class InfrastructureError extends Error {}

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
  if (build.status !== 0 || !tag) throw new InfrastructureError(`GITBENCH_SANDBOX_IMAGE is not set and ${BUILD_IMAGE} could not build the sandbox image (exit ${build.status})`);
  process.stderr.write(`gitbench: GITBENCH_SANDBOX_IMAGE is not set; using ${tag}\n`);
  return tag;
}

/** Docker unless `local` is asked for explicitly; never a silent fall-back to the host. */
export async function sandboxDriver(kind: string | undefined, workers: number): Promise<SandboxDriver> {
  const chosen = kind ?? 'docker';
  if (chosen !== 'docker' && chosen !== 'local') throw new UsageError(`--sandbox must be docker or local, got ${chosen}`);
  const labels = { 'org.gitbench.cli': String(process.pid) };
  let driver: SandboxDriver;
  try {
    driver = await createSandboxDriver({ kind: chosen, image: chosen === 'docker' ? sandboxImage() : undefined, labels, prestart: workers });
  } catch (err) {
    throw new InfrastructureError((err as Error).message);
  }
  removeOnSignal(driver, labels);
  return driver;
}

/** Set once a signal stopped the run: settles, with the exit code, when its sandboxes are gone. */
let interrupted: Promise<number> | null = null;

/** The exit code of a run a signal stopped, once its sandboxes are removed; null while none did. */
export function interruption(): Promise<number> | null {
  return interrupted;
}

/**
 * Ctrl-C or a kill of the CLI removes the sandboxes this run started: no worker's orphan sweep looks
 * at a CLI's containers, and the pre-started ones would otherwise sleep for ever.
 */
function removeOnSignal(driver: SandboxDriver, labels: Record<string, string>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      process.stderr.write(`gitbench: ${signal}: removing this run's sandboxes\n`);
      // Work in flight fails on the closed driver while we stop: expected, and not worth a stack trace.
      process.on('unhandledRejection', () => undefined);
      // Closed first, so the pool of pre-started sandboxes stops refilling; then whatever carries the label goes.
      interrupted = driver
        .close()
        .catch(() => undefined)
        .then(() => driver.removeByLabels(labels))
        .catch(() => 0)
        .then(() => (signal === 'SIGINT' ? 130 : 143));
      void interrupted.then((code) => process.exit(code));
    });
  }
}

export function driverFromArgs(args: ParsedArgs, workers: number): Promise<SandboxDriver> {
  return sandboxDriver(stringFlag(args, 'sandbox'), workers);
}
