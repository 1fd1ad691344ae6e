import type { GatewayAnswer, GatewayProtocol, GatewayToolResult } from '@gitbench/core';
import type { AgentMessage, AgentToolSpec } from '@gitbench/providers';

/**
 * The neutral conversation every inbound protocol is read into and every answer is rendered from.
 * Messages and tools are the providers package's agent-chat shapes (what createAgentChat sends to an
 * OpenAI-compatible endpoint), so a provider backend passes them on untouched.
 */
export interface GatewayTurn {
  protocol: GatewayProtocol;
  /** The model name the agent asked for (the gateway answers with the target's model whatever it is). */
  requestedModel: string | null;
  messages: AgentMessage[];
  tools: AgentToolSpec[];
  /** The results after the last assistant message: what the previous step's tool calls returned. */
  toolResults: GatewayToolResult[];
  stream: boolean;
  /** Chat Completions only: send a usage chunk at the end of the stream. */
  streamUsage: boolean;
}

/** A backend's answer in neutral form, with what the record needs beside it. */
export interface BackendAnswer extends GatewayAnswer {
  /** The model that answered, as the backend names it. */
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  costUsd: number | null;
  costEstimated: boolean;
  retries: number;
}

/** A request the gateway refuses before asking anyone: the message names the field. */
export class GatewayRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly kind: 'bad_request' | 'builtin' | 'budget' | 'overloaded' | 'response_too_large' = 'bad_request',
  ) {
    super(message);
    this.name = 'GatewayRequestError';
  }
}

export function bad(field: string, problem: string): GatewayRequestError {
  return new GatewayRequestError(400, `${field}: ${problem}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A request's tool list: `read` gives each entry's name, description and schema, or null for a tool
 * with no neutral form (hosted and free-form tools), which is then not offered to the model.
 */
export function parseToolList(
  value: unknown,
  read: (
    tool: Record<string, unknown>,
    field: string,
  ) => { name: unknown; description: unknown; parameters: unknown } | null,
): AgentToolSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw bad('tools', 'must be an array');
  const tools: AgentToolSpec[] = [];
  value.forEach((t, i) => {
    if (!isRecord(t)) throw bad(`tools[${i}]`, 'must be an object');
    const spec = read(t, `tools[${i}]`);
    if (spec === null) return;
    if (typeof spec.name !== 'string') throw bad(`tools[${i}].name`, 'must be a string');
    tools.push({
      name: spec.name,
      description: typeof spec.description === 'string' ? spec.description : '',
      parameters: isRecord(spec.parameters) ? spec.parameters : { type: 'object', properties: {} },
    });
  });
  return tools;
}

/** Tool results travel as text to every backend; parts that are not text say what they were. */
export function partsText(content: unknown, field: string): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) throw bad(field, 'must be a string or an array of content parts');
  return content
    .map((part, i) => {
      if (!isRecord(part)) throw bad(`${field}[${i}]`, 'must be an object');
      if (typeof part.text === 'string') return part.text;
      if (typeof part.type === 'string' && /image/.test(part.type)) return '[image omitted by the gateway]';
      if (typeof part.type === 'string' && /refusal/.test(part.type) && typeof part.refusal === 'string')
        return part.refusal;
      return `[${typeof part.type === 'string' ? part.type : 'unknown'} part omitted by the gateway]`;
    })
    .join('');
}

/** The tool results of the last turn: the tool messages after the last assistant message. */
export function trailingToolResults(
  messages: readonly AgentMessage[],
  errors: ReadonlySet<string>,
): GatewayToolResult[] {
  const out: GatewayToolResult[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') break;
    if (m.role === 'tool')
      out.unshift({ callId: m.callId, name: m.name, content: m.content, isError: errors.has(m.callId) });
  }
  return out;
}

/** The turn a parsed request makes: what every protocol's parser returns once it has read the messages and tools. */
export function turnOf(
  protocol: GatewayProtocol,
  body: Record<string, unknown>,
  messages: AgentMessage[],
  tools: AgentToolSpec[],
  errors: ReadonlySet<string>,
  streamUsage: boolean,
): GatewayTurn {
  return {
    protocol,
    requestedModel: typeof body.model === 'string' ? body.model : null,
    messages,
    tools,
    toolResults: trailingToolResults(messages, errors),
    stream: body.stream === true,
    streamUsage,
  };
}

/** A tool's name by the id of the call it answers, from the assistant turns before it. */
export function callNames(messages: readonly AgentMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
  return names;
}

/** Arguments as an object (Anthropic's tool_use.input); text that is not a JSON object is kept under `raw`. */
export function argumentsObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return isRecord(parsed) ? parsed : { raw: text };
  } catch {
    return { raw: text };
  }
}

let counter = 0;
const prefix = Math.random().toString(36).slice(2, 8);
/** Ids for responses, messages and calls the gateway makes up: unique per process, never reused. */
export function newId(kind: string): string {
  counter += 1;
  return `${kind}${prefix}${counter.toString(36).padStart(6, '0')}`;
}
