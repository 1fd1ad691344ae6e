import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rateOf, wilsonInterval, WILSON_Z_95 } from '../../src/aggregation';

describe('wilsonInterval', () => {
  it('matches published values', () => {
    const i = wilsonInterval(8, 10)!;
    expect(i.low).toBeCloseTo(0.4902, 4);
    expect(i.high).toBeCloseTo(0.9433, 4);
    const zero = wilsonInterval(0, 10)!;
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10)!.high).toBe(1);
  });

  it('has no interval without evidence', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(rateOf(0, 0)).toEqual({ numerator: 0, denominator: 0, value: null, interval: null });
  });

  it('uses the exact 97.5% normal quantile', () => {
    expect(WILSON_Z_95).toBe(1.959963984540054);
  });

  const counts = fc
    .integer({ min: 1, max: 5000 })
    .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));

  it('contains p̂ and stays within [0, 1]', () => {
    fc.assert(
      fc.property(counts, ([k, n]) => {
        const { low, high } = wilsonInterval(k, n)!;
        const p = k / n;
        return 0 <= low && low <= p && p <= high && high <= 1;
      }),
    );
  });

  it('narrows as n grows at the same proportion', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 2, max: 20 }),
        (k0, extra, m) => {
          const n = k0 + extra;
          const small = wilsonInterval(k0, n)!;
          const large = wilsonInterval(k0 * m, n * m)!;
          return large.high - large.low < small.high - small.low;
        },
      ),
    );
  });
});
