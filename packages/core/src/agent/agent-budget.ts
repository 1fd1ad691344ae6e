import { commandTimeLimitText } from '../fixtures/render-prompt';
import type { AgentLimits } from './agent-config';

/**
 * The attempt's budget in one sentence, rendered from the limits it runs under: a model that is
 * stopped at a limit it was never told of fails for a reason that is not its own. A turn is one reply
 * (our loop counts its steps; the gateway counts a third-party agent's model calls); the command limit
 * is left out where the agent's own shell tool sets it (null).
 */
export function agentBudgetSentence(
  limits: Pick<AgentLimits, 'maxTurns' | 'maxWallMs'>,
  commandTimeoutMs: number | null,
): string {
  const turns = `${limits.maxTurns} turn${limits.maxTurns === 1 ? '' : 's'}`;
  const head =
    `You have at most ${turns} and ${commandTimeLimitText(limits.maxWallMs)} ` +
    `in all (each reply is one turn, with its tool call)`;
  return commandTimeoutMs === null
    ? `${head}.`
    : `${head}; each command is stopped after ${commandTimeLimitText(commandTimeoutMs)}.`;
}
