import { ConfigurationError, type Fixture, type getToolSet } from '@gitbench/core';
import type { AgentModel } from '@gitbench/providers';
import { builtinAgent } from './builtin-agents';
import type { AgentAttemptInput } from './agent-attempt-input';

/** The model's agent side: a built-in agent, or the provider's tool-calling turns. */
export function agentModelFor(
  input: AgentAttemptInput,
  fixture: Fixture,
  reference: string,
  toolSet: ReturnType<typeof getToolSet>,
): AgentModel {
  const builtin = builtinAgent(input.modelName, {
    fixture,
    reference,
    toolSet,
    ...(input.trial !== undefined ? { trial: input.trial } : {}),
  });
  if (builtin) return builtin;
  const chat = input.model.chat;
  if (!chat) {
    const hint =
      input.model.kind === 'replay'
        ? ' A replay in agent mode needs an ATIF trajectory file ' +
          '(gitbench trajectory export --format atif), not a result file.'
        : '';
    throw new ConfigurationError(
      'no_agent_side',
      `${input.model.name} cannot run agent attempts (it has no tool-calling side).${hint}`,
    );
  }
  return { name: input.model.name, kind: input.model.kind ?? 'model', chat: (r) => chat.call(input.model, r) };
}
