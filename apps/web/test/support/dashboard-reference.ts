import type { DashboardSeed, SeededAttempt, SeededCampaign } from '@gitbench/test-support';

/**
 * The dashboard's figures computed a second way: plain loops over the attempts a test seeded, written
 * from the methodology's definitions (README, /methodology) and sharing no code with the queries, the
 * stored stats or core's aggregation. The integration test of the query modules and the browser spec
 * of the pages both compare against it.
 */

export interface Filters {
  campaign?: string;
  suite?: string;
  domain?: string;
  difficulty?: string;
  mode?: string;
  legacy?: '1';
  incomplete?: '1';
}

export interface Count {
  passes: number;
  valid: number;
}

const isValid = (a: SeededAttempt) => a.status === 'VALID_PASS' || a.status === 'VALID_FAIL';
const answered = (a: SeededAttempt) => isValid(a) || a.status === 'UNSCORED' || a.status === 'SAFETY_BLOCKED';

export function count(attempts: readonly SeededAttempt[]): Count {
  let passes = 0;
  let valid = 0;
  for (const a of attempts) {
    if (!isValid(a)) continue;
    valid++;
    if (a.status === 'VALID_PASS') passes++;
  }
  return { passes, valid };
}

export function plannedAttempts(c: SeededCampaign): number {
  return c.targets.length * c.fixtures.length * c.trials;
}

/** Complete: every planned attempt written and valid, and the safety review allows it. */
export function isComplete(seed: DashboardSeed, c: SeededCampaign): boolean {
  const mine = seed.attempts.filter((a) => a.campaignId === c.id);
  if (c.safetyReview !== 'not_configured' && c.safetyReview !== 'approved') return false;
  if (mine.length === 0 || mine.length !== plannedAttempts(c)) return false;
  for (const a of mine) if (!isValid(a)) return false;
  return true;
}

/** The campaigns a view includes: legacy and incomplete ones only with their toggles, any chosen one always. */
export function includedCampaigns(seed: DashboardSeed, f: Filters): SeededCampaign[] {
  const out: SeededCampaign[] = [];
  for (const c of seed.campaigns) {
    if (f.campaign && c.id !== f.campaign) continue;
    if (f.suite && f.suite !== 'all' && c.suiteVersion !== f.suite) continue;
    if (!f.campaign && c.legacy && f.legacy !== '1') continue;
    if (!f.campaign && !c.legacy && f.incomplete !== '1' && !isComplete(seed, c)) continue;
    out.push(c);
  }
  return out;
}

/** Attempts of the included campaigns inside the filters' domain, difficulty and output mode. */
export function sliceOf(seed: DashboardSeed, f: Filters): SeededAttempt[] {
  const ids = new Set(includedCampaigns(seed, f).map((c) => c.id));
  return seed.attempts.filter(
    (a) =>
      ids.has(a.campaignId) &&
      (!f.domain || a.domain === f.domain) &&
      (!f.difficulty || a.difficulty === f.difficulty) &&
      (!f.mode || a.outputMode === f.mode),
  );
}

export type SeriesClass = 'stable_pass' | 'stable_fail' | 'flaky' | 'unknown';

export function classOf(passes: number, valid: number): SeriesClass {
  if (valid === 0) return 'unknown';
  if (passes === valid) return 'stable_pass';
  if (passes === 0) return 'stable_fail';
  return 'flaky';
}

/** The attempts of each fixture series (campaign × target × fixture), in trial order. */
export function seriesOf(attempts: readonly SeededAttempt[]): Map<string, SeededAttempt[]> {
  const out = new Map<string, SeededAttempt[]>();
  for (const a of attempts) {
    const key = [a.campaignId, a.modelId, a.outputMode, a.domain, a.fixtureId].join('|');
    const list = out.get(key) ?? [];
    list.push(a);
    out.set(key, list);
  }
  for (const list of out.values()) list.sort((x, y) => x.trial - y.trial);
  return out;
}

export interface Measure {
  value: number | null;
  known: number;
  expected: number;
  partial: boolean;
}

function measure(sum: number, known: number, expected: number, divisor: number): Measure {
  return { value: known === 0 || divisor === 0 ? null : sum / divisor, known, expected, partial: known < expected };
}

export interface TargetReference extends Count {
  modelId: string;
  outputMode: string;
  /**
   * The suite version whose campaigns the row sums; null when the filters pool every suite (`suite=all`) or chose one.
   */
  suiteVersion: string | null;
  attempts: number;
  infra: number;
  unscored: number;
  otherExcluded: number;
  classes: Record<SeriesClass, number>;
  /** pass_any_at_n at the largest n, over the series of current (not legacy) campaigns that have n valid attempts. */
  passAnyLast: { n: number; passes: number; of: number } | null;
  trialRounds: number;
  completeTrials: number;
  perTrial: { costUsd: Measure; tokens: Measure; apiDurationMs: Measure };
  totals: { costUsd: Measure; tokens: Measure; apiDurationMs: Measure };
  costEstimatedPerTrial: boolean;
}

type Resource = 'costUsd' | 'tokens' | 'apiDurationMs';
const RESOURCES: Resource[] = ['costUsd', 'tokens', 'apiDurationMs'];

/**
 * A leaderboard row of each target over the slice, one per suite version unless the filters name a
 * suite (`all` pools them). A trial round is a campaign's attempts of one
 * target and trial number inside the slice; it is complete when all of them are valid. Per complete
 * trial: what complete rounds consumed ÷ their number. Totals: every attempt that called the model
 * (or recorded a value anyway) should carry one.
 */
export function targetRows(seed: DashboardSeed, f: Filters): TargetReference[] {
  const slice = sliceOf(seed, f);
  const legacy = new Set(seed.campaigns.filter((c) => c.legacy).map((c) => c.id));
  const trialsOf = new Map(seed.campaigns.map((c) => [c.id, c.trials]));
  const suiteOf = new Map(seed.campaigns.map((c) => [c.id, c.suiteVersion]));
  const apart = !f.suite;
  const byTarget = new Map<string, SeededAttempt[]>();
  for (const a of slice) {
    const key = `${a.modelId}|${a.outputMode}|${apart ? suiteOf.get(a.campaignId) : ''}`;
    byTarget.set(key, [...(byTarget.get(key) ?? []), a]);
  }
  const rows: TargetReference[] = [];
  for (const list of byTarget.values()) {
    const first = list[0]!;
    const { passes, valid } = count(list);
    const classes: Record<SeriesClass, number> = { stable_pass: 0, stable_fail: 0, flaky: 0, unknown: 0 };
    let maxN = 0;
    const seriesLists = [...seriesOf(list.filter((a) => !legacy.has(a.campaignId))).values()];
    for (const s of seriesLists) {
      const c = count(s);
      classes[classOf(c.passes, c.valid)]++;
      maxN = Math.max(maxN, trialsOf.get(s[0]!.campaignId)!);
    }
    let passAnyLast: TargetReference['passAnyLast'] = null;
    if (maxN > 0) {
      let of = 0;
      let anyPass = 0;
      for (const s of seriesLists) {
        const validOnes = s.filter(isValid);
        if (validOnes.length < maxN) continue;
        of++;
        if (validOnes.slice(0, maxN).some((a) => a.status === 'VALID_PASS')) anyPass++;
      }
      passAnyLast = { n: maxN, passes: anyPass, of };
    }
    const rounds = new Map<string, SeededAttempt[]>();
    for (const a of list) {
      const key = `${a.campaignId}|${a.trial}`;
      rounds.set(key, [...(rounds.get(key) ?? []), a]);
    }
    let completeTrials = 0;
    const inComplete: SeededAttempt[] = [];
    for (const round of rounds.values()) {
      if (round.every(isValid)) {
        completeTrials++;
        inComplete.push(...round);
      }
    }
    const perTrial = {} as TargetReference['perTrial'];
    const totals = {} as TargetReference['totals'];
    for (const r of RESOURCES) {
      let sum = 0;
      let known = 0;
      for (const a of inComplete) {
        if (a[r] === null) continue;
        sum += a[r];
        known++;
      }
      perTrial[r] = measure(sum, known, inComplete.length, completeTrials);
      sum = 0;
      known = 0;
      let expected = 0;
      for (const a of list) {
        if (!answered(a) && a[r] === null) continue;
        expected++;
        if (a[r] === null) continue;
        sum += a[r];
        known++;
      }
      totals[r] = measure(sum, known, expected, 1);
    }
    let infra = 0;
    let unscored = 0;
    for (const a of list) {
      if (a.status === 'INFRA_FAILURE') infra++;
      if (a.status === 'UNSCORED') unscored++;
    }
    rows.push({
      modelId: first.modelId,
      outputMode: first.outputMode,
      suiteVersion: apart ? suiteOf.get(first.campaignId)! : null,
      attempts: list.length,
      passes,
      valid,
      infra,
      unscored,
      otherExcluded: list.length - valid - infra - unscored,
      classes,
      passAnyLast,
      trialRounds: rounds.size,
      completeTrials,
      perTrial,
      totals,
      costEstimatedPerTrial: inComplete.some((a) => a.costUsd !== null && a.costEstimated),
    });
  }
  return rows;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Two-sided exact McNemar p: twice the binomial(b + c, 1/2) tail up to min(b, c), at most 1. */
export function mcnemarP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let tail = 0;
  let choose = 1;
  for (let i = 0; i <= Math.min(b, c); i++) {
    if (i > 0) choose = (choose * (n - i + 1)) / i;
    tail += choose / 2 ** n;
  }
  return Math.min(1, 2 * tail);
}

export type Outcome = 'pass' | 'fail' | 'tie';

export interface CompareReference {
  tallies: Record<string, { a?: { pass: number; fail: number }; b?: { pass: number; fail: number } }>;
  pairs: { fixture: string; a: Outcome; b: Outcome }[];
  b: number;
  c: number;
  bothPassed: number;
  bothFailed: number;
  ties: number;
  onlyA: number;
  onlyB: number;
  pValue: number;
  byDomain: { domain: string; a: Count; b: Count }[];
}

/**
 * Per fixture, each side's outcome is the majority of its valid attempts over the included campaigns
 * (an even split is a tie, left out of the test); the pairs are the fixtures both sides have valid
 * attempts on.
 */
export function compareReference(
  seed: DashboardSeed,
  f: Filters,
  a: { modelId: string; outputMode: string },
  b: { modelId: string; outputMode: string },
): CompareReference {
  const slice = sliceOf(seed, { ...f, mode: undefined });
  const side = (s: typeof a) => slice.filter((x) => x.modelId === s.modelId && x.outputMode === s.outputMode);
  const tally = (list: SeededAttempt[]) => {
    const out = new Map<string, { pass: number; fail: number }>();
    for (const x of list) {
      if (!isValid(x)) continue;
      const key = `${x.domain}/${x.fixtureId}`;
      const t = out.get(key) ?? { pass: 0, fail: 0 };
      if (x.status === 'VALID_PASS') t.pass++;
      else t.fail++;
      out.set(key, t);
    }
    return out;
  };
  const ta = tally(side(a));
  const tb = tally(side(b));
  const outcome = (t: { pass: number; fail: number }): Outcome =>
    t.pass > t.fail ? 'pass' : t.pass < t.fail ? 'fail' : 'tie';
  const tallies: CompareReference['tallies'] = {};
  for (const [k, t] of ta) tallies[k] = { ...tallies[k], a: t };
  for (const [k, t] of tb) tallies[k] = { ...tallies[k], b: t };
  const ref: CompareReference = {
    tallies,
    pairs: [],
    b: 0,
    c: 0,
    bothPassed: 0,
    bothFailed: 0,
    ties: 0,
    onlyA: 0,
    onlyB: 0,
    pValue: 1,
    byDomain: [],
  };
  for (const [k, t] of ta) {
    const u = tb.get(k);
    if (!u) {
      ref.onlyA++;
      continue;
    }
    const pair = { fixture: k, a: outcome(t), b: outcome(u) };
    ref.pairs.push(pair);
    if (pair.a === 'tie' || pair.b === 'tie') ref.ties++;
    else if (pair.a === 'pass' && pair.b === 'fail') ref.b++;
    else if (pair.a === 'fail' && pair.b === 'pass') ref.c++;
    else if (pair.a === 'pass') ref.bothPassed++;
    else ref.bothFailed++;
  }
  for (const k of tb.keys()) if (!ta.has(k)) ref.onlyB++;
  ref.pValue = mcnemarP(ref.b, ref.c);
  const domains = [...new Set([...side(a), ...side(b)].map((x) => x.domain))].sort();
  ref.byDomain = domains.map((domain) => ({
    domain,
    a: count(side(a).filter((x) => x.domain === domain)),
    b: count(side(b).filter((x) => x.domain === domain)),
  }));
  return ref;
}

export interface SliceCellReference extends Count {
  outputMode: string;
  key: string;
  flaky: number;
  classified: number;
}

/**
 * A model's figures by domain or difficulty over the included campaigns that ran it; flaky counts leave legacy series
 * out.
 */
export function modelSlices(
  seed: DashboardSeed,
  modelId: string,
  f: Filters,
  dim: 'domain' | 'difficulty',
): SliceCellReference[] {
  const ids = new Set(includedCampaigns(seed, f).map((c) => c.id));
  const legacy = new Set(seed.campaigns.filter((c) => c.legacy).map((c) => c.id));
  const mine = seed.attempts.filter(
    (a) =>
      a.modelId === modelId &&
      ids.has(a.campaignId) &&
      (!f.mode || a.outputMode === f.mode) &&
      (!f.domain || a.domain === f.domain) &&
      (!f.difficulty || a.difficulty === f.difficulty),
  );
  const cells = new Map<string, SliceCellReference>();
  for (const a of mine) {
    const key = `${a.outputMode}|${a[dim]}`;
    if (!cells.has(key)) {
      const inCell = mine.filter((x) => x.outputMode === a.outputMode && x[dim] === a[dim]);
      const current = [...seriesOf(inCell.filter((x) => !legacy.has(x.campaignId))).values()];
      let flaky = 0;
      for (const s of current) {
        const c = count(s);
        if (classOf(c.passes, c.valid) === 'flaky') flaky++;
      }
      cells.set(key, { outputMode: a.outputMode, key: a[dim], ...count(inCell), flaky, classified: current.length });
    }
  }
  return [...cells.values()];
}

/** A model's mean success in every campaign that ran it, per output mode, oldest first: filters do not apply. */
export function modelOverTime(seed: DashboardSeed, modelId: string) {
  const out: { campaignId: string; outputMode: string; passes: number; valid: number }[] = [];
  const sorted = [...seed.campaigns].sort((x, y) => x.createdAt.localeCompare(y.createdAt));
  for (const c of sorted) {
    for (const mode of ['agent', 'json_schema', 'text']) {
      const list = seed.attempts.filter((a) => a.campaignId === c.id && a.modelId === modelId && a.outputMode === mode);
      if (list.length > 0) out.push({ campaignId: c.id, outputMode: mode, ...count(list) });
    }
  }
  return out;
}

export interface FixtureSeriesReference extends Count {
  campaignId: string;
  modelId: string;
  outputMode: string;
  /** Null for a legacy campaign: one trial shows no stability. */
  class: SeriesClass | null;
  partial: boolean;
  passAny: (boolean | null)[] | null;
  trials: { trial: number; status: string }[];
}

/** Every series of one fixture in the given campaigns (newest campaign first). */
export function fixtureSeries(
  seed: DashboardSeed,
  domain: string,
  fixtureId: string,
  campaigns: readonly SeededCampaign[],
): FixtureSeriesReference[] {
  const out: FixtureSeriesReference[] = [];
  for (const c of campaigns) {
    const list = seed.attempts.filter((a) => a.campaignId === c.id && a.domain === domain && a.fixtureId === fixtureId);
    for (const s of seriesOf(list).values()) {
      const { passes, valid } = count(s);
      const outcomes = s.filter(isValid).map((a) => a.status === 'VALID_PASS');
      const passAny: (boolean | null)[] = [];
      for (let n = 1; n <= c.trials; n++) passAny.push(outcomes.length < n ? null : outcomes.slice(0, n).some(Boolean));
      out.push({
        campaignId: c.id,
        modelId: s[0]!.modelId,
        outputMode: s[0]!.outputMode,
        passes,
        valid,
        class: c.legacy ? null : classOf(passes, valid),
        partial: valid < c.trials,
        passAny: c.legacy ? null : passAny,
        trials: s.map((a) => ({ trial: a.trial, status: a.status })),
      });
    }
  }
  return out;
}

/** Campaigns that ran a fixture, newest first. */
export function campaignsWithFixture(seed: DashboardSeed, domain: string, fixtureId: string): SeededCampaign[] {
  return seed.campaigns
    .filter((c) => c.fixtures.some((x) => x.domain === domain && x.fixtureId === fixtureId))
    .sort((x, y) => y.createdAt.localeCompare(x.createdAt));
}

/** A model's fixture table in one campaign: one row per fixture and output mode. */
export function modelFixtureRows(seed: DashboardSeed, modelId: string, c: SeededCampaign) {
  const list = seed.attempts.filter((a) => a.campaignId === c.id && a.modelId === modelId);
  return [...seriesOf(list).values()].map((s) => {
    const { passes, valid } = count(s);
    return {
      fixture: `${s[0]!.domain}/${s[0]!.fixtureId}`,
      outputMode: s[0]!.outputMode,
      passes,
      valid,
      class: c.legacy ? null : classOf(passes, valid),
      trials: s.map((a) => ({ trial: a.trial, status: a.status })),
    };
  });
}

/** Lower bound of the Wilson score interval at 95% (z = 1.96), from its textbook formula. */
export function wilsonLow(passes: number, valid: number): number | null {
  if (valid === 0) return null;
  const z = 1.959963984540054;
  const p = passes / valid;
  const low =
    (p + (z * z) / (2 * valid) - z * Math.sqrt((p * (1 - p)) / valid + (z * z) / (4 * valid * valid))) /
    (1 + (z * z) / valid);
  return passes === 0 ? 0 : Math.max(0, low);
}

/**
 * The leaderboard's order within one suite version: the lower bound of the Wilson interval, highest
 * first; then the mean, then more valid attempts, then model id and output mode.
 */
export function rankOrder(rows: readonly TargetReference[]): TargetReference[] {
  const bound = (r: TargetReference) => wilsonLow(r.passes, r.valid) ?? -1;
  const mean = (r: TargetReference) => (r.valid === 0 ? -1 : r.passes / r.valid);
  return [...rows].sort(
    (a, b) =>
      bound(b) - bound(a) ||
      mean(b) - mean(a) ||
      b.valid - a.valid ||
      (a.modelId < b.modelId ? -1 : a.modelId > b.modelId ? 1 : 0) ||
      (a.outputMode < b.outputMode ? -1 : 1),
  );
}

/**
 * The suite a one-suite view (quadrant, model page) is over: the chosen one, else the newest included
 * current campaign's, else the newest legacy one's (of those `among` keeps); `all` pools every suite.
 */
export function suiteOfView(
  seed: DashboardSeed,
  f: Filters,
  among: (c: SeededCampaign) => boolean = () => true,
): string {
  if (f.suite) return f.suite;
  const byAge = [...includedCampaigns(seed, f)].filter(among).sort((x, y) => y.createdAt.localeCompare(x.createdAt));
  return (byAge.find((c) => !c.legacy) ?? byAge[0])?.suiteVersion ?? 'all';
}
