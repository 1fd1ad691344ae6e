import {
  ggbMetrics,
  gistMetrics,
  repoTaskMetrics,
  type GgbMetrics,
  type GistMetrics,
  type RepoTaskMetrics,
} from './metrics';
import {
  ggbScenarioOfScoringType,
  type FamilyOutcome,
  type GgbOutcome,
  type GistOutcome,
  type RepoTaskOutcome,
} from './outcome';

/** The task families with metrics of their own, and the pages that show them (`/families/<family>`). */
export const FAMILIES = ['repo_task', 'gist', 'ggb'] as const;
export type Family = (typeof FAMILIES)[number];

export const FAMILY_TITLES: Record<Family, string> = {
  repo_task: 'Repository tasks',
  gist: 'Gists',
  ggb: 'GitGoodBench',
};

export function isFamily(value: string): value is Family {
  return (FAMILIES as readonly string[]).includes(value);
}

/** The family a fixture belongs to, by its scoring type; null for the plain Git fixtures. */
export function familyOfScoringType(scoringType: string): Family | null {
  if (scoringType === 'repo_task' || scoringType === 'gist') return scoringType;
  return ggbScenarioOfScoringType(scoringType) ? 'ggb' : null;
}

/**
 * One planned attempt as the family pages read it: its fixture, and the outcome its latest try
 * recorded with the score (evidence.scoring.family), or null when it has none (not finished, or an
 * infrastructure failure): such an attempt stays in the papers' fixed denominators.
 */
export interface FamilyAttemptFacts {
  fixture: string;
  scoringType: string;
  difficulty: string;
  costUsd: number | null;
  outcome: FamilyOutcome | null;
}

export type FamilyMetrics =
  | { family: 'repo_task'; attempts: number; metrics: RepoTaskMetrics }
  | { family: 'gist'; attempts: number; metrics: GistMetrics }
  | { family: 'ggb'; attempts: number; metrics: GgbMetrics };

/** The family's metrics over the attempts of that family (others are ignored), from their recorded outcomes. */
export function familyMetrics(family: Family, facts: readonly FamilyAttemptFacts[]): FamilyMetrics {
  const mine = facts.filter((f) => familyOfScoringType(f.scoringType) === family);
  const base = (f: FamilyAttemptFacts) => ({ fixture: f.fixture, costUsd: f.costUsd });
  const outcome = <O extends FamilyOutcome>(f: FamilyAttemptFacts, of: O['family']) =>
    f.outcome?.family === of ? (f.outcome as O) : null;
  switch (family) {
    case 'repo_task':
      return {
        family,
        attempts: mine.length,
        metrics: repoTaskMetrics(mine.map((f) => ({ ...base(f), outcome: outcome<RepoTaskOutcome>(f, 'repo_task') }))),
      };
    case 'gist':
      return {
        family,
        attempts: mine.length,
        metrics: gistMetrics(mine.map((f) => ({ ...base(f), outcome: outcome<GistOutcome>(f, 'gist') }))),
      };
    case 'ggb':
      return {
        family,
        attempts: mine.length,
        metrics: ggbMetrics(
          mine.map((f) => ({
            ...base(f),
            scenario: ggbScenarioOfScoringType(f.scoringType)!,
            difficulty: f.difficulty,
            outcome: outcome<GgbOutcome>(f, 'ggb'),
          })),
        ),
      };
  }
}
