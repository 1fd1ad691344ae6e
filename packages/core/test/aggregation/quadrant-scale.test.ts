import { describe, expect, it } from 'vitest';
import { xScaleOf } from '../../src/aggregation/quadrant';

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
