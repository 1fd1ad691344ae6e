import { isValidOutcome } from '../campaign/attempt-status';
import { compareCodeUnits } from '../canonical-json';
import {
  campaignFactsFor,
  LEGACY_NOT_APPLICABLE,
  seriesKeyOf,
  type AttemptRow,
  type CampaignFactsById,
  type NotApplicable,
} from './attempt-row';

/**
 * A fixture series: one fixture under one target (model × effort × output mode) in one campaign, with
 * its attempts in trial order. It is the unit of stability classification and of pass_any_at_n:
 * "comparable attempts" are the valid attempts of one series, because a fixture's attempts under another
 * model or in another campaign say nothing about this one's repeatability.
 */
export interface FixtureSeries {
  campaignId: string;
  modelId: string;
  effort: string | null;
  outputMode: AttemptRow['outputMode'];
  domain: string;
  fixtureId: string;
  difficulty: string;
  legacy: boolean;
  plannedTrials: number;
  /** All attempts of the series, whatever their status. */
  attempts: number;
  /** Pass (true) / fail (false) of each valid attempt, ordered by trial. */
  validOutcomes: boolean[];
}

export function buildSeries(rows: readonly AttemptRow[], campaigns: CampaignFactsById): FixtureSeries[] {
  const byKey = new Map<string, { series: FixtureSeries; valid: { trial: number; passed: boolean }[] }>();
  for (const row of rows) {
    const key = seriesKeyOf(row);
    let entry = byKey.get(key);
    if (!entry) {
      const facts = campaignFactsFor(campaigns, row.campaignId);
      entry = {
        series: {
          campaignId: row.campaignId,
          modelId: row.modelId,
          effort: row.effort,
          outputMode: row.outputMode,
          domain: row.domain,
          fixtureId: row.fixtureId,
          difficulty: row.difficulty,
          legacy: facts.legacy,
          plannedTrials: facts.trials,
          attempts: 0,
          validOutcomes: [],
        },
        valid: [],
      };
      byKey.set(key, entry);
    }
    entry.series.attempts++;
    if (isValidOutcome(row.status)) entry.valid.push({ trial: row.trial, passed: row.status === 'VALID_PASS' });
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([, { series, valid }]) => ({
      ...series,
      // Array.prototype.sort is stable, so duplicate trial numbers keep their input order.
      validOutcomes: valid.sort((a, b) => a.trial - b.trial).map((v) => v.passed),
    }));
}

export const FIXTURE_CLASSES = ['stable_pass', 'stable_fail', 'flaky', 'unknown'] as const;
export type FixtureClass = (typeof FIXTURE_CLASSES)[number];

export interface SeriesClassification {
  applicable: true;
  class: FixtureClass;
  passes: number;
  valid: number;
  /**
   * `partial` when the series has fewer valid attempts than planned trials (some were excluded or have
   * not finished): the class is still decided on the valid attempts, as the methodology defines it, but
   * it rests on less evidence than a full series and the UI should say so.
   */
  evidence: 'full' | 'partial';
}

/**
 * stable_pass: every valid attempt passed; stable_fail: every valid attempt failed; flaky: both;
 * unknown: no valid attempt. Legacy series get "not applicable" instead: one trial cannot show stability.
 */
export function classifySeries(series: FixtureSeries): SeriesClassification | NotApplicable {
  if (series.legacy) return LEGACY_NOT_APPLICABLE;
  const valid = series.validOutcomes.length;
  const passes = series.validOutcomes.filter(Boolean).length;
  const cls: FixtureClass =
    valid === 0 ? 'unknown' : passes === valid ? 'stable_pass' : passes === 0 ? 'stable_fail' : 'flaky';
  return { applicable: true, class: cls, passes, valid, evidence: valid < series.plannedTrials ? 'partial' : 'full' };
}

/**
 * Whether the series passed at least once in its first n valid attempts, for n = 1..planned trials.
 * Null at an n the series has fewer than n valid attempts for: it has no "first n" attempts, and
 * reading a shorter series as if it had them would understate pass_any.
 */
export function seriesPassAnyAtN(series: FixtureSeries): (boolean | null)[] | NotApplicable {
  if (series.legacy) return LEGACY_NOT_APPLICABLE;
  const result: (boolean | null)[] = [];
  let seenPass = false;
  for (let n = 1; n <= series.plannedTrials; n++) {
    const outcome = series.validOutcomes[n - 1];
    if (outcome === undefined) {
      result.push(null);
      continue;
    }
    seenPass ||= outcome;
    result.push(seenPass);
  }
  return result;
}
