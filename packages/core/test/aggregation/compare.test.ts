import { describe, expect, it } from 'vitest';
import { assignQuadrants, compareTargets, mcnemarExact, median } from '../../src/aggregation';
import { row, series } from './helpers';

describe('mcnemarExact', () => {
  it('gives the exact two-sided binomial p-value', () => {
    expect(mcnemarExact(3, 0).pValue).toBeCloseTo(0.25, 12);
    expect(mcnemarExact(10, 2).pValue).toBeCloseTo((2 * 79) / 4096, 12);
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(5, 5).pValue).toBe(1);
    expect(mcnemarExact(2, 10).pValue).toBe(mcnemarExact(10, 2).pValue);
  });

  it('survives thousands of pairs', () => {
    expect(mcnemarExact(1500, 1500).pValue).toBe(1);
    const p = mcnemarExact(1100, 1000).pValue;
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.05);
    expect(Number.isNaN(mcnemarExact(3000, 0).pValue)).toBe(false);
  });
});

describe('compareTargets', () => {
  it('pairs fixtures both ran by majority outcome and leaves out ties', () => {
    const a = [
      ...series('PPF', { fixtureId: 'f1' }),
      ...series('PPP', { fixtureId: 'f2' }),
      ...series('FFF', { fixtureId: 'f3' }),
      ...series('PF-', { fixtureId: 'f4' }),
      ...series('P', { fixtureId: 'only-a' }),
    ];
    const b = [
      ...series('FFF', { fixtureId: 'f1', modelId: 'b' }),
      ...series('PPP', { fixtureId: 'f2', modelId: 'b' }),
      ...series('PFP', { fixtureId: 'f3', modelId: 'b' }),
      ...series('PPP', { fixtureId: 'f4', modelId: 'b' }),
      ...series('---', { fixtureId: 'no-valid', modelId: 'b' }),
      row({ fixtureId: 'only-b', modelId: 'b' }),
    ];
    const result = compareTargets(a, b);
    expect(result).toMatchObject({
      b: 1,
      c: 1,
      bothPassed: 1,
      bothFailed: 0,
      tiesLeftOut: 1,
      onlyFirst: 1,
      onlySecond: 1,
    });
    expect(result.pairs.map((p) => [p.fixtureId, p.first, p.second])).toEqual([
      ['f1', 'pass', 'fail'],
      ['f2', 'pass', 'pass'],
      ['f3', 'fail', 'pass'],
      ['f4', 'tie', 'pass'],
    ]);
    expect(result.pValue).toBe(1);
  });
});

describe('assignQuadrants', () => {
  it('splits at the medians; lower x and higher y is best value', () => {
    const result = assignQuadrants([
      { id: 'cheap-good', x: 1, y: 0.9 },
      { id: 'dear-good', x: 10, y: 0.8 },
      { id: 'cheap-bad', x: 2, y: 0.1 },
      { id: 'dear-bad', x: 9, y: 0.2 },
      { id: 'unpriced', x: null, y: 0.5 },
    ]);
    expect(result.medianX).toBe(5.5);
    expect(result.medianY).toBeCloseTo(0.5);
    expect(Object.fromEntries(result.placed.map((p) => [p.id, p.quadrant]))).toEqual({
      'cheap-good': 'best_value',
      'dear-good': 'premium',
      'cheap-bad': 'economy',
      'dear-bad': 'poor_value',
    });
    expect(result.unplaced.map((p) => p.id)).toEqual(['unpriced']);
  });

  it('puts points on the median on the cheap and good side', () => {
    expect(assignQuadrants([{ x: 3, y: 0.5 }]).placed[0]!.quadrant).toBe('best_value');
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
  });
});
