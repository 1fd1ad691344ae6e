/**
 * Deliberately plain re-implementations of the aggregation definitions, written from the methodology
 * text rather than from the production code: filters over the whole row set, no maps, no shared helpers.
 * The property tests check that the production code agrees with them on random attempt sets.
 */
import type { AttemptRow, CampaignFactsById, GroupDimension } from '../../src/aggregation';

const isValid = (r: AttemptRow) => r.status === 'VALID_PASS' || r.status === 'VALID_FAIL';
const answered = (r: AttemptRow) => isValid(r) || r.status === 'UNSCORED' || r.status === 'SAFETY_BLOCKED';

function unique<T>(items: T[]): T[] {
  const out: T[] = [];
  for (const item of items) if (!out.includes(item)) out.push(item);
  return out;
}

export function naiveGroupId(r: AttemptRow, by: readonly GroupDimension[]): string {
  const parts: string[] = [];
  if (by.includes('campaign')) parts.push(`c=${r.campaignId}`);
  if (by.includes('target')) parts.push(`t=${r.modelId}|${r.effort ?? '∅'}|${r.outputMode}`);
  if (by.includes('domain') || by.includes('fixture')) parts.push(`d=${r.domain}`);
  if (by.includes('difficulty')) parts.push(`x=${r.difficulty}`);
  if (by.includes('fixture')) parts.push(`f=${r.fixtureId}`);
  return parts.join(';');
}

export function naiveWilson(k: number, n: number): { low: number; high: number } | null {
  if (n === 0) return null;
  const z = 1.959963984540054;
  const p = k / n;
  const mid = (k + (z * z) / 2) / (n + z * z);
  const spread = ((z * Math.sqrt(n)) / (n + z * z)) * Math.sqrt(p * (1 - p) + (z * z) / (4 * n));
  return { low: Math.max(0, mid - spread), high: Math.min(1, mid + spread) };
}

export interface NaiveGroup {
  attempts: number;
  passing: number;
  valid: number;
  classes:
    | { stable_pass: number; stable_fail: number; flaky: number; unknown: number; partial: number; legacy: number }
    | 'n/a';
  passAny: { n: number; num: number; den: number }[] | 'n/a';
  completeTrials: number;
  rounds: number;
  perTrialCost: number | null;
  perTrialTokens: number | null;
  perTrialApi: number | null;
  totalCost: number | null;
  totalTokens: number | null;
  totalApi: number | null;
  partialPricing: boolean;
}

type Measure = 'costUsd' | 'tokens' | 'apiDurationMs';

export function naiveGroup(rows: AttemptRow[], campaigns: CampaignFactsById): NaiveGroup {
  const passing = rows.filter((r) => r.status === 'VALID_PASS').length;
  const valid = rows.filter(isValid).length;

  const seriesIds = unique(
    rows.map((r) => [r.campaignId, r.modelId, r.effort, r.outputMode, r.domain, r.fixtureId].join('\u0001')),
  );
  const series = seriesIds.map((id) => {
    const members = rows.filter(
      (r) => [r.campaignId, r.modelId, r.effort, r.outputMode, r.domain, r.fixtureId].join('\u0001') === id,
    );
    const facts = campaigns[members[0]!.campaignId]!;
    const outcomes = members
      .filter(isValid)
      .sort((a, b) => a.trial - b.trial)
      .map((r) => r.status === 'VALID_PASS');
    return { legacy: facts.legacy, planned: facts.trials, outcomes };
  });
  const current = series.filter((s) => !s.legacy);
  const allLegacy = series.length > 0 && current.length === 0;

  const classes = allLegacy
    ? ('n/a' as const)
    : {
        stable_pass: current.filter((s) => s.outcomes.length > 0 && s.outcomes.every((o) => o)).length,
        stable_fail: current.filter((s) => s.outcomes.length > 0 && s.outcomes.every((o) => !o)).length,
        flaky: current.filter((s) => s.outcomes.includes(true) && s.outcomes.includes(false)).length,
        unknown: current.filter((s) => s.outcomes.length === 0).length,
        partial: current.filter((s) => s.outcomes.length < s.planned).length,
        legacy: series.length - current.length,
      };

  let passAny: NaiveGroup['passAny'] = 'n/a';
  if (!allLegacy) {
    passAny = [];
    const maxN = Math.max(0, ...current.map((s) => s.planned));
    for (let n = 1; n <= maxN; n++) {
      const eligible = current.filter((s) => s.outcomes.length >= n);
      passAny.push({
        n,
        den: eligible.length,
        num: eligible.filter((s) => s.outcomes.slice(0, n).some((o) => o)).length,
      });
    }
  }

  const roundIds = unique(rows.map((r) => `${r.campaignId}/${r.modelId}/${r.effort}/${r.outputMode}/${r.trial}`));
  const inRound = (id: string) =>
    rows.filter((r) => `${r.campaignId}/${r.modelId}/${r.effort}/${r.outputMode}/${r.trial}` === id);
  const completeIds = roundIds.filter((id) => inRound(id).every(isValid));
  const completeRows = completeIds.flatMap(inRound);

  const knownSum = (set: AttemptRow[], m: Measure) => {
    const known = set.filter((r) => r[m] !== null);
    return known.length === 0 ? null : known.reduce((s, r) => s + r[m]!, 0);
  };
  const perTrial = (m: Measure) => {
    const sum = knownSum(completeRows, m);
    return sum === null || completeIds.length === 0 ? null : sum / completeIds.length;
  };
  const partialPricing =
    completeRows.some((r) => r.costUsd === null) || rows.some((r) => answered(r) && r.costUsd === null);

  return {
    attempts: rows.length,
    passing,
    valid,
    classes,
    passAny,
    completeTrials: completeIds.length,
    rounds: roundIds.length,
    perTrialCost: perTrial('costUsd'),
    perTrialTokens: perTrial('tokens'),
    perTrialApi: perTrial('apiDurationMs'),
    totalCost: knownSum(rows, 'costUsd'),
    totalTokens: knownSum(rows, 'tokens'),
    totalApi: knownSum(rows, 'apiDurationMs'),
    partialPricing,
  };
}

/** McNemar's exact p-value by direct summation (fine for small n). */
export function naiveMcNemarP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let tail = 0;
  for (let i = 0; i <= Math.min(b, c); i++) {
    let choose = 1;
    for (let j = 1; j <= i; j++) choose = (choose * (n - i + j)) / j;
    tail += choose / 2 ** n;
  }
  return Math.min(1, 2 * tail);
}
