import type { AttemptResult } from './attempt-result';
import {
  judgeHistories,
  scriptedHistoryJudge,
  withHistoryJudgement,
  type AskHistoryJudge,
  type HistoryJudgeCache,
  type HistoryJudgement,
} from './core-api';

export interface JudgeGgbAttemptInput {
  /** An IR or ICC attempt whose scorer handed over to the judge (outcome NEEDS_JUDGE, family ggb). */
  attempt: AttemptResult;
  /** One question to the judge model (structured output, temperature 0); `scripted` in tests and self-check. */
  ask: AskHistoryJudge | 'scripted';
  cache?: { store: HistoryJudgeCache; judgeConfigHash: string };
}

export interface GgbJudged {
  attempt: AttemptResult;
  judgement: HistoryJudgement | null;
}

/**
 * Judges a GitGoodBench IR/ICC attempt with the pairwise history judge (asked twice, positions
 * swapped) and applies the verdict: PASS only if the agent's history won both orderings, FAIL
 * otherwise; still NEEDS_JUDGE (unscored, excluded from the solve rate) when the judge had no usable
 * reply. Both verdicts and reasons end up in the attempt's family outcome. Any other attempt is
 * returned as it is.
 */
export async function judgeGgbAttempt(input: JudgeGgbAttemptInput): Promise<GgbJudged> {
  const { attempt } = input;
  const family = attempt.family;
  if (attempt.outcome !== 'NEEDS_JUDGE' || family?.family !== 'ggb' || !family.histories)
    return { attempt, judgement: null };
  const histories = { original: family.histories.original, agent: family.histories.agent };
  const ask = input.ask === 'scripted' ? scriptedHistoryJudge(histories) : input.ask;
  const judgement = await judgeHistories({
    ...histories,
    ask,
    ...(input.cache
      ? {
          cache: {
            store: input.cache.store,
            judgeConfigHash: input.cache.judgeConfigHash,
            fixtureInputHash: attempt.hashes.input,
          },
        }
      : {}),
  });
  const outcome = withHistoryJudgement(family, judgement);
  if (judgement.status === 'unscored')
    return { attempt: { ...attempt, family: outcome, error: `unscored: ${judgement.reason}` }, judgement };
  const checks = [
    ...attempt.checks.filter((c) => c.check !== 'pairwise judge'),
    {
      check: 'pairwise judge',
      ok: judgement.solved,
      detail: judgement.verdicts.map((v) => `agent as ${v.agentAs}: ${v.result} (${v.reason})`).join('; '),
    },
  ];
  return {
    attempt: {
      ...attempt,
      outcome: judgement.solved ? 'PASS' : 'FAIL',
      passed: judgement.solved,
      score: judgement.solved ? 1 : 0,
      checks,
      family: outcome,
    },
    judgement,
  };
}
