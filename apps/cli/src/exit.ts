/**
 * Exit codes, the infrastructure failure, and whether a signal stopped the run: what every command and
 * main.ts share, kept apart from the sandbox driver so that loading them loads no Docker client.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, infrastructure: 3 } as const;

export class InfrastructureError extends Error {}

/** Set once a signal stopped the run: settles, with the exit code, when its sandboxes are gone. */
let interrupted: Promise<number> | null = null;

/** The exit code of a run a signal stopped, once its sandboxes are removed; null while none did. */
export function interruption(): Promise<number> | null {
  return interrupted;
}

/** Records the stop a signal began (sandbox-driver.ts): the first one counts. */
export function interruptedBy(stop: Promise<number>): Promise<number> {
  interrupted ??= stop;
  return interrupted;
}
