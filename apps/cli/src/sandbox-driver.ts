import { createSandboxDriver, type SandboxDriver } from '@gitbench/sandbox';
import { UsageError, stringFlag, type ParsedArgs } from './args';

export const EXIT = { ok: 0, failed: 1, usage: 2, infrastructure: 3 } as const;

export class InfrastructureError extends Error {}

/** Docker unless `local` is asked for explicitly; never a silent fall-back to the host. */
export async function sandboxDriver(kind: string | undefined, workers: number): Promise<SandboxDriver> {
  const chosen = kind ?? 'docker';
  if (chosen !== 'docker' && chosen !== 'local') throw new UsageError(`--sandbox must be docker or local, got ${chosen}`);
  try {
    return await createSandboxDriver({
      kind: chosen,
      image: process.env.GITBENCH_SANDBOX_IMAGE,
      labels: { 'org.gitbench.cli': String(process.pid) },
      prestart: workers,
    });
  } catch (err) {
    throw new InfrastructureError((err as Error).message);
  }
}

export function driverFromArgs(args: ParsedArgs, workers: number): Promise<SandboxDriver> {
  return sandboxDriver(stringFlag(args, 'sandbox'), workers);
}
