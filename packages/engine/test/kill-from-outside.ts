import type { DockerSandboxDriver } from '@gitbench/sandbox';

/** Fifteen processes of about 7 MB each, smaller than the runner, once and a half a 64 MB sandbox's memory. */
export const FILL_MEMORY =
  'for i in $(seq 15); do { head -c 6000000 /dev/zero; sleep 2; } | tail -c 6000000 >/dev/null & done; wait';

/**
 * Kills the running container that carries `labels` with a SIGKILL from the host, as the host's OOM
 * killer or an operator would (no process inside may send it), once a process of it runs a command that
 * starts with `running`; gives up after 30 s. Whether it killed. The caller's driver must hold one
 * running container (prestart off, the fixture built).
 */
export async function killFromOutsideOnce(
  driver: DockerSandboxDriver,
  labels: Record<string, string>,
  running: string,
): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [box] = await driver.docker.listContainers({
      filters: { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`), status: ['running'] },
    });
    const container = box && driver.docker.getContainer(box.Id);
    const top = await container?.top().catch(() => undefined);
    if (!container || !top?.Processes?.some((p: string[]) => p.at(-1)?.startsWith(running))) continue;
    const killed = await container.kill({ signal: 'SIGKILL' }).then(
      () => true,
      () => false,
    );
    if (killed) return true;
  }
  return false;
}
