import { check, configError, numberOption, verdict } from '../result';
import type { ScoreResult, Scorer } from '../types';
import type { Fixture } from '../../fixtures/types';

/**
 * llm_judge: the verdict belongs to a Judge, not to this scorer. `score` only says that a judge is
 * needed; `judgeVerdict` turns the judge's 0..1 score into the result with upstream's rule
 * (pass at `threshold`, default 0.5).
 */
export const llmJudgeScorer: Scorer = {
  type: 'llm_judge',
  plan: () => null,
  score({ fixture }) {
    const threshold = numberOption(fixture, 'threshold', 0.5);
    if (!threshold.ok) return configError(fixture, threshold.error);
    return {
      ...verdict(false, 0, [check('judge', false, `needs an LLM judge; passes at judge score >= ${threshold.value}`)]),
      needsJudge: true,
    };
  },
};

export function judgeVerdict(fixture: Fixture, judgeScore: number, rationale?: string): ScoreResult {
  const threshold = numberOption(fixture, 'threshold', 0.5);
  if (!threshold.ok) return configError(fixture, threshold.error);
  const passed = judgeScore >= threshold.value;
  return verdict(passed, judgeScore, [
    check(
      'judge',
      passed,
      `judge score ${judgeScore.toFixed(4)} ${passed ? '>=' : '<'} ` +
        `threshold ${threshold.value}${rationale ? `: ${rationale}` : ''}`,
    ),
  ]);
}
