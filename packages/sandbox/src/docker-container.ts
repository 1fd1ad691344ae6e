import type Docker from 'dockerode';
import { SANDBOX_UID } from './step-runner';

/** One sandbox container as Docker creates it: no network, no capability beyond the runner's, tmpfs only, capped. */

export interface DockerLimits {
  memoryBytes: number;
  nanoCpus: number;
  pids: number;
  /** Size of the writable repository directory (tmpfs): a disk flood ends here, not on the host. */
  workdirBytes: number;
  /** Size of the home directory (tmpfs): a third-party agent keeps its configuration, sessions and caches there. */
  homeBytes: number;
}

export const DEFAULT_LIMITS: DockerLimits = {
  memoryBytes: 512 * 1024 * 1024,
  nanoCpus: 1_000_000_000,
  pids: 256,
  workdirBytes: 256 * 1024 * 1024,
  homeBytes: 16 * 1024 * 1024,
};
/**
 * The size of /tmp (a tmpfs, as every writable directory is): the agent's prompt says so (SandboxDescription.tmpBytes).
 */
export const TMP_BYTES = 64 * 1024 * 1024;
export const SANDBOX_LABEL = 'org.gitbench.sandbox';
export const WORKDIR = '/work';
export const UID = SANDBOX_UID;
/**
 * Who reads a sandbox's repository beside its runner (Sandbox.observe): a uid no process of the
 * sandbox has, so the sandbox's uid can neither signal it nor be swept with it, and it owns no file there.
 */
export const OBSERVER_UID = SANDBOX_UID + 1;
/**
 * The sandbox's processes start as root with only what the runner needs to run commands as UID and
 * to kill every process of it (see runner/common.py); root here has no other privilege: no file of
 * UID's is writable or readable to it beyond what the file's mode gives anyone.
 */
const RUNNER_CAPS = ['SETUID', 'SETGID', 'KILL'];

/** What Docker is asked to create: `spec` (the command, labels) with everything that confines the container. */
export function containerSpec(
  image: string,
  limits: DockerLimits,
  spec: Partial<Docker.ContainerCreateOptions>,
  { init = true, binds = [] }: { init?: boolean; binds?: string[] } = {},
): Docker.ContainerCreateOptions {
  const tmpfs = (size: number, mode: string) => `rw,exec,nosuid,nodev,size=${size},uid=${UID},gid=${UID},mode=${mode}`;
  return {
    ...spec,
    Image: image,
    User: '0:0',
    WorkingDir: WORKDIR,
    Env: [
      'HOME=/home/sandbox',
      'LANG=C.UTF-8',
      'LC_ALL=C.UTF-8',
      'TZ=UTC',
      'GIT_CONFIG_NOSYSTEM=1',
      'PATH=/usr/local/bin:/usr/bin:/bin',
    ],
    Labels: { [SANDBOX_LABEL]: '1', ...spec.Labels },
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: 'none',
      ...(binds.length ? { Binds: binds } : {}),
      CapDrop: ['ALL'],
      CapAdd: RUNNER_CAPS,
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: limits.pids,
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      NanoCpus: limits.nanoCpus,
      // Nothing outside the tmpfs mounts is writable, so a runaway writer fills its own memory
      // budget and not the host's disk.
      ReadonlyRootfs: true,
      Tmpfs: {
        [WORKDIR]: tmpfs(limits.workdirBytes, '0755'),
        '/tmp': tmpfs(TMP_BYTES, '1777'),
        '/home/sandbox': tmpfs(limits.homeBytes, '0755'),
      },
      AutoRemove: false,
      Init: init,
      // Every byte a sandbox prints reaches the driver over its attach stream; a logging driver
      // would have dockerd encode and write it all to a file on the host's disk once more, at the
      // daemon's CPU cost, and with no size limit.
      LogConfig: { Type: 'none', Config: {} },
    },
  };
}

export async function removeContainer(container: Docker.Container): Promise<void> {
  await container.remove({ force: true, v: true }).catch((err: { statusCode?: number }) => {
    // 404: already gone; 409: removal already in progress.
    if (err.statusCode !== 404 && err.statusCode !== 409) throw err;
  });
}
