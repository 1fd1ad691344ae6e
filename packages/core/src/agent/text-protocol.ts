/**
 * The text protocol, for endpoints without tool calling: exactly one fenced bash block per turn, and a
 * block whose first line is `submit` submits the rest as the answer. Read here for every model's reply;
 * written here by every agent that speaks it without a model (replays of a recorded trajectory, the
 * built-in scripted agents), so what they send is what the loop reads.
 */

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

/** A tool call as the text protocol sends it (the block's body), or null for a tool it cannot express. */
export function callAsTextBlock(name: string, args: Record<string, unknown>): string | null {
  if (name === 'bash' && typeof args.command === 'string') return args.command;
  if (name === 'submit') return `submit\n${typeof args.answer === 'string' ? args.answer : ''}`;
  return null;
}

/** A reply of the text protocol: the message's own text, if any, then the one fenced bash block. */
export function textProtocolReply(content: string | null, block: string): string {
  return `${content ? `${content}\n` : ''}\`\`\`bash\n${block}\n\`\`\``;
}
