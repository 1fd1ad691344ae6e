import { bisectRegressionScorer } from './scorers/bisect-regression';
import { commandEquivalenceScorer } from './scorers/command-equivalence';
import { commitHashBySubjectScorer } from './scorers/commit-hash-by-subject';
import { commitSelectionScorer } from './scorers/commit-selection';
import { exactMatchScorer } from './scorers/exact-match';
import { ggbIccScorer, ggbIrScorer, ggbMcrScorer } from './scorers/ggb';
import { gistScorer } from './scorers/gist';
import { jsonSemanticEqualScorer } from './scorers/json-semantic-equal';
import { llmJudgeScorer } from './scorers/llm-judge';
import { numericExactScorer } from './scorers/numeric-exact';
import { reflogRecoveryScorer } from './scorers/reflog-recovery';
import { repoChecksScorer } from './scorers/repo-checks';
import { repoTaskScorer } from './scorers/repo-task';
import { resolvedFileBlocksScorer } from './scorers/resolved-file-blocks';
import { similarityScorer } from './scorers/similarity';
import { stashRecoveryScorer } from './scorers/stash-recovery';
import { stateAssertionsScorer } from './scorers/state-assertions';
import { structuredScorer } from './scorers/structured';
import { unorderedLineSetScorer } from './scorers/unordered-line-set';
import { SCORING_TYPES } from './types';
import type { ScoreInput, ScoreResult, Scorer, ScoringType } from './types';
import { check, verdict } from './result';

/** One Scorer per scoring type; the `satisfies` makes a missing type a compile error. */
export const scorers = {
  exact_match: exactMatchScorer,
  similarity: similarityScorer,
  unordered_line_set: unorderedLineSetScorer,
  numeric_exact: numericExactScorer,
  json_semantic_equal: jsonSemanticEqualScorer,
  command_equivalence: commandEquivalenceScorer,
  structured: structuredScorer,
  state_assertions: stateAssertionsScorer,
  resolved_file_blocks: resolvedFileBlocksScorer,
  commit_selection: commitSelectionScorer,
  commit_hash_by_subject: commitHashBySubjectScorer,
  bisect_regression: bisectRegressionScorer,
  reflog_recovery: reflogRecoveryScorer,
  stash_recovery: stashRecoveryScorer,
  llm_judge: llmJudgeScorer,
  repo_task: repoTaskScorer,
  gist: gistScorer,
  ggb_mcr: ggbMcrScorer,
  ggb_ir: ggbIrScorer,
  ggb_icc: ggbIccScorer,
  repo_checks: repoChecksScorer,
} as const satisfies Record<ScoringType, Scorer>;

export class UnknownScoringTypeError extends Error {
  constructor(readonly scoringType: string) {
    super(`unknown scoring type ${JSON.stringify(scoringType)}; known types: ${SCORING_TYPES.join(', ')}`);
  }
}

export function isScoringType(type: string): type is ScoringType {
  return (SCORING_TYPES as readonly string[]).includes(type);
}

export function getScorer(type: string): Scorer {
  if (!isScoringType(type)) throw new UnknownScoringTypeError(type);
  return scorers[type];
}

/**
 * Applies a scorer, never throwing: a scorer bug becomes a failed check that names the scorer, so the
 * attempt is visibly wrong, not lost. (Scoring a whole attempt, sandbox and hashes included, is the
 * engine's scoreAttempt.)
 */
export function runScorer(scorer: Scorer, input: ScoreInput): ScoreResult {
  try {
    return scorer.score(input);
  } catch (error) {
    return verdict(false, 0, [check('attempt', false, `${scorer.type} failed: ${(error as Error).message}`)]);
  }
}
