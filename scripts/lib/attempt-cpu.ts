import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Docker from 'dockerode';

/**
 * CPU time per sandboxed attempt, counted by Linux rather than timed, so that two checkouts measured
 * on a busy machine (other users' processes on the same cores) compare by the work they do, not by
 * how long they waited for a core:
 *
 * - the sandboxes': every container of the bench runs under a cgroup parent of its own, whose cpuacct
 *   counter (cgroup v1) keeps the time of its containers after they are removed;
 * - the bench process's own (process.cpuUsage: the driver, the readers of the records, the scorer);
 * - Docker's requests: how many the bench's client made (dockerd's CPU is shared with every other
 *   user of the machine, so its count says more than its time);
 * - Docker's daemons and shims, from /proc: the whole machine's use of them, printed apart.
 */
export interface CpuCounters {
  sandboxUs: number;
  benchUs: number;
  dockerRequests: number;
  daemonsUs: number;
}

const HZ = 100;

/** A Docker client whose containers run under `cgroupParent`, counting its requests. */
export function countingDocker(cgroupParent: string): { docker: Docker; requests: () => number } {
  const docker = new Docker();
  let requests = 0;
  const create = docker.createContainer.bind(docker) as (
    opts: Docker.ContainerCreateOptions,
  ) => Promise<Docker.Container>;
  (docker as unknown as { createContainer: typeof create }).createContainer = (opts) =>
    create({ ...opts, HostConfig: { ...opts.HostConfig, CgroupParent: cgroupParent } });
  const modem = docker.modem as unknown as { dial: (...args: unknown[]) => unknown };
  const dial = modem.dial.bind(modem);
  modem.dial = (...args: unknown[]) => {
    requests++;
    return dial(...args);
  };
  return { docker, requests: () => requests };
}

function cgroupUsageUs(cgroupParent: string): number {
  const file = `/sys/fs/cgroup/cpuacct${cgroupParent}/cpuacct.usage`;
  // Created by Docker with the first container; before it, nothing has run there.
  return existsSync(file) ? Number(readFileSync(file, 'utf8')) / 1000 : 0;
}

function daemonsUs(): number {
  let ticks = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (!/^(\S*\/)?(dockerd|containerd|containerd-shim\S*)\0/.test(cmd)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]);
    } catch {
      // exited between the listing and the read
    }
  }
  return (ticks / HZ) * 1e6;
}

export function cpuCounters(cgroupParent: string, requests: () => number): CpuCounters {
  const own = process.cpuUsage();
  return {
    sandboxUs: cgroupUsageUs(cgroupParent),
    benchUs: own.user + own.system,
    dockerRequests: requests(),
    daemonsUs: daemonsUs(),
  };
}

export function cpuSince(before: CpuCounters, after: CpuCounters): CpuCounters {
  return {
    sandboxUs: after.sandboxUs - before.sandboxUs,
    benchUs: after.benchUs - before.benchUs,
    dockerRequests: after.dockerRequests - before.dockerRequests,
    daemonsUs: after.daemonsUs - before.daemonsUs,
  };
}

/** "sandbox 41.2 ms + bench 9.8 ms = 51.0 ms CPU per attempt; 7.0 Docker requests; daemons 12.1 ms" */
export function perAttempt(spent: CpuCounters, attempts: number): string {
  const ms = (us: number) => (us / 1000 / attempts).toFixed(1);
  return (
    `sandbox ${ms(spent.sandboxUs)} ms + bench process ${ms(spent.benchUs)} ms ` +
    `= ${ms(spent.sandboxUs + spent.benchUs)} ms CPU per attempt; ${(spent.dockerRequests / attempts).toFixed(1)} ` +
    `Docker requests; Docker's daemons (machine-wide) ${ms(spent.daemonsUs)} ms`
  );
}
