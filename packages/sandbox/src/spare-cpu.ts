import os from 'node:os';

/** Busy and idle CPU time summed over the machine's cores, in ms, as the kernel counts them. */
export interface CpuTimes {
  busy: number;
  idle: number;
}

export function machineCpuTimes(): CpuTimes {
  let busy = 0;
  let idle = 0;
  for (const { times } of os.cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    idle += times.idle;
  }
  return { busy, idle };
}

export interface SpareCpuOptions {
  /** The idle share of the machine at or above which CPU counts as spare. */
  threshold?: number;
  /** The shortest span a reading covers; a reading asked for sooner gives the last one again (ms). */
  minSpanMs?: number;
  times?: () => CpuTimes;
  now?: () => number;
}

/**
 * Whether the machine had CPU to spare lately: the idle share of all its cores since the previous
 * reading. Work done ahead of need (a sandbox started before an attempt asks for one) is free only
 * when CPU is idle; on a saturated machine it takes the CPU the work at hand is waiting for, and may
 * never be used.
 */
export function spareCpuMeter(opts: SpareCpuOptions = {}): () => boolean {
  const threshold = opts.threshold ?? 0.25;
  const minSpanMs = opts.minSpanMs ?? 100;
  const times = opts.times ?? machineCpuTimes;
  const now = opts.now ?? (() => performance.now());
  let since = { at: now(), ...times() };
  let spare = true;
  return () => {
    const at = now();
    if (at - since.at < minSpanMs) return spare;
    const read = times();
    const busy = read.busy - since.busy;
    const idle = read.idle - since.idle;
    // No tick counted (a clock that did not move): keep the last reading.
    if (busy + idle > 0) spare = idle / (busy + idle) >= threshold;
    since = { at, ...read };
    return spare;
  };
}
