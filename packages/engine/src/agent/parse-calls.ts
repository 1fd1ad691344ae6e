import type { AgentToolCall } from '@gitbench/providers';

/**
 * Tool calls found in a message's text: `<tool_call>{"name": ..., "arguments": ...}</tool_call>` that
 * models trained on Hermes-style templates leak into their content when the server does not parse
 * them. The text protocol's one fenced bash block per turn is read (and written) in core's
 * agent/text-protocol.ts.
 */

const LEAKED = /<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g;

/** Leaked calls, in order. An unreadable one is kept with its raw text so the model is told why. */
export function parseLeakedToolCalls(content: string, idPrefix: string): AgentToolCall[] {
  const calls: AgentToolCall[] = [];
  for (const match of content.matchAll(LEAKED)) {
    const raw = match[1] ?? '';
    const id = `${idPrefix}_${calls.length}`;
    try {
      const parsed = JSON.parse(raw) as { name?: unknown; arguments?: unknown; parameters?: unknown };
      const args = parsed.arguments ?? parsed.parameters;
      calls.push({
        id,
        name: typeof parsed.name === 'string' ? parsed.name : '',
        arguments: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args),
      });
    } catch {
      // The whole leaked text stands as the arguments: the parse error names it.
      calls.push({ id, name: '', arguments: raw });
    }
  }
  return calls;
}
