import { isValidOutcome } from '../campaign/attempt-status';
import { compareCodeUnits } from '../canonical-json';
import { LEGACY_NOT_APPLICABLE, type AttemptRow, type CampaignFactsById, type NotApplicable } from './attempt-row';
import { countStatuses, type StatusCounts } from './completeness';
import { passAnyAtN, type PassAnyAtN } from './pass-any';
import { rateOf, type Rate } from './rate';
import { summarizeResources, type ResourceSummary } from './resources';
import {
  buildSeries,
  classifySeries,
  seriesPassAnyAtN,
  type FixtureClass,
  type FixtureSeries,
  type SeriesClassification,
} from './series';

/** Ways to slice an attempt set. `target` is model × effort × output mode; `fixture` is domain + id. */
export const GROUP_DIMENSIONS = ['campaign', 'target', 'domain', 'difficulty', 'fixture'] as const;
export type GroupDimension = (typeof GROUP_DIMENSIONS)[number];

export interface GroupKey {
  campaignId?: string;
  modelId?: string;
  effort?: string | null;
  outputMode?: AttemptRow['outputMode'];
  domain?: string;
  difficulty?: string;
  fixtureId?: string;
}

export interface ClassificationCounts extends Record<FixtureClass, number> {
  applicable: true;
  /** Series whose class rests on fewer valid attempts than planned trials. */
  partialEvidence: number;
  legacySeriesLeftOut: number;
}

export interface GroupSummary {
  key: GroupKey;
  attempts: number;
  statusCounts: StatusCounts;
  /** Mean one-attempt success: VALID_PASS ÷ (VALID_PASS + VALID_FAIL). */
  meanSuccess: Rate;
  passAnyAtN: PassAnyAtN | NotApplicable;
  classification: ClassificationCounts | NotApplicable;
  resources: ResourceSummary;
}

function keyOf(row: AttemptRow, by: readonly GroupDimension[]): GroupKey {
  const key: GroupKey = {};
  for (const dimension of by) {
    if (dimension === 'campaign') key.campaignId = row.campaignId;
    else if (dimension === 'target')
      Object.assign(key, { modelId: row.modelId, effort: row.effort, outputMode: row.outputMode });
    else if (dimension === 'domain') key.domain = row.domain;
    else if (dimension === 'difficulty') key.difficulty = row.difficulty;
    else Object.assign(key, { domain: row.domain, fixtureId: row.fixtureId });
  }
  return key;
}

const KEY_ORDER: (keyof GroupKey)[] = [
  'campaignId',
  'modelId',
  'effort',
  'outputMode',
  'domain',
  'difficulty',
  'fixtureId',
];

function keyString(key: GroupKey): string {
  return JSON.stringify(KEY_ORDER.map((k) => key[k] ?? null));
}

/** Mean one-attempt success over any attempt set. */
export function meanSuccess(rows: readonly Pick<AttemptRow, 'status'>[]): Rate {
  const valid = rows.filter((r) => isValidOutcome(r.status));
  return rateOf(valid.filter((r) => r.status === 'VALID_PASS').length, valid.length);
}

export function classificationCounts(series: readonly FixtureSeries[]): ClassificationCounts | NotApplicable {
  const counts: ClassificationCounts = {
    applicable: true,
    stable_pass: 0,
    stable_fail: 0,
    flaky: 0,
    unknown: 0,
    partialEvidence: 0,
    legacySeriesLeftOut: 0,
  };
  for (const s of series) {
    const c = classifySeries(s);
    if (!c.applicable) {
      counts.legacySeriesLeftOut++;
      continue;
    }
    counts[c.class]++;
    if (c.evidence === 'partial') counts.partialEvidence++;
  }
  if (series.length > 0 && counts.legacySeriesLeftOut === series.length) return LEGACY_NOT_APPLICABLE;
  return counts;
}

/**
 * Every aggregate of the methodology for each group of `rows` along `by` (e.g. ['target'] for a
 * leaderboard, ['target', 'domain'] for the heatmap, ['fixture'] for a fixture across targets).
 * Groups come out sorted by key. Mean success includes legacy attempts; stability and pass_any_at_n
 * leave legacy series out and say how many.
 */
export function summarizeAttempts(
  rows: readonly AttemptRow[],
  campaigns: CampaignFactsById,
  by: readonly GroupDimension[],
): GroupSummary[] {
  const groups = new Map<string, { key: GroupKey; rows: AttemptRow[] }>();
  for (const row of rows) {
    const key = keyOf(row, by);
    const k = keyString(key);
    const group = groups.get(k);
    if (group) group.rows.push(row);
    else groups.set(k, { key, rows: [row] });
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([, { key, rows: groupRows }]) => {
      const series = buildSeries(groupRows, campaigns);
      return {
        key,
        attempts: groupRows.length,
        statusCounts: countStatuses(groupRows),
        meanSuccess: meanSuccess(groupRows),
        passAnyAtN: passAnyAtN(series),
        classification: classificationCounts(series),
        resources: summarizeResources(groupRows),
      };
    });
}

export interface SeriesSummary {
  series: Omit<FixtureSeries, 'validOutcomes'>;
  meanSuccess: Rate;
  classification: SeriesClassification | NotApplicable;
  /** Index n-1: passed at least once in the first n valid attempts; null when it has fewer than n. */
  passAnyAtN: (boolean | null)[] | NotApplicable;
}

/** The fixture table: one row per fixture series (fixture × target × campaign). */
export function summarizeSeries(rows: readonly AttemptRow[], campaigns: CampaignFactsById): SeriesSummary[] {
  return buildSeries(rows, campaigns).map(({ validOutcomes, ...series }) => ({
    series,
    meanSuccess: rateOf(validOutcomes.filter(Boolean).length, validOutcomes.length),
    classification: classifySeries({ ...series, validOutcomes }),
    passAnyAtN: seriesPassAnyAtN({ ...series, validOutcomes }),
  }));
}
