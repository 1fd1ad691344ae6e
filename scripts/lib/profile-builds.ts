import type { BatchResult, SandboxDriver } from '@gitbench/sandbox';

/**
 * A driver whose sandboxes report, per step id, how long the steps of their batches took: where a
 * repository build's time goes (set-up, archive, state read, context, reset between fixtures).
 */
export function profilingDriver(driver: SandboxDriver): {
  driver: SandboxDriver;
  totals: Map<string, { n: number; ms: number }>;
  containerMs: number[];
} {
  const totals = new Map<string, { n: number; ms: number }>();
  const containerMs: number[] = [];
  const tally = <R extends BatchResult>(result: R): R => {
    for (const records of result.groups) {
      for (const r of records) {
        const id = r.id.replace(/\.\d+$/, '');
        const t = totals.get(id) ?? { n: 0, ms: 0 };
        t.n++;
        t.ms += r.durationMs;
        totals.set(id, t);
      }
    }
    return result;
  };
  const wrapped: SandboxDriver = Object.create(driver);
  wrapped.create = async (opts) => {
    const t0 = performance.now();
    const box = await driver.create(opts);
    containerMs.push(performance.now() - t0);
    const runBatch = box.runBatch.bind(box);
    box.runBatch = async (request) => tally(await runBatch(request));
    return box;
  };
  // Docker's builds take a one-shot container (started with the batch when no pool keeps one ready).
  wrapped.runOnce = async (request, opts) => tally(await driver.runOnce(request, opts));
  return { driver: wrapped, totals, containerMs };
}
