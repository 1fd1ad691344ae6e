import type { DashboardSeed, SeededAttempt } from '@gitbench/test-support';

// Item analysis computed again with plain loops over the seeded attempts, written from the definitions
// (pass rate over scored attempts, rest-score point-biserial, flags) without core's code.

export interface ItemReference {
  domain: string;
  fixtureId: string;
  targets: number;
  targetsPassing: number;
  passes: number;
  scored: number;
  discrimination: number | null;
  saturated: boolean;
  unsolved: boolean;
  flaky: boolean;
}

const scoredOf = (a: SeededAttempt) => a.status === 'VALID_PASS' || a.status === 'VALID_FAIL';

export function itemReference(
  seed: DashboardSeed,
  campaignIds: readonly string[],
  leftOut: (a: SeededAttempt) => boolean = () => false,
): ItemReference[] {
  const attempts = seed.attempts.filter((a) => campaignIds.includes(a.campaignId) && scoredOf(a) && !leftOut(a));
  const targetOf = (a: SeededAttempt) => `${a.modelId}|${a.effort}|${a.outputMode}`;
  const fixtureOf = (a: SeededAttempt) => `${a.domain}|${a.fixtureId}`;
  // fraction[target][fixture] = passes / scored
  const fraction = new Map<string, Map<string, number>>();
  for (const t of new Set(attempts.map(targetOf))) {
    const mine = attempts.filter((a) => targetOf(a) === t);
    const row = new Map<string, number>();
    for (const f of new Set(mine.map(fixtureOf))) {
      const of = mine.filter((a) => fixtureOf(a) === f);
      row.set(f, of.filter((a) => a.status === 'VALID_PASS').length / of.length);
    }
    fraction.set(t, row);
  }
  const out: ItemReference[] = [];
  for (const f of new Set(attempts.map(fixtureOf))) {
    const of = attempts.filter((a) => fixtureOf(a) === f);
    const targets = [...fraction.entries()].filter(([, row]) => row.has(f));
    const pairs: [number, number][] = [];
    for (const [, row] of targets) {
      const others = [...row.entries()].filter(([g]) => g !== f).map(([, v]) => v);
      if (others.length === 0) continue;
      pairs.push([row.get(f)!, others.reduce((s, v) => s + v, 0) / others.length]);
    }
    const passes = of.filter((a) => a.status === 'VALID_PASS').length;
    out.push({
      domain: of[0]!.domain,
      fixtureId: of[0]!.fixtureId,
      targets: targets.length,
      targetsPassing: targets.filter(([, row]) => row.get(f)! > 0).length,
      passes,
      scored: of.length,
      discrimination: correlation(pairs),
      saturated: passes === of.length,
      unsolved: passes === 0,
      flaky: targets.some(([, row]) => row.get(f)! > 0 && row.get(f)! < 1),
    });
  }
  return out;
}

function correlation(pairs: readonly [number, number][]): number | null {
  const n = pairs.length;
  if (n < 2) return null;
  const mean = (k: 0 | 1) => pairs.reduce((s, p) => s + p[k], 0) / n;
  const [mx, my] = [mean(0), mean(1)];
  const cov = pairs.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sx = Math.sqrt(pairs.reduce((s, [x]) => s + (x - mx) ** 2, 0));
  const sy = Math.sqrt(pairs.reduce((s, [, y]) => s + (y - my) ** 2, 0));
  if (sx < 1e-9 || sy < 1e-9) return null;
  return cov / (sx * sy);
}
