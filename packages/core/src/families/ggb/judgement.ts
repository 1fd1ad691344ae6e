import type { HistoryJudgement } from '../../judging/history-judge';
import type { GgbOutcome } from '../outcome';

/**
 * An IR/ICC outcome with the pairwise judge's answer applied: solved only if the agent's history won
 * both orderings; unscored (solved null, excluded from the solve rate) when the judge had no usable
 * reply. Both verdicts and reasons are kept either way.
 */
export function withHistoryJudgement(outcome: GgbOutcome, judgement: HistoryJudgement): GgbOutcome {
  const judge = { status: judgement.status, reason: judgement.reason, verdicts: judgement.verdicts };
  if (judgement.status === 'unscored')
    return { ...outcome, solved: null, judge, detail: `unscored: ${judgement.reason}` };
  const wins = judgement.verdicts.filter((v) => v.agentWon).length;
  const ties = judgement.verdicts.filter((v) => v.result === 'TIE').length;
  const detail = judgement.solved
    ? "the judge preferred the agent's history in both orderings"
    : `the agent's history won ${wins} of 2 ` +
      `orderings${ties > 0 ? ` (${ties} tie${ties > 1 ? 's' : ''})` : ''}; solved needs both`;
  return { ...outcome, solved: judgement.solved, judge, detail };
}
