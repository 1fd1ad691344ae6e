import { describe, expect, it } from 'vitest';
import { logAxisTicks, xScaleOf } from '../../src/aggregation/quadrant';

describe('the quadrant x scale', () => {
  it('goes log under auto once the values span two orders of magnitude, not before', () => {
    expect(xScaleOf([0.02, 0.5, 2], 'auto').scale).toBe('log');
    expect(xScaleOf([0.03, 0.5, 2.99], 'auto').scale).toBe('linear');
  });
  it('follows an explicit choice', () => {
    expect(xScaleOf([1, 2], 'log').scale).toBe('log');
    expect(xScaleOf([0.001, 20], 'linear').scale).toBe('linear');
  });
  it('never draws log when a value is 0 (a free target would fall off the axis), and says so', () => {
    expect(xScaleOf([0, 0.01, 5], 'log')).toEqual({ scale: 'linear', logImpossible: true });
    expect(xScaleOf([0, 0.01, 5], 'auto')).toEqual({ scale: 'linear', logImpossible: true });
    expect(xScaleOf([], 'auto')).toEqual({ scale: 'linear', logImpossible: true });
  });
});

describe('logAxisTicks', () => {
  it('labels a narrow span with round steps around every value, not two arbitrary ones', () => {
    // The four costs the quadrant showed with only "0.14" and "0.184" under them.
    const { domain, ticks } = logAxisTicks([0.14, 0.164, 0.184, 0.208]);
    expect(ticks).toEqual([0.1, 0.15, 0.2, 0.3]);
    expect(domain).toEqual([0.1, 0.3]);
  });

  it('uses 1-2-5 over about two decades and whole decades over more', () => {
    expect(logAxisTicks([0.004, 0.3]).ticks).toEqual([0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5]);
    expect(logAxisTicks([0.00012, 3, 45]).ticks).toEqual([0.0001, 0.001, 0.01, 0.1, 1, 10, 100]);
  });

  it('keeps every value inside the domain, and a lone value on a tick gets a step either side', () => {
    for (const values of [[1, 10], [0.5], [7, 7.5], [12_000, 98_000], [0.0031, 0.0032]]) {
      const { domain, ticks } = logAxisTicks(values);
      expect(domain[0]).toBeLessThanOrEqual(Math.min(...values));
      expect(domain[1]).toBeGreaterThanOrEqual(Math.max(...values));
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect([...ticks].sort((a, b) => a - b)).toEqual(ticks);
    }
    expect(logAxisTicks([1, 10]).domain).toEqual([1, 10]);
    const lone = logAxisTicks([0.5]).domain;
    expect(lone[0]).toBeLessThan(0.5);
    expect(lone[1]).toBeGreaterThan(0.5);
  });

  it('refuses values a log axis cannot place', () => {
    expect(() => logAxisTicks([0, -1])).toThrow(/positive/);
  });
});
