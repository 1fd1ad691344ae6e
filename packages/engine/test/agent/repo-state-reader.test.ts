import { TamperingError } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { repoStateReader } from '../../src/agent/repo-state-reader';

/** A read that takes a while, counting how many are in flight at once. */
function slowReads(outcomes: ('timed_out' | 'tampering')[]) {
  let inFlight = 0;
  const seen = { most: 0, started: [] as number[] };
  let n = 0;
  const reader = repoStateReader({
    exec: () => Promise.reject(new Error('the reader used the script, not readState')),
    async readState() {
      const i = n++;
      seen.started.push(i);
      inFlight++;
      seen.most = Math.max(seen.most, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      if (outcomes[i] === 'tampering') throw new TamperingError('ran during the read');
      return { stdout: '', timedOut: true };
    },
  });
  return { reader, seen };
}

describe('repoStateReader', () => {
  it('runs reads asked for at once one after the other, in the order they were asked for', async () => {
    const { reader, seen } = slowReads(['timed_out', 'timed_out', 'timed_out', 'timed_out']);
    const results = await Promise.all([reader.read(), reader.read(), reader.read(), reader.read()]);
    expect(results).toEqual([null, null, null, null]);
    expect(seen.most).toBe(1);
    expect(seen.started).toEqual([0, 1, 2, 3]);
  });

  it('goes on with the next read after one that threw, and the throw reaches only its own caller', async () => {
    const { reader, seen } = slowReads(['timed_out', 'tampering', 'timed_out']);
    const [a, b, c] = await Promise.allSettled([reader.read(), reader.read(), reader.read()]);
    expect(a).toEqual({ status: 'fulfilled', value: null });
    expect(b.status).toBe('rejected');
    expect((b as PromiseRejectedResult).reason).toBeInstanceOf(TamperingError);
    expect(c).toEqual({ status: 'fulfilled', value: null });
    expect(seen.most).toBe(1);
  });
});
