import type { AttemptStatus } from '../campaign/attempt-status';
import type { Mode } from '../mode';

/**
 * One attempt as aggregation needs it: its identity, its outcome and what it consumed. The fields are
 * the Attempt table's (with `effort` for `reasoningEffort` and `tokens` for `totalTokens`). Null means
 * unknown, never zero.
 */
export interface AttemptRow {
  campaignId: string;
  /** Canonical `base#effort` spelling. */
  modelId: string;
  effort: string | null;
  outputMode: Mode;
  domain: string;
  fixtureId: string;
  difficulty: string;
  trial: number;
  status: AttemptStatus;
  tokens: number | null;
  costUsd: number | null;
  costEstimated: boolean;
  apiDurationMs: number | null;
}

/** What aggregation must know about each campaign an attempt belongs to. */
export interface CampaignFacts {
  /** Planned trial rounds. */
  trials: number;
  /** Imported from a pre-campaign result file: one trial, no repeated-trial evidence. */
  legacy: boolean;
}

export type CampaignFactsById = Readonly<Record<string, CampaignFacts>>;

/** Returned instead of a number where the methodology forbids the claim. */
export interface NotApplicable {
  applicable: false;
  reason: 'legacy_campaign';
  message: string;
}

export const LEGACY_NOT_APPLICABLE: NotApplicable = {
  applicable: false,
  reason: 'legacy_campaign',
  message: 'Legacy campaigns have a single trial: stability and pass_any_at_n cannot be inferred from them.',
};

export function campaignFactsFor(campaigns: CampaignFactsById, campaignId: string): CampaignFacts {
  const facts = campaigns[campaignId];
  // Guessing trials or legacy would silently change what a number means, so a missing entry is a bug.
  if (!facts)
    throw new Error(`No campaign facts for ${campaignId}: pass trials and legacy for every campaign in the rows.`);
  return facts;
}

/** Identity of a target (model × effort × output mode), usable as a map key. */
export function targetKeyOf(row: Pick<AttemptRow, 'modelId' | 'effort' | 'outputMode'>): string {
  return JSON.stringify([row.modelId, row.effort, row.outputMode]);
}

/** Identity of a fixture series: one fixture under one target in one campaign, across its trials. */
export function seriesKeyOf(
  row: Pick<AttemptRow, 'campaignId' | 'modelId' | 'effort' | 'outputMode' | 'domain' | 'fixtureId'>,
): string {
  return JSON.stringify([row.campaignId, row.modelId, row.effort, row.outputMode, row.domain, row.fixtureId]);
}
