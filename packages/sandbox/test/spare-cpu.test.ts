import { describe, expect, it } from 'vitest';
import { machineCpuTimes, spareCpuMeter } from '../src/spare-cpu';

describe('spareCpuMeter', () => {
  it('says whether a quarter of the machine was idle since the last reading, read at most every 100 ms', () => {
    let t = 0;
    let cpu = { busy: 0, idle: 0 };
    const spare = spareCpuMeter({ now: () => t, times: () => cpu });
    // 30% idle over the first 200 ms.
    t = 200;
    cpu = { busy: 280, idle: 120 };
    expect(spare()).toBe(true);
    // 10% idle since: not spare.
    t = 400;
    cpu = { busy: 640, idle: 160 };
    expect(spare()).toBe(false);
    // Asked again within 100 ms: the last reading, though the machine went idle meanwhile.
    t = 450;
    cpu = { busy: 640, idle: 360 };
    expect(spare()).toBe(false);
    // A full span later, counted from the last reading (400 ms): 200 idle of 200.
    t = 520;
    expect(spare()).toBe(true);
  });

  it('keeps its last reading when no CPU time was counted in the span', () => {
    let t = 0;
    const cpu = { busy: 10, idle: 0 };
    const spare = spareCpuMeter({ now: () => t, times: () => cpu, threshold: 0.5 });
    t = 1000;
    expect(spare()).toBe(true);
  });

  it("reads the kernel's count of this machine's CPU time", () => {
    const a = machineCpuTimes();
    expect(a.busy).toBeGreaterThan(0);
    expect(a.idle).toBeGreaterThan(0);
    // Spinning is busy time: the count rises while it spins (the kernel counts in ticks), however loaded
    // the machine. A count that never rises fails at the test's timeout.
    let now = machineCpuTimes();
    while (now.busy <= a.busy) now = machineCpuTimes();
    expect(now.idle).toBeGreaterThanOrEqual(a.idle);
  });
});
