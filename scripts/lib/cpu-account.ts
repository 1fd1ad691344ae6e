import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Where a bench run's CPU went, from Linux's own counters: the whole machine (/proc/stat), every
 * process alive at the end of the window (by what it is: worker, web, PostgreSQL, Docker's daemons),
 * and every sandbox's processes together (the docker cpuacct cgroup, which keeps the time of
 * containers already removed). What no live process accounts for is short-lived processes outside
 * the sandboxes: container shims, runc, the web app's and worker's children.
 *
 * The bench is CPU-bound on small machines, so CPU-seconds say more than wall time about which part
 * to make cheaper. Linux only; elsewhere the account is empty.
 */
export interface CpuSnapshot {
  total: number;
  sandboxes: number;
  byPid: Map<number, { kind: string; seconds: number }>;
}

const HZ = 100;

function kindOf(pid: number): string {
  let cmd = '';
  try {
    // A sandbox's processes are counted through the docker cgroup, which also keeps the exited ones.
    if (readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes('/docker/')) return 'sandbox';
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return 'gone';
  }
  // Kernel threads have no command line: network, disk and memory work done for the processes above.
  if (cmd === '') return 'kernel threads';
  if (/apps\/worker\/src\/main/.test(cmd)) return 'worker';
  if (/next-server|next start|next\/dist/.test(cmd)) return 'web';
  if (/^postgres/.test(cmd)) return 'postgres';
  if (/redis-server/.test(cmd)) return 'redis';
  if (/containerd-shim/.test(cmd)) return 'shims';
  if (/^\/?\S*dockerd/.test(cmd)) return 'dockerd';
  if (/^\/?\S*containerd/.test(cmd)) return 'containerd';
  if (/bench-campaign/.test(cmd)) return 'bench';
  return `other (${cmd.split(' ')[0]!.split('/').at(-1)})`;
}

export function cpuSnapshot(): CpuSnapshot {
  const byPid = new Map<number, { kind: string; seconds: number }>();
  const { total, sandboxes } = cpuTick();
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // utime and stime are fields 14 and 15 of stat, 12 and 13 after the comm.
        byPid.set(pid, { kind: kindOf(pid), seconds: (Number(rest[11]) + Number(rest[12])) / HZ });
      } catch {
        // exited between the listing and the read
      }
    }
  } catch {
    // not Linux: no processes to list
  }
  return { total, sandboxes, byPid };
}

/**
 * The machine's busy CPU-seconds so far, and the sandboxes' share: two file reads, cheap enough to
 * take every 100 ms, so that a window can end where the campaign ended rather than where a poll saw it.
 */
export interface CpuTick {
  at: number;
  total: number;
  sandboxes: number;
}

export function cpuTick(): CpuTick {
  const at = Date.now();
  let total = 0;
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    total = (fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]!) / HZ;
    return { at, total, sandboxes: Number(readFileSync('/sys/fs/cgroup/cpuacct/docker/cpuacct.usage', 'utf8')) / 1e9 };
  } catch {
    // not Linux, or no cgroup v1 cpuacct hierarchy: what was read stays
    return { at, total, sandboxes: 0 };
  }
}

/**
 * Ticks every `everyMs` until stopped; `until(at)` is the CPU spent from the start to the first tick at or after `at`.
 */
export function cpuTicker(everyMs = 100): {
  stop(): void;
  until(at: number): { total: number; sandboxes: number } | null;
} {
  const ticks = [cpuTick()];
  const timer = setInterval(() => ticks.push(cpuTick()), everyMs);
  return {
    stop: () => clearInterval(timer),
    until: (at) => {
      const end = ticks.find((t) => t.at >= at);
      if (!end || !end.total) return null;
      return { total: end.total - ticks[0]!.total, sandboxes: end.sandboxes - ticks[0]!.sandboxes };
    },
  };
}

/** "14.7 CPU-s: worker 2.8, sandboxes 6.1, ..." for the window between two snapshots. */
export function cpuAccount(before: CpuSnapshot, after: CpuSnapshot): string {
  if (!after.total) return 'CPU account unavailable on this system';
  const kinds = new Map<string, number>();
  let live = 0;
  for (const [pid, now] of after.byPid) {
    const spent = now.seconds - (before.byPid.get(pid)?.seconds ?? 0);
    if (spent <= 0 || now.kind === 'sandbox') continue;
    kinds.set(now.kind, (kinds.get(now.kind) ?? 0) + spent);
    live += spent;
  }
  const sandboxes = after.sandboxes - before.sandboxes;
  const total = after.total - before.total;
  const parts = [...kinds].filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]);
  const exited = Math.max(0, total - live - sandboxes);
  const line = [
    ...parts.map(([k, s]) => `${k} ${s.toFixed(2)}`),
    `sandboxes ${sandboxes.toFixed(2)}`,
    `exited outside sandboxes ${exited.toFixed(2)}`,
  ];
  return `${total.toFixed(1)} CPU-s: ${line.join(', ')}`;
}

/**
 * Waits until the machine has been nearly idle for `windowMs` (at most `maxBusy` of all its cores
 * busy), then flushes dirty pages to disk, so that a timed run neither shares the CPU with what the
 * run before it left behind (the worker refilling its sandbox pool, PostgreSQL's checkpoints) nor pays
 * for its disk writeback. Gives up after `timeoutMs` and says so: the figures that follow are then
 * taken on a machine that was not quiet.
 */
export async function waitForQuiet(
  opts: { windowMs?: number; maxBusy?: number; timeoutMs?: number } = {},
): Promise<string> {
  const { windowMs = 1000, maxBusy = 0.1, timeoutMs = 30_000 } = opts;
  const cores = Math.max(1, os.cpus().length);
  const t0 = Date.now();
  let last = cpuTick();
  let busy = 1;
  for (;;) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = cpuTick();
    busy = (now.total - last.total) / (cores * ((now.at - last.at) / 1000));
    last = now;
    if (busy <= maxBusy || Date.now() - t0 >= timeoutMs) break;
  }
  spawnSync('sync');
  const waited = ((Date.now() - t0) / 1000).toFixed(1);
  const share = `${Math.round(busy * 100)}% busy`;
  return busy <= maxBusy
    ? `quiet after ${waited} s (${share})`
    : `NOT quiet after ${waited} s (${share}): the next figures share the machine`;
}
