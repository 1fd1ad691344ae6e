import { describe, expect, it } from 'vitest';
import { analyzeItems, pearson, type ItemCell } from '../../src/aggregation/item-analysis';

const cell = (target: string, fixtureId: string, passes: number, scored: number): ItemCell => ({
  target,
  domain: 'd',
  fixtureId,
  passes,
  scored,
});
const byId = (cells: ItemCell[]) => new Map(analyzeItems(cells).map((i) => [i.fixtureId, i]));

// A passes everything, B fails f2, C fails f1 and f2; f3 everyone passes.
const THREE = [
  cell('A', 'f1', 1, 1),
  cell('A', 'f2', 1, 1),
  cell('A', 'f3', 1, 1),
  cell('B', 'f1', 1, 1),
  cell('B', 'f2', 0, 1),
  cell('B', 'f3', 1, 1),
  cell('C', 'f1', 0, 1),
  cell('C', 'f2', 0, 1),
  cell('C', 'f3', 1, 1),
];

describe('pearson', () => {
  it('is 1, -1 and a hand-computed value', () => {
    expect(pearson([0, 1, 2], [1, 3, 5])).toBeCloseTo(1, 12);
    expect(pearson([0, 1, 2], [5, 3, 1])).toBeCloseTo(-1, 12);
    // x = 1,1,0 y = 1,.5,.5: sxy 1/6, sxx 2/3, syy 1/6 -> (1/6)/sqrt(1/9) = 0.5
    expect(pearson([1, 1, 0], [1, 0.5, 0.5])).toBeCloseTo(0.5, 12);
  });
  it('is null with fewer than two pairs or no variance on either side', () => {
    expect(pearson([], [])).toBeNull();
    expect(pearson([1], [0.3])).toBeNull();
    expect(pearson([1, 1, 1], [0.1, 0.5, 0.9])).toBeNull();
    expect(pearson([0, 1, 1], [0.4, 0.4, 0.4])).toBeNull();
    expect(() => pearson([1, 2], [1])).toThrow(RangeError);
  });
});

describe('analyzeItems', () => {
  it('gives pass rates, rest-score discrimination and flags computed by hand', () => {
    const items = byId(THREE);
    const f1 = items.get('f1')!;
    // f1: own 1,1,0; rest (f2,f3) A 1, B 0.5, C 0.5 -> r = 0.5
    expect(f1.passRate).toMatchObject({ numerator: 2, denominator: 3 });
    expect(f1.discrimination).toBeCloseTo(0.5, 12);
    expect(f1).toMatchObject({
      targets: 3,
      targetsPassing: 2,
      discriminationTargets: 3,
      flags: { saturated: false, unsolved: false, flaky: false },
    });
    // f2: own 1,0,0; rest (f1,f3) A 1, B 1, C 0.5: sxy 1/6, sxx 2/3, syy 1/6 -> 0.5
    expect(items.get('f2')!.discrimination).toBeCloseTo(0.5, 12);
    expect(items.get('f2')!.passRate.value).toBeCloseTo(1 / 3, 12);
    const f3 = items.get('f3')!;
    expect(f3.discrimination).toBeNull();
    expect(f3.flags).toEqual({ saturated: true, unsolved: false, flaky: false });
  });

  it('does not correlate a fixture with itself: with the total score f1 would read higher', () => {
    // Total score (f1 included): A 1, B 2/3, C 1/3 against 1,1,0 gives 0.866; the rest score gives 0.5.
    expect(pearson([1, 1, 0], [1, 2 / 3, 1 / 3])).toBeCloseTo(Math.sqrt(3) / 2, 12);
    expect(byId(THREE).get('f1')!.discrimination).toBeCloseTo(0.5, 12);
  });

  it('is negative when only the weak targets pass', () => {
    const items = byId([
      cell('A', 'g1', 1, 1),
      cell('A', 'g2', 1, 1),
      cell('A', 'x', 0, 1),
      cell('B', 'g1', 0, 1),
      cell('B', 'g2', 0, 1),
      cell('B', 'x', 1, 1),
    ]);
    // own x: 0, 1; rest: A 1, B 0 -> -1
    expect(items.get('x')!.discrimination).toBeCloseTo(-1, 12);
  });

  it('uses each target pass fraction across trials, flags flaky and counts only scored attempts', () => {
    const items = byId([
      cell('A', 'f1', 2, 3),
      cell('A', 'f2', 3, 3),
      cell('B', 'f1', 0, 2),
      cell('B', 'f2', 1, 2),
      // No scored attempt (everything excluded): not a target of f1.
      cell('C', 'f1', 0, 0),
      cell('C', 'f2', 1, 1),
    ]);
    const f1 = items.get('f1')!;
    expect(f1.passRate).toMatchObject({ numerator: 2, denominator: 5 });
    expect(f1).toMatchObject({
      targets: 2,
      targetsPassing: 1,
      flags: { saturated: false, unsolved: false, flaky: true },
    });
    // own 2/3, 0; rest A 1, B 0.5 -> two points, r = 1
    expect(f1.discrimination).toBeCloseTo(1, 12);
    const f2 = items.get('f2')!;
    expect(f2.flags.flaky).toBe(true);
    // C has no other fixture, so no rest score: only A and B count; own 1, 0.5; rest 2/3, 0 -> 1
    expect(f2.discriminationTargets).toBe(2);
    expect(f2.discrimination).toBeCloseTo(1, 12);
  });

  it('merges cells of one target handed over per campaign', () => {
    const split = byId([
      cell('A', 'f1', 1, 1),
      cell('A', 'f1', 0, 1),
      cell('A', 'f2', 1, 1),
      cell('B', 'f1', 0, 1),
      cell('B', 'f2', 0, 1),
    ]);
    expect(split.get('f1')!.passRate).toMatchObject({ numerator: 1, denominator: 3 });
    expect(split.get('f1')!.flags.flaky).toBe(true);
    expect(split.get('f1')!.targets).toBe(2);
  });

  it('leaves discrimination undefined for a single target and flags unsolved', () => {
    const items = byId([cell('A', 'f1', 0, 2), cell('A', 'f2', 1, 1)]);
    expect(items.get('f1')!.discrimination).toBeNull();
    expect(items.get('f1')!.discriminationTargets).toBe(1);
    expect(items.get('f1')!.flags).toEqual({ saturated: false, unsolved: true, flaky: false });
  });

  it('sorts by signal: highest discrimination, then undefined ones nearest a half pass rate', () => {
    const order = analyzeItems([...THREE, cell('A', 'f4', 0, 1), cell('B', 'f4', 0, 1), cell('C', 'f4', 0, 1)]).map(
      (i) => i.fixtureId,
    );
    expect(order.slice(2)).toEqual(['f3', 'f4'].sort());
    expect(order.slice(0, 2).sort()).toEqual(['f1', 'f2']);
  });

  it('refuses more passes than scored attempts', () => {
    expect(() => analyzeItems([cell('A', 'f1', 2, 1)])).toThrow(RangeError);
  });
});
