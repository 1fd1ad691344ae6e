import {
  buildSeries,
  classifySeries,
  isValidOutcome,
  seriesPassAnyAtN,
  type AttemptRow,
  type AttemptStatus,
  type CampaignFactsById,
} from '@gitbench/core/figures';
import type { OutputMode, Prisma } from '../generated/prisma/client';

// The CampaignStats rows of a refresh, built in memory from the rows SQL grouped.

/** One fixture series as SQL groups it: statuses in trial order, for classification and pass_any_at_n. */
export interface SeriesRow {
  targetId: string;
  modelId: string;
  reasoningEffort: string | null;
  outputMode: OutputMode;
  agent: string | null;
  domain: string;
  fixtureId: string;
  difficulty: string;
  statuses: AttemptStatus[];
  trials: number[];
}

/** One trial round of one (target, domain, difficulty): what its attempts consumed and how many were valid. */
export interface RoundRow {
  targetId: string;
  domain: string;
  difficulty: string;
  trial: number;
  attempts: number;
  valid: number;
  inputTokens: bigint;
  outputTokens: bigint;
  reasoningTokens: bigint;
  tokens: bigint | null;
  tokensKnown: number;
  tokensExpected: number;
  costUsd: number | null;
  costKnown: number;
  costEstimated: number;
  costExpected: number;
  apiMs: bigint | null;
  apiKnown: number;
  apiExpected: number;
}

export function emptyRow(
  campaignId: string,
  s: SeriesRow,
  passAnyLength: number,
  trials: number,
): Prisma.CampaignStatsCreateManyInput {
  const zeros = () => new Array<number>(trials).fill(0);
  const bigZeros = () => new Array<bigint>(trials).fill(0n);
  return {
    campaignId,
    targetId: s.targetId,
    domain: s.domain,
    difficulty: s.difficulty,
    modelId: s.modelId,
    reasoningEffort: s.reasoningEffort,
    outputMode: s.outputMode,
    agent: s.agent,
    attempts: 0,
    valid: 0,
    passes: 0,
    infraFailures: 0,
    unscored: 0,
    otherExcluded: 0,
    fixtures: 0,
    stablePass: 0,
    stableFail: 0,
    flaky: 0,
    unknown: 0,
    passAnyNum: new Array<number>(passAnyLength).fill(0),
    passAnyDen: new Array<number>(passAnyLength).fill(0),
    inputTokens: 0n,
    outputTokens: 0n,
    reasoningTokens: 0n,
    totalTokens: 0n,
    costUsd: 0,
    costKnown: 0,
    costEstimated: 0,
    costExpected: 0,
    tokensKnown: 0,
    tokensExpected: 0,
    apiDurationMs: 0n,
    apiKnown: 0,
    apiExpected: 0,
    trialAttempts: zeros(),
    trialValid: zeros(),
    trialCostUsd: zeros(),
    trialCostKnown: zeros(),
    trialCostEstimated: zeros(),
    trialTokens: bigZeros(),
    trialTokensKnown: zeros(),
    trialApiMs: bigZeros(),
    trialApiKnown: zeros(),
  };
}

/** Numbers the row holds as plain counts; the casts below only undo Prisma's wide input types. */
type Counts = Record<
  | 'attempts'
  | 'valid'
  | 'passes'
  | 'infraFailures'
  | 'unscored'
  | 'otherExcluded'
  | 'fixtures'
  | 'stablePass'
  | 'stableFail'
  | 'flaky'
  | 'unknown'
  | 'costKnown'
  | 'costEstimated'
  | 'costExpected'
  | 'tokensKnown'
  | 'tokensExpected'
  | 'apiKnown'
  | 'apiExpected',
  number
>;

export function addSeries(
  g: Prisma.CampaignStatsCreateManyInput,
  s: SeriesRow,
  facts: CampaignFactsById,
  campaignId: string,
) {
  const c = g as unknown as Counts;
  const rows: AttemptRow[] = s.statuses.map((status, i) => ({
    campaignId,
    modelId: s.modelId,
    effort: s.reasoningEffort,
    outputMode: s.outputMode,
    domain: s.domain,
    fixtureId: s.fixtureId,
    difficulty: s.difficulty,
    trial: s.trials[i]!,
    status,
    tokens: null,
    costUsd: null,
    costEstimated: false,
    apiDurationMs: null,
  }));
  c.attempts += rows.length;
  for (const row of rows) {
    if (isValidOutcome(row.status)) {
      c.valid++;
      if (row.status === 'VALID_PASS') c.passes++;
    } else if (row.status === 'INFRA_FAILURE') c.infraFailures++;
    else if (row.status === 'UNSCORED') c.unscored++;
    else c.otherExcluded++;
  }
  c.fixtures++;

  const [fixtureSeries] = buildSeries(rows, facts);
  if (fixtureSeries) {
    const cls = classifySeries(fixtureSeries);
    if (cls.applicable) {
      const field = (
        { stable_pass: 'stablePass', stable_fail: 'stableFail', flaky: 'flaky', unknown: 'unknown' } as const
      )[cls.class];
      c[field]++;
    }
    const flags = seriesPassAnyAtN(fixtureSeries);
    if (Array.isArray(flags)) {
      const num = g.passAnyNum as number[];
      const den = g.passAnyDen as number[];
      flags.forEach((flag, i) => {
        if (flag === null) return;
        den[i] = (den[i] ?? 0) + 1;
        if (flag) num[i] = (num[i] ?? 0) + 1;
      });
    }
  }
}

type NumberArrays =
  | 'trialAttempts'
  | 'trialValid'
  | 'trialCostUsd'
  | 'trialCostKnown'
  | 'trialCostEstimated'
  | 'trialTokensKnown'
  | 'trialApiKnown';
type BigIntArrays = 'trialTokens' | 'trialApiMs';

/** Adds one trial round to its row: into the per-trial arrays at index trial - 1, and into the totals. */
export function addRound(g: Prisma.CampaignStatsCreateManyInput, r: RoundRow) {
  const c = g as unknown as Counts;
  const i = r.trial - 1;
  // Arrays are sized by the campaign's trials; a trial number beyond them (never planned) still counts.
  const add = (column: NumberArrays, value: number) => {
    const list = g[column] as number[];
    while (list.length <= i) list.push(0);
    list[i]! += value;
  };
  const addBig = (column: BigIntArrays, value: bigint) => {
    const list = g[column] as bigint[];
    while (list.length <= i) list.push(0n);
    list[i]! += value;
  };
  add('trialAttempts', r.attempts);
  add('trialValid', r.valid);
  add('trialCostUsd', r.costUsd ?? 0);
  add('trialCostKnown', r.costKnown);
  add('trialCostEstimated', r.costEstimated);
  addBig('trialTokens', BigInt(r.tokens ?? 0));
  add('trialTokensKnown', r.tokensKnown);
  addBig('trialApiMs', BigInt(r.apiMs ?? 0));
  add('trialApiKnown', r.apiKnown);

  g.inputTokens = (g.inputTokens as bigint) + BigInt(r.inputTokens);
  g.outputTokens = (g.outputTokens as bigint) + BigInt(r.outputTokens);
  g.reasoningTokens = (g.reasoningTokens as bigint) + BigInt(r.reasoningTokens);
  g.totalTokens = (g.totalTokens as bigint) + BigInt(r.tokens ?? 0);
  g.apiDurationMs = (g.apiDurationMs as bigint) + BigInt(r.apiMs ?? 0);
  g.costUsd = (g.costUsd as number) + (r.costUsd ?? 0);
  c.costKnown += r.costKnown;
  c.costEstimated += r.costEstimated;
  c.costExpected += r.costExpected;
  c.tokensKnown += r.tokensKnown;
  c.tokensExpected += r.tokensExpected;
  c.apiKnown += r.apiKnown;
  c.apiExpected += r.apiExpected;
}

/** Fields that identify a stats row rather than count something. */
const KEY_FIELDS = new Set([
  'campaignId',
  'targetId',
  'domain',
  'difficulty',
  'modelId',
  'reasoningEffort',
  'outputMode',
  'agent',
  'refreshedAt',
]);

/**
 * One row per target: every count, sum and per-trial or per-n array of its (domain, difficulty) rows
 * added up, element by element for arrays. Everything in a stats row is additive over disjoint sets of
 * fixture series, so the roll-up means exactly what the rows mean over the union.
 */
export function rollUpByTarget(
  rows: readonly Prisma.CampaignStatsCreateManyInput[],
): Prisma.CampaignTargetStatsCreateManyInput[] {
  const byTarget = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const { domain: _domain, difficulty: _difficulty, ...rest } = row;
    const sum = byTarget.get(row.targetId);
    if (!sum) {
      byTarget.set(row.targetId, structuredClone(rest) as Record<string, unknown>);
      continue;
    }
    for (const [field, value] of Object.entries(rest)) {
      if (KEY_FIELDS.has(field)) continue;
      sum[field] = add(sum[field], value);
    }
  }
  return [...byTarget.values()] as unknown as Prisma.CampaignTargetStatsCreateManyInput[];
}

function add(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) {
    const zero = typeof (a[0] ?? b[0]) === 'bigint' ? 0n : 0;
    return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => add(a[i] ?? zero, b[i] ?? zero));
  }
  if (typeof a === 'bigint' || typeof b === 'bigint') return BigInt(a as bigint) + BigInt(b as bigint);
  return (a as number) + (b as number);
}
