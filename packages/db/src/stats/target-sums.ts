import {
  targetFigures,
  type Mode,
  type PassAnyCell,
  type TargetFigures,
  type TargetSums,
} from '@gitbench/core/figures';
import { sqlRows, type SqlSource } from '../pool';
import { empty, join, raw, sql, type Sql } from '../sql';

/** Which rows of the stored stats a sum covers: all of a campaign's, or one domain's, difficulty's or output mode's. */
export interface StatsSlice {
  domain?: string | undefined;
  difficulty?: string | undefined;
  mode?: Mode | undefined;
}

/** A campaign whose stats are summed: its trial count bounds the per-trial arrays, and legacy imports rank apart. */
export interface SummedCampaign {
  id: string;
  trials: number;
  legacy: boolean;
}

/** SQL sums come back as bigint or Decimal depending on type; figures are plain numbers. */
export function sqlNumber(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return Number(String(v));
}

/**
 * Without a domain or difficulty filter the per-target roll-up has every figure, in about a fiftieth
 * of the rows; a filter needs the (domain, difficulty) rows. Both tables have the same columns.
 */
function statsTable(f: StatsSlice): Sql {
  return f.domain || f.difficulty ? raw('"CampaignStats"') : raw('"CampaignTargetStats"');
}

/** Slice filters apply to CampaignStats rows directly. */
export function sliceWhere(f: StatsSlice): Sql {
  const parts: Sql[] = [];
  if (f.domain) parts.push(sql`s."domain" = ${f.domain}`);
  if (f.difficulty) parts.push(sql`s."difficulty" = ${f.difficulty}`);
  if (f.mode) parts.push(sql`s."outputMode" = ${f.mode}::"OutputMode"`);
  return parts.length ? sql`AND ${join(parts, ' AND ')}` : empty;
}

/** Per-trial arrays of CampaignStats, each summed element-wise into `<column>_<n>`. */
const TRIAL_ARRAYS = {
  trialAttempts: 'attempts',
  trialValid: 'valid',
  trialCostUsd: 'costUsd',
  trialCostKnown: 'costKnown',
  trialCostEstimated: 'costEstimated',
  trialTokens: 'tokens',
  trialTokensKnown: 'tokensKnown',
  trialApiMs: 'apiMs',
  trialApiKnown: 'apiKnown',
} as const;
/** What complete rounds consumed, added up: `round_<name>`. */
const ROUND_SUMS = [
  'attempts',
  'costUsd',
  'costKnown',
  'costEstimated',
  'tokens',
  'tokensKnown',
  'apiMs',
  'apiKnown',
] as const;

const list = (parts: Sql[]) => (parts.length === 0 ? empty : sql`, ${join(parts, ', ')}`);

/**
 * Inner level, per campaign and target: element-wise sums of the per-trial arrays over the slice's
 * rows (one column per trial number, like pass_any, so no row is unnested). Fold level: a round n is
 * complete when its attempts are all valid (valid_n = attempts_n > 0); what complete rounds consumed
 * is added up into scalars. The outer query then sums those per target.
 */
function trialSql(ns: number[]) {
  const inner = ns.flatMap((n) =>
    Object.entries(TRIAL_ARRAYS).map(([col, name]) => raw(`sum(s."${col}"[${n}]) AS "t_${name}_${n}"`)),
  );
  const complete = (n: number) => `("t_attempts_${n}" > 0 AND "t_valid_${n}" = "t_attempts_${n}")`;
  const fold = (expr: (n: number) => string) => (ns.length === 0 ? '0' : ns.map(expr).join(' + '));
  const folded = [
    raw(`${fold((n) => `CASE WHEN "t_attempts_${n}" > 0 THEN 1 ELSE 0 END`)} AS "trialRounds"`),
    raw(`${fold((n) => `CASE WHEN ${complete(n)} THEN 1 ELSE 0 END`)} AS "completeTrials"`),
    ...ROUND_SUMS.map((name) =>
      raw(
        `${fold((n) => `CASE WHEN ${complete(n)} THEN coalesce("t_${name}_${n}", 0) ELSE 0 END`)} AS "round_${name}"`,
      ),
    ),
  ];
  return { inner: list(inner), folded: list(folded) };
}

/** Sums over every campaign, and over those that are not legacy imports (which have no series). */
const ADDITIVE = ['attempts', 'valid', 'passes', 'infraFailures', 'unscored', 'otherExcluded'] as const;
const CURRENT_ONLY = {
  fixtures: 'classified',
  stablePass: 'stablePass',
  stableFail: 'stableFail',
  flaky: 'flaky',
  unknown: 'unknown',
} as const;
const RESOURCES = [
  'costUsd',
  'costKnown',
  'costExpected',
  'costEstimated',
  'totalTokens',
  'tokensKnown',
  'tokensExpected',
  'apiDurationMs',
  'apiKnown',
  'apiExpected',
];

type SumRow = Record<string, unknown> & {
  modelId: string;
  reasoningEffort: string | null;
  outputMode: Mode;
  agent: string | null;
};

/**
 * Sums the maintained CampaignStats rows of the given campaigns per target, in one statement: the
 * additive counts, pass_any_at_n as element-wise sums of the per-n arrays, and the resources both
 * per complete trial and in total.
 */
export async function sumTargets(
  db: SqlSource,
  campaigns: readonly SummedCampaign[],
  slice: StatsSlice,
  extraWhere: Sql = empty,
): Promise<{ sums: TargetSums[]; passAny: PassAnyCell[] }> {
  if (campaigns.length === 0) return { sums: [], passAny: [] };
  const ids = campaigns.map((c) => c.id);
  const range = (max: number) => Array.from({ length: max }, (_, i) => i + 1);
  const passAnyNs = range(Math.max(0, ...campaigns.filter((c) => !c.legacy).map((c) => c.trials)));
  const trials = trialSql(range(Math.max(0, ...campaigns.map((c) => c.trials))));
  const passAnyInner = passAnyNs.flatMap((n) =>
    ['passAnyNum', 'passAnyDen'].map((col) => raw(`sum(s."${col}"[${n}]) AS "${col}_${n}"`)),
  );
  const passAnyOuter = passAnyNs.flatMap((n) =>
    ['passAnyNum', 'passAnyDen'].map((col) =>
      raw(`coalesce(sum("${col}_${n}") FILTER (WHERE NOT "legacy"), 0) AS "${col}_${n}"`),
    ),
  );
  const perCampaign = [...ADDITIVE, ...Object.keys(CURRENT_ONLY), ...RESOURCES].map((col) =>
    raw(`sum(s."${col}") AS "${col}"`),
  );
  const perTarget = [
    ...[...ADDITIVE, ...RESOURCES].map((col) => raw(`sum("${col}") AS "${col}"`)),
    ...Object.entries(CURRENT_ONLY).map(([col, as]) =>
      raw(`coalesce(sum("${col}") FILTER (WHERE NOT "legacy"), 0) AS "${as}"`),
    ),
    ...['trialRounds', 'completeTrials', ...ROUND_SUMS.map((name) => `round_${name}`)].map((col) =>
      raw(`sum("${col}") AS "${col}"`),
    ),
  ];
  const rows = await sqlRows<SumRow>(
    db,
    sql`
    WITH per_campaign AS (
      SELECT s."campaignId", s."modelId", s."reasoningEffort", s."outputMode", s."agent", c."legacy", c."trials"
             ${list(perCampaign)} ${list(passAnyInner)} ${trials.inner}
        FROM ${statsTable(slice)} s JOIN "Campaign" c ON c."id" = s."campaignId"
       WHERE s."campaignId" = ANY(${ids}::text[]) ${sliceWhere(slice)} ${extraWhere}
       GROUP BY 1, 2, 3, 4, 5, 6, 7),
    rounds AS (SELECT per_campaign.* ${trials.folded} FROM per_campaign)
    SELECT "modelId", "reasoningEffort", "outputMode"::text AS "outputMode", "agent", count(*) AS "campaigns",
           bool_or(NOT "legacy") AS "anyCurrent", bool_or("legacy") AS "anyLegacy", bool_and("legacy") AS "allLegacy",
             max("trials") AS "maxTrials"
           ${list(perTarget)} ${list(passAnyOuter)}
      FROM rounds GROUP BY 1, 2, 3, 4`,
  );
  const passAny: PassAnyCell[] = [];
  for (const r of rows) {
    if (r.anyCurrent !== true) continue;
    for (const n of passAnyNs)
      passAny.push({
        modelId: r.modelId,
        outputMode: r.outputMode,
        agent: r.agent,
        n,
        num: sqlNumber(r[`passAnyNum_${n}`]),
        den: sqlNumber(r[`passAnyDen_${n}`]),
      });
  }
  return { sums: rows.map(sumsOf), passAny };
}

function sumsOf(r: SumRow): TargetSums {
  const n = (k: string) => sqlNumber(r[k]);
  return {
    modelId: r.modelId,
    effort: r.reasoningEffort,
    outputMode: r.outputMode,
    agent: r.agent,
    campaigns: n('campaigns'),
    attempts: n('attempts'),
    valid: n('valid'),
    passes: n('passes'),
    infraFailures: n('infraFailures'),
    unscored: n('unscored'),
    otherExcluded: n('otherExcluded'),
    classified: n('classified'),
    stablePass: n('stablePass'),
    stableFail: n('stableFail'),
    flaky: n('flaky'),
    unknown: n('unknown'),
    anyCurrent: r.anyCurrent === true,
    anyLegacy: r.anyLegacy === true,
    allLegacy: r.allLegacy === true,
    maxTrials: n('maxTrials'),
    total: {
      costUsd: n('costUsd'),
      costKnown: n('costKnown'),
      costExpected: n('costExpected'),
      costEstimated: n('costEstimated'),
      tokens: n('totalTokens'),
      tokensKnown: n('tokensKnown'),
      tokensExpected: n('tokensExpected'),
      apiMs: n('apiDurationMs'),
      apiKnown: n('apiKnown'),
      apiExpected: n('apiExpected'),
    },
    trialRounds: n('trialRounds'),
    completeTrials: n('completeTrials'),
    inCompleteTrials: {
      attempts: n('round_attempts'),
      costUsd: n('round_costUsd'),
      costKnown: n('round_costKnown'),
      costEstimated: n('round_costEstimated'),
      tokens: n('round_tokens'),
      tokensKnown: n('round_tokensKnown'),
      apiMs: n('round_apiMs'),
      apiKnown: n('round_apiKnown'),
    },
  };
}

/** The figures of every target over these campaigns, read from the stored stats: what every view shows. */
export async function readTargetFigures(
  db: SqlSource,
  campaigns: readonly SummedCampaign[],
  slice: StatsSlice = {},
  extraWhere: Sql = empty,
): Promise<TargetFigures[]> {
  const { sums, passAny } = await sumTargets(db, campaigns, slice, extraWhere);
  return targetFigures(sums, passAny);
}
