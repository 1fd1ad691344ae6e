// A leaf module: the scoring contract (ScoreResult.family) needs these types without importing the
// families' scorers, which import the scoring contract.

/**
 * A grader's verdict as the attempt records it. `kind` says how it came about: `graded` when the
 * grader ran and answered; every other kind is a failure before or of the grader, and then both
 * Process and Result are false (GitTaskBench counts such a task in its denominators as failed).
 */
export const GRADER_VERDICT_KINDS = [
  'graded',
  'no_output',
  'empty_output',
  'grader_crash',
  'grader_timeout',
  'not_run',
] as const;
export type GraderVerdictKind = (typeof GRADER_VERDICT_KINDS)[number];

/** GitTaskBench's five quality levels (the paper's raters' scale: far below human ... indistinguishable). */
export const QUALITY_LEVELS = [0, 0.25, 0.5, 0.75, 1] as const;

export interface GraderVerdict {
  process: boolean;
  result: boolean;
  comments: string;
  /** One of QUALITY_LEVELS. */
  quality: number;
  kind: GraderVerdictKind;
}

/** What a repository task attempt contributes to the family's metrics (stored with the score). */
export interface RepoTaskOutcome extends GraderVerdict {
  family: 'repo_task';
  /** The task's market value (USD), the MV of the alpha value. */
  marketValueUsd: number;
}

/**
 * Why a gist has no execution fidelity, in the paper's error classes (Gistify 3.3) plus ours:
 * `no_gist` (file creation failure), `syntax_error`, `missing_test`, `import_error` (the original
 * imported instead of inlined), `runtime_error` (it ran but differs, or could not be collected).
 */
export const GIST_FAILURES = [
  'no_gist',
  'syntax_error',
  'missing_test',
  'import_error',
  'runtime_error',
  'not_evaluated',
] as const;
export type GistFailure = (typeof GIST_FAILURES)[number];

/** What a gist attempt contributes to the family's metrics (stored with the score). */
export interface GistOutcome {
  family: 'gist';
  /** Execution fidelity: the command on the gist gives the original's outcome and output. */
  fidelity: boolean;
  failure: GistFailure | null;
  detail: string;
  /** Null when the gist did not run (no trace). */
  lineExecutionRate: number | null;
  executedLines: number | null;
  executableLines: number | null;
  /** Null when there is no gist file, or it does not parse. */
  lineExistenceRate: number | null;
  foundLines: number | null;
  countedLines: number | null;
}

/** GitGoodBench's three scenarios: merge conflict resolution, interactive rebase, iterative committing. */
export const GGB_SCENARIOS = ['mcr', 'ir', 'icc'] as const;
export type GgbScenario = (typeof GGB_SCENARIOS)[number];

/** The scoring type of each scenario's fixtures, so an attempt that has no outcome yet still has its scenario. */
export const GGB_SCORING_TYPES = { mcr: 'ggb_mcr', ir: 'ggb_ir', icc: 'ggb_icc' } as const satisfies Record<
  GgbScenario,
  string
>;

export function ggbScenarioOfScoringType(scoringType: string): GgbScenario | null {
  const hit = GGB_SCENARIOS.find((s) => GGB_SCORING_TYPES[s] === scoringType);
  return hit ?? null;
}

/** One commit of a history the IR/ICC judge compared (its diff capped by the writer). */
export interface GgbCommit {
  sha: string;
  subject: string;
  message: string;
  files: string[];
  diff: string;
}

export const GGB_JUDGE_RESULTS = ['HISTORY-1', 'HISTORY-2', 'TIE'] as const;

/** One of the pairwise judge's two verdicts: where the agent's history stood, what the judge said and why. */
export interface GgbJudgeVerdict {
  agentAs: 'HISTORY-1' | 'HISTORY-2';
  result: (typeof GGB_JUDGE_RESULTS)[number];
  reason: string;
  agentWon: boolean;
}

/**
 * What a GitGoodBench attempt contributes to the family's metrics and shows on its page. `success`:
 * the run ended without a system error (the paper's success rate); `solved`: the scenario was
 * solved, null when the judge could not decide (the attempt is then unscored, left out of the solve
 * denominator, never scored another way).
 */
export interface GgbOutcome {
  family: 'ggb';
  scenario: GgbScenario;
  success: boolean;
  solved: boolean | null;
  detail: string;
  /** MCR: `git diff <merge commit> HEAD` after the agent stopped (empty when solved) and what is left unmerged. */
  mcr?: { mergeCommit: string; unmerged: string[]; diff: string; diffTruncated: boolean };
  /** IR/ICC: the original history and the agent's, oldest first; ICC restricts both to its target file. */
  histories?: { original: GgbCommit[]; agent: GgbCommit[]; rebaseInProgress: boolean; targetFile: string | null };
  /** IR/ICC: both verdicts of the pairwise judge (positions swapped), solved only if the agent won both. */
  judge?: { status: 'scored' | 'unscored'; reason: string | null; verdicts: GgbJudgeVerdict[] };
}

/** The per-attempt facts a task family's metrics are computed from, by family. */
export type FamilyOutcome = RepoTaskOutcome | GistOutcome | GgbOutcome;
