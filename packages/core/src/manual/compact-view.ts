import { canonicalJson } from '../canonical-json';
import { messageText, type ChatRequest, type WireMessage } from './chat-request';

/**
 * What a person answering as the model reads for each request. An agent loop resends the whole
 * conversation every turn, so printing each request whole would repeat the system prompt and every
 * earlier tool output; the view shows the system prompt and the tools once per conversation and,
 * after that, only the user and tool messages added since the request it continues.
 */

/** Lines of one message shown before the view cuts it (head and tail kept; the full request has all). */
export const COMPACT_MESSAGE_LINES = 40;

/** Where a request continues an earlier one: that request's messages are a prefix of its own. */
export function continues(previous: ChatRequest, current: ChatRequest): boolean {
  if (previous.messages.length > current.messages.length) return false;
  return previous.messages.every((m, i) => canonicalJson(m) === canonicalJson(current.messages[i]));
}

/**
 * The earlier request this one continues, the latest of those that do (several attempts may share
 * one endpoint, so the previous request received is not necessarily its own conversation's).
 */
export function previousInConversation(candidates: readonly ChatRequest[], current: ChatRequest): ChatRequest | null {
  let best: ChatRequest | null = null;
  for (const candidate of candidates) {
    if (continues(candidate, current) && (!best || candidate.messages.length > best.messages.length)) best = candidate;
  }
  return best;
}

function cut(text: string, maxLines: number): string {
  const lines = text.split('\n');
  if (lines.length <= maxLines) return text;
  const head = Math.ceil(maxLines * 0.6);
  const tail = maxLines - head;
  return [
    ...lines.slice(0, head),
    `… ${lines.length - maxLines} line(s) not shown (the whole request: ` +
      `:full at the terminal, the request field over the side channel) …`,
    ...lines.slice(-tail),
  ].join('\n');
}

function indent(text: string): string {
  return text === ''
    ? '    (empty)'
    : text
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n');
}

/** The tool's name for a tool message: from the assistant call it answers, else its own `name`. */
function toolNameOf(message: WireMessage, messages: readonly WireMessage[]): string {
  for (const m of messages) {
    const call = m.tool_calls?.find((c) => c.id === message.tool_call_id);
    if (call) return call.function.name;
  }
  return message.name ?? 'tool';
}

function toolSignature(request: ChatRequest): string {
  return (request.tools ?? []).map((t) => t.function.name).join(', ');
}

export interface CompactViewInput {
  /** The request to show. */
  request: ChatRequest;
  /** The earlier request it continues (previousInConversation), or null for a new conversation. */
  previous: ChatRequest | null;
  /** A label for the request, e.g. its id on the endpoint. */
  label: string;
  maxLines?: number;
}

export function compactView({ request, previous, label, maxLines = COMPACT_MESSAGE_LINES }: CompactViewInput): string {
  const fresh = previous === null;
  const start = fresh ? 0 : previous.messages.length;
  const out: string[] = [];
  const shape =
    request.response_format?.type === 'json_schema' ? ' · answer: JSON matching the response_format schema' : '';
  out.push(
    `── ${label} · model ${request.model} · ${request.messages.length} ` +
      `message(s)${fresh ? ' · new conversation' : `, ${request.messages.length - start} new`}${shape} ──`,
  );
  const tools = toolSignature(request);
  if (fresh || toolSignature(previous) !== tools)
    out.push(tools ? `tools: ${tools}` : 'tools: none (answer with text)');
  for (const message of request.messages.slice(start)) {
    const text = messageText(message);
    switch (message.role) {
      case 'system':
      case 'developer':
        out.push(`[${message.role}]`, indent(cut(text, maxLines)));
        break;
      case 'user':
        out.push('[user]', indent(cut(text, maxLines)));
        break;
      case 'tool':
        out.push(`[tool ${toolNameOf(message, request.messages)}]`, indent(cut(text, maxLines)));
        break;
      case 'assistant': {
        // The person's own earlier answer; only its calls are named, to keep the thread readable.
        const calls = (message.tool_calls ?? []).map((c) => c.function.name);
        out.push(`[assistant] ${calls.length > 0 ? `called ${calls.join(', ')}` : cut(text, 3).split('\n')[0]}`);
        break;
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** The request's tools with their parameters, for a person deciding how to call one. */
export function toolsHelp(request: ChatRequest): string {
  const tools = request.tools ?? [];
  if (tools.length === 0) return 'This request offers no tools: answer with text.\n';
  const lines: string[] = [];
  for (const t of tools) {
    const params = (t.function.parameters ?? {}) as {
      properties?: Record<string, { type?: unknown }>;
      required?: unknown;
    };
    const required = new Set(Array.isArray(params.required) ? (params.required as string[]) : []);
    const args = Object.entries(params.properties ?? {}).map(
      ([name, p]) => `${name}${required.has(name) ? '' : '?'}: ${typeof p.type === 'string' ? p.type : 'any'}`,
    );
    lines.push(
      `${t.function.name}(${args.join(', ')})` +
        (t.function.description ? `  ${t.function.description.split('\n')[0]}` : ''),
    );
  }
  return `${lines.join('\n')}\n`;
}
