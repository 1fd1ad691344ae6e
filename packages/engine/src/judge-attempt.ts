import type { JudgeCache } from '@gitbench/core';
import { runLlmJudge, type JudgePanel, type LlmJudgement } from '@gitbench/providers';
import type { AttemptResult } from './attempt-result';
import type { Fixture } from './core-api';

export interface JudgeAttemptInput {
  fixture: Fixture;
  /** An attempt whose scorer asked for a judge (outcome NEEDS_JUDGE). */
  attempt: AttemptResult;
  panel: JudgePanel;
  cache?: JudgeCache;
  signal?: AbortSignal;
}

/**
 * Judges an llm_judge attempt: the prompt the model saw, the fixture's reference answer and the text
 * the scorer read go to every member of the panel; the cache key starts with the attempt's input hash.
 */
export function judgeAttempt(input: JudgeAttemptInput): Promise<LlmJudgement> {
  const { fixture, attempt } = input;
  return runLlmJudge({
    panel: input.panel,
    task: attempt.prompt,
    reference: fixture.expected,
    answer: attempt.scoredText,
    threshold: typeof fixture.scoring.threshold === 'number' ? fixture.scoring.threshold : 0.5,
    fixtureInputHash: attempt.hashes.input,
    ...(input.cache ? { cache: input.cache } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

/**
 * The attempt with the judge's verdict applied: PASS or FAIL when the panel scored it; still
 * NEEDS_JUDGE (unscored, excluded from quality denominators) when every member failed.
 */
export function withJudgement(attempt: AttemptResult, judgement: LlmJudgement): AttemptResult {
  const v = judgement.verdict;
  if (v.status !== 'scored') {
    return { ...attempt, error: `unscored: ${v.reason}` };
  }
  const check = {
    check: 'llm_judge',
    ok: v.passed,
    detail: `judge score ${v.score.toFixed(3)} from ${v.scoredMembers} member(s)`,
  };
  return {
    ...attempt,
    outcome: v.passed ? 'PASS' : 'FAIL',
    passed: v.passed,
    score: v.score,
    checks: [...attempt.checks, check],
  };
}
