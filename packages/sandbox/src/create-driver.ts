import { DockerSandboxDriver } from './docker-driver';
import { LocalSandboxDriver } from './local-driver';
import type { SandboxDriver } from './types';

export interface CreateDriverOptions {
  kind: 'docker' | 'local';
  /** Required for docker: the sandbox image tag (GITBENCH_SANDBOX_IMAGE). */
  image?: string;
  labels?: Record<string, string>;
  prestart?: number;
}

/** Picks a driver by name; the caller decides, so nothing silently falls back to running on the host. */
export async function createSandboxDriver(opts: CreateDriverOptions): Promise<SandboxDriver> {
  if (opts.kind === 'local') return new LocalSandboxDriver();
  if (!opts.image)
    throw new Error(
      'the Docker sandbox driver needs an image: set GITBENCH_SANDBOX_IMAGE (npm run sandbox:image prints it)',
    );
  return new DockerSandboxDriver({ image: opts.image, labels: opts.labels, prestart: opts.prestart }).init();
}
