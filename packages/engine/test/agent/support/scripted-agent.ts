import type { AgentChatRequest, AgentChatResult, AgentModel, Provider } from '@gitbench/providers';

/** One turn's call: a bash command, `read_file <path>`, or any tool with its arguments. */
export type ScriptedCall = string | { tool: string; args: Record<string, unknown> };

/**
 * An agent that makes one call a turn (a bash command, read_file for `read_file <path>`, or any tool
 * given with its arguments), then submits: the hostile agents of the containment and red-team tests.
 * `onTurn` sees each turn's number before it is answered.
 */
export function scriptedAgent(
  name: string,
  commands: ScriptedCall[],
  onTurn: (turn: number) => Promise<void> = async () => undefined,
): Provider & { chat: AgentModel['chat'] } {
  let turn = 0;
  const result = (tool: string, args: Record<string, unknown>): AgentChatResult =>
    ({
      content: null,
      reasoning: null,
      toolCalls: [{ id: `call_${turn}`, name: tool, arguments: JSON.stringify(args) }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 10, outputTokens: 10, reasoningTokens: null, totalTokens: 20 },
      cost: { usd: 0, source: 'builtin' },
      apiDurationMs: 0,
      retries: [],
      route: { provider: 'test', servedModel: name, endpoint: null, requestId: null },
    }) as unknown as AgentChatResult;
  return {
    name,
    kind: 'test',
    complete: () => Promise.reject(new Error('agent mode only')),
    async chat(_request: AgentChatRequest) {
      const n = turn++;
      await onTurn(n);
      const command = commands[n];
      if (command === undefined) return result('submit', { answer: 'done' });
      if (typeof command !== 'string') return result(command.tool, command.args);
      if (command.startsWith('read_file ')) return result('read_file', { path: command.slice('read_file '.length) });
      return result('bash', { command });
    },
  };
}
