import { parseTextProtocol, type ToolCallChannel } from '@gitbench/core';
import type { AgentToolCall, AgentWireProtocol } from '@gitbench/providers';
import { parseLeakedToolCalls } from './parse-calls';

/** Which calls a model turn makes, through which channel, and why none could be read (a format strike). */
export interface ParsedTurn {
  channel: ToolCallChannel;
  calls: AgentToolCall[];
  strikeWhy: string | null;
}

/**
 * Reads a turn's calls, as mini-swe-agent's parse_action does: native tool calls first, then calls
 * leaked into the text as <tool_call> blocks, then (under the text protocol) the one action the text names.
 */
export function parseTurn(
  reply: { content: string | null; toolCalls: AgentToolCall[] },
  protocol: AgentWireProtocol,
  stepIndex: number,
): ParsedTurn {
  const content = reply.content;
  if (reply.toolCalls.length > 0) return { channel: 'native', calls: reply.toolCalls, strikeWhy: null };
  const leaked = content?.includes('<tool_call>') ? parseLeakedToolCalls(content, `leaked_${stepIndex}`) : null;
  if (leaked && leaked.length > 0) return { channel: 'leaked', calls: leaked, strikeWhy: null };
  if (protocol === 'text') return textAction(content, stepIndex);
  return { channel: leaked ? 'leaked' : 'native', calls: [], strikeWhy: null };
}

function textAction(content: string | null, stepIndex: number): ParsedTurn {
  if (!content) return { channel: 'text', calls: [], strikeWhy: null };
  const parsed = parseTextProtocol(content);
  if (!parsed.ok) return { channel: 'text', calls: [], strikeWhy: parsed.error };
  const args = parsed.kind === 'bash' ? { command: parsed.command } : { answer: parsed.answer };
  return {
    channel: 'text',
    calls: [
      { id: `text_${stepIndex}_0`, name: parsed.kind === 'bash' ? 'bash' : 'submit', arguments: JSON.stringify(args) },
    ],
    strikeWhy: null,
  };
}
