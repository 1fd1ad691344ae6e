import {
  agentBudgetSentence,
  agentCheckStatement,
  agentTaskText,
  renderPrompt,
  type AgentLimits,
  type Fixture,
} from '@gitbench/core';
import type { FixtureSnapshot } from '../fixture-snapshot';
import { tmpSentence } from './agent-prompt';

/**
 * The task as the agent is given it: the fixture's agent prompt, or its prompt without an output format
 * nothing scores, with its context, then the one statement of what is checked (core's agentTaskText and
 * agentCheckStatement).
 */
export function agentTaskPrompt(
  fixture: Fixture,
  snapshot: FixtureSnapshot,
  answerBy: 'submit' | 'final message',
  commandTimeoutMs: number | null,
): string {
  const prompt = renderPrompt(
    { ...fixture, prompt: agentTaskText(fixture) },
    snapshot.context,
    'agent',
    commandTimeoutMs,
  );
  const checked = agentCheckStatement(fixture, answerBy);
  return checked ? `${prompt}\n\n${checked}` : prompt;
}

/**
 * The task as a third-party agent gets it: its own tools set the command limit, and its system prompt
 * is its own, so the budget the gateway holds it to (model calls, wall-clock time) ends the task, and
 * so does the size of /tmp where the sandbox caps it (every third-party agent has a shell, and nothing
 * else tells it that a big scratch copy there fails).
 */
export function thirdPartyTaskPrompt(
  fixture: Fixture,
  snapshot: FixtureSnapshot,
  limits: Pick<AgentLimits, 'maxTurns' | 'maxWallMs'>,
  tmpBytes?: number,
): string {
  const budget = agentBudgetSentence(limits, null);
  const tail = tmpBytes !== undefined ? `${budget}\n${tmpSentence(tmpBytes)}` : budget;
  return `${agentTaskPrompt(fixture, snapshot, 'final message', null)}\n\n${tail}`;
}
