import {
  HISTORY_JUDGE_PROMPT_VERSION,
  InMemoryHistoryJudgeCache,
  judgeConfigHash,
  type HistoryJudgeCache,
  type JudgeCache,
} from '@gitbench/core';
import { historyJudgeAsk, type CompletionResult, type JudgePanel } from '@gitbench/providers';
import type { AttemptResult } from './attempt-result';
import { ConfigurationError, type AttemptEnding } from './core-api';
import { judgeGgbAttempt } from './ggb-judge';

export interface AttemptJudge {
  /** Built only when a scorer asks for a judge; a ConfigurationError leaves the attempt unjudged, visibly. */
  panel: () => JudgePanel;
  cache?: JudgeCache;
  /** GitGoodBench's history judgements (IR/ICC); without it, judgements are kept for this process only. */
  historyCache?: HistoryJudgeCache;
}

const processHistoryCache = new InMemoryHistoryJudgeCache();

/** Provider kinds with no model behind them; as GitGoodBench judges they play the scripted history judge. */
const SCRIPTED_JUDGE_KINDS: readonly string[] = ['mock', 'oracle', 'simulated'];

/** executeAttempt's finish: the ending classified once, with what the history judge adds to the run. */
type Finish<R> = (
  ending: AttemptEnding,
  rest?: { attempt?: AttemptResult; historyJudgeCalls?: CompletionResult[]; errorMessage?: string | null },
) => R;

/**
 * GitGoodBench IR/ICC: the judge panel's first member is asked the paper's pairwise question twice
 * (positions swapped, temperature 0); solved only if the agent's history wins both. No usable reply
 * leaves the attempt unscored and excluded.
 */
export async function judgeHistoryAttempt<R>(
  signal: AbortSignal | undefined,
  attempt: AttemptResult,
  judge: AttemptJudge,
  finish: Finish<R>,
  message: string | null,
): Promise<R> {
  let panel: JudgePanel;
  try {
    panel = judge.panel();
  } catch (err) {
    if (!(err instanceof ConfigurationError)) throw err;
    return finish({ unjudged: 'judge_configuration' }, { attempt, errorMessage: err.message });
  }
  const member = panel.members[0];
  if (!member)
    return finish(
      { unjudged: 'judge_configuration' },
      { attempt, errorMessage: `Judge profile ${panel.profile} has no member.` },
    );
  const historyJudgeCalls: CompletionResult[] = [];
  // A judge profile of a built-in provider has no model to ask: it judges with the scripted judge.
  const ask = SCRIPTED_JUDGE_KINDS.includes(member.provider.kind)
    ? 'scripted'
    : historyJudgeAsk(member, {
        onCall: (r) => historyJudgeCalls.push(r),
        ...(signal ? { signal: signal } : {}),
      });
  const configHash = judgeConfigHash({
    kind: 'pairwise',
    promptVersion: HISTORY_JUDGE_PROMPT_VERSION,
    members: [{ model: member.model, ...member.identity }],
  });
  let judged;
  try {
    judged = await judgeGgbAttempt({
      attempt,
      ask,
      cache: { store: judge.historyCache ?? processHistoryCache, judgeConfigHash: configHash },
    });
  } catch (err) {
    if (signal?.aborted)
      return finish(
        { failure: 'cancelled' },
        {
          attempt,
          historyJudgeCalls,
          errorMessage: String((signal.reason as Error)?.message ?? signal.reason),
        },
      );
    throw err;
  }
  if (judged.judgement?.status !== 'scored') {
    return finish(
      { unjudged: 'judge_exhausted' },
      {
        attempt: judged.attempt,
        historyJudgeCalls,
        errorMessage:
          judged.attempt.error ?? 'The history judge had no usable reply; the attempt is left unscored and excluded.',
      },
    );
  }
  return finish(
    { outcome: judged.attempt.outcome },
    { attempt: judged.attempt, historyJudgeCalls, errorMessage: message },
  );
}
