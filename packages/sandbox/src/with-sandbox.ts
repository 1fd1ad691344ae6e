import type { Sandbox, SandboxDriver, SandboxOptions } from './types';

/**
 * Runs `fn` with a fresh sandbox and cleans the sandbox up afterwards, whatever happens in `fn`.
 * Clean-up is awaited, so a caller that returns has nothing left running.
 */
export async function withSandbox<T>(
  driver: SandboxDriver,
  fn: (sandbox: Sandbox) => Promise<T>,
  opts: SandboxOptions = {},
): Promise<T> {
  const sandbox = await driver.create(opts);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.cleanup();
  }
}
