import { describe, expect, it } from 'vitest';
import { sharedResult } from '../lib/shared-result';

describe('sharedResult', () => {
  it('runs once for a hundred callers at once and for callers within the time to live, again after it', async () => {
    let runs = 0;
    let clock = 0;
    const check = sharedResult(
      async () => ++runs,
      10_000,
      () => clock,
    );
    expect(new Set(await Promise.all(Array.from({ length: 100 }, () => check())))).toEqual(new Set([1]));
    clock = 9_999;
    expect(await check()).toBe(1);
    clock = 10_001;
    expect(await check()).toBe(2);
    expect(runs).toBe(2);
  });

  it('shares a failure too, until it expires', async () => {
    let runs = 0;
    let clock = 0;
    const check = sharedResult(
      async () => {
        runs++;
        throw new Error('down');
      },
      1_000,
      () => clock,
    );
    await expect(check()).rejects.toThrow('down');
    await expect(check()).rejects.toThrow('down');
    clock = 2_000;
    await expect(check()).rejects.toThrow('down');
    expect(runs).toBe(2);
  });
});
