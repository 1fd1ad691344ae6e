import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sequenceRatio } from '../../src/scoring/difflib';

interface Vector {
  a: string;
  b: string;
  ratio: number;
}

const here = fileURLToPath(new URL('.', import.meta.url));
const vectors = JSON.parse(readFileSync(`${here}difflib-vectors.json`, 'utf8')) as Vector[];

describe('sequenceRatio equals Python difflib', () => {
  it(`matches ${vectors.length} committed vectors to 1e-12`, () => {
    expect(vectors.length).toBeGreaterThan(300);
    const off = vectors.filter((v) => Math.abs(sequenceRatio(v.a, v.b) - v.ratio) > 1e-12);
    expect(
      off.map((v) => ({ a: v.a.slice(0, 40), b: v.b.slice(0, 40), want: v.ratio, got: sequenceRatio(v.a, v.b) })),
    ).toEqual([]);
  });

  it('applies autojunk: popular elements of a long b are not indexed', () => {
    // Without autojunk this pair scores higher; Python gives the lower value.
    const a = `x${'e'.repeat(5)}${'y'.repeat(3)}`;
    const b = `${'e'.repeat(3)}z`.repeat(60);
    const want = vectors.find((v) => v.a === a && v.b === b);
    expect(want).toBeDefined();
    expect(sequenceRatio(a, b)).toBe(want?.ratio);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(sequenceRatio('😀', '😀')).toBe(1);
    expect(sequenceRatio('😀a', 'a')).toBeCloseTo(2 / 3, 15);
  });

  // Without python3 this test fails (its first expectation says why); it never skips.
  it('matches live python3 on fresh random pairs', () => {
    expect(
      spawnSync('/usr/bin/python3', ['--version']).status,
      '/usr/bin/python3 is needed to compare with Python',
    ).toBe(0);
    const alphabet = ['a', 'b', 'c', ' ', '-', 'é', '😀', '\n', 'e', 'e', 'e'];
    const pick = (n: number) =>
      Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
    const pairs = Array.from({ length: 60 }, () => [
      pick(Math.floor(Math.random() * 320)),
      pick(Math.floor(Math.random() * 320)),
    ]);
    const script =
      'import sys,json,difflib\nprint(json.dumps([difflib.SequenceMatcher(None,a,b).ratio() ' +
      'for a,b in json.load(sys.stdin)]))';
    const run = spawnSync('/usr/bin/python3', ['-c', script], {
      input: JSON.stringify(pairs),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(0);
    const want = JSON.parse(run.stdout) as number[];
    pairs.forEach(([a, b], i) =>
      expect(Math.abs(sequenceRatio(a as string, b as string) - (want[i] as number))).toBeLessThanOrEqual(1e-12),
    );
  });
});
