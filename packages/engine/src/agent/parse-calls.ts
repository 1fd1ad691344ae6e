import type { AgentToolCall } from '@gitbench/providers';

/**
 * Tool calls found in a message's text: `<tool_call>{"name": ..., "arguments": ...}</tool_call>` that
 * models trained on Hermes-style templates leak into their content when the server does not parse
 * them, and the text protocol's one fenced bash block per turn.
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

const FENCE = /```([A-Za-z0-9_+-]*)[ \t]*\n([\s\S]*?)```/g;
const SHELL_TAGS = new Set(['', 'bash', 'sh', 'shell', 'console', 'zsh']);

export type TextProtocolParse =
  | { ok: true; kind: 'bash'; command: string }
  | { ok: true; kind: 'submit'; answer: string }
  | { ok: false; error: string };

/**
 * The text protocol: exactly one fenced bash block per turn. A block whose first line is `submit`
 * (optionally followed by the answer on the same line) submits the rest of the block as the answer.
 */
export function parseTextProtocol(content: string): TextProtocolParse {
  const blocks = [...content.matchAll(FENCE)].filter((m) => SHELL_TAGS.has((m[1] ?? '').toLowerCase()));
  if (blocks.length === 0) return { ok: false, error: 'no fenced bash block found' };
  if (blocks.length > 1) return { ok: false, error: `found ${blocks.length} bash blocks; send exactly one per turn` };
  const body = (blocks[0]![2] ?? '').replace(/\n$/, '');
  const [first = '', ...rest] = body.split('\n');
  const head = /^\s*submit(?:\s+(.*))?$/.exec(first);
  if (head) {
    const inline = head[1]?.trim() ?? '';
    const answer = [inline, ...rest].filter((l, i) => i > 0 || l !== '').join('\n');
    return { ok: true, kind: 'submit', answer: unquote(answer.trim()) };
  }
  if (body.trim() === '') return { ok: false, error: 'the bash block is empty' };
  return { ok: true, kind: 'bash', command: body };
}

function unquote(text: string): string {
  const m = /^(["'])([\s\S]*)\1$/.exec(text);
  return m ? m[2]! : text;
}
