import { isValidOutcome } from '../campaign/attempt-status';
import { compareCodeUnits } from '../canonical-json';
import type { AttemptRow } from './attempt-row';

export interface McNemarResult {
  /** Pairs where the first passed and the second failed. */
  b: number;
  /** Pairs where the first failed and the second passed. */
  c: number;
  /** Two-sided exact p-value: 2 × P(X ≤ min(b, c)) for X ~ Binomial(b + c, 1/2), capped at 1. */
  pValue: number;
}

/**
 * Exact McNemar test on the discordant pairs. Computed in log space because 0.5^(b+c) underflows to 0
 * past about a thousand pairs, which would turn every large comparison into p = 0.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError('b and c are counts');
  const n = b + c;
  if (n === 0) return { b, c, pValue: 1 };
  const k = Math.min(b, c);
  const logHalfN = n * Math.log(0.5);
  const logTerms: number[] = [];
  let logChoose = 0; // log C(n, 0)
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    logTerms.push(logChoose + logHalfN);
  }
  const max = Math.max(...logTerms);
  const tail = Math.exp(max) * logTerms.reduce((sum, t) => sum + Math.exp(t - max), 0);
  return { b, c, pValue: Math.min(1, 2 * tail) };
}

export type FixtureOutcome = 'pass' | 'fail' | 'tie';

export interface FixturePair {
  domain: string;
  fixtureId: string;
  first: FixtureOutcome;
  second: FixtureOutcome;
}

export interface TargetComparison extends McNemarResult {
  bothPassed: number;
  bothFailed: number;
  /** Fixtures both ran but where either side's valid attempts split evenly, so it has no outcome. */
  tiesLeftOut: number;
  /** Fixtures with valid attempts on one side only: not paired. */
  onlyFirst: number;
  onlySecond: number;
  pairs: FixturePair[];
}

function fixtureOutcomes(
  rows: readonly AttemptRow[],
): Map<string, { domain: string; fixtureId: string; outcome: FixtureOutcome }> {
  const tallies = new Map<string, { domain: string; fixtureId: string; pass: number; fail: number }>();
  for (const row of rows) {
    if (!isValidOutcome(row.status)) continue;
    const key = JSON.stringify([row.domain, row.fixtureId]);
    const t = tallies.get(key) ?? { domain: row.domain, fixtureId: row.fixtureId, pass: 0, fail: 0 };
    if (row.status === 'VALID_PASS') t.pass++;
    else t.fail++;
    tallies.set(key, t);
  }
  const outcomes = new Map<string, { domain: string; fixtureId: string; outcome: FixtureOutcome }>();
  for (const [key, t] of tallies) {
    outcomes.set(key, {
      domain: t.domain,
      fixtureId: t.fixtureId,
      outcome: t.pass > t.fail ? 'pass' : t.pass < t.fail ? 'fail' : 'tie',
    });
  }
  return outcomes;
}

/**
 * Compares two targets on the fixtures both ran. One pair per fixture, not per attempt: trials of one
 * fixture are strongly correlated, and counting them as separate pairs would overstate significance.
 * A side's outcome on a fixture is the majority of its valid attempts there; a fixture where either
 * side splits evenly is left out (and counted). With one trial this is the textbook paired test.
 */
export function compareTargets(first: readonly AttemptRow[], second: readonly AttemptRow[]): TargetComparison {
  const a = fixtureOutcomes(first);
  const b = fixtureOutcomes(second);
  const pairs: FixturePair[] = [];
  let onlyFirst = 0;
  for (const [key, left] of a) {
    const right = b.get(key);
    if (!right) {
      onlyFirst++;
      continue;
    }
    pairs.push({ domain: left.domain, fixtureId: left.fixtureId, first: left.outcome, second: right.outcome });
  }
  const onlySecond = [...b.keys()].filter((key) => !a.has(key)).length;
  pairs.sort((x, y) => compareCodeUnits(x.domain, y.domain) || compareCodeUnits(x.fixtureId, y.fixtureId));

  const count = (f: FixtureOutcome, s: FixtureOutcome) => pairs.filter((p) => p.first === f && p.second === s).length;
  const tiesLeftOut = pairs.filter((p) => p.first === 'tie' || p.second === 'tie').length;
  return {
    ...mcnemarExact(count('pass', 'fail'), count('fail', 'pass')),
    bothPassed: count('pass', 'pass'),
    bothFailed: count('fail', 'fail'),
    tiesLeftOut,
    onlyFirst,
    onlySecond,
    pairs,
  };
}
