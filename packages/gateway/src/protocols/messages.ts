import type {
  ContentBlock,
  Message,
  RawMessageStreamEvent,
  StopReason,
  Usage,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { AgentMessage, AgentToolCall, AgentToolSpec } from '@gitbench/providers';
import {
  argumentsObject,
  bad,
  parseToolList,
  callNames,
  isRecord,
  newId,
  partsText,
  turnOf,
  type BackendAnswer,
  type GatewayTurn,
} from '../conversation';
import { sseEvent, type ProtocolCodec } from './codec';

/**
 * Anthropic Messages (`POST /v1/messages`): what Claude Code speaks. A user turn's tool_result blocks
 * become tool messages (before any text of that turn, as the results answer the previous turn); an
 * assistant turn's tool_use blocks become its tool calls. Thinking blocks are not carried to another
 * backend (their signatures only mean something to Anthropic). Wire shapes are @anthropic-ai/sdk's types.
 */

function parseTools(value: unknown): AgentToolSpec[] {
  // Server tools (web_search, bash_20250124 and the like) have a `type` and no schema: not offered.
  return parseToolList(value, (t) =>
    t.type === undefined || t.type === 'custom'
      ? { name: t.name, description: t.description, parameters: t.input_schema }
      : null,
  );
}

function parse(body: unknown): GatewayTurn {
  if (!isRecord(body)) throw bad('body', 'must be a JSON object');
  if (!Array.isArray(body.messages)) throw bad('messages', 'must be an array');
  const messages: AgentMessage[] = [];
  const errors = new Set<string>();
  if (body.system !== undefined && body.system !== null) {
    const system = partsText(body.system, 'system');
    if (system !== '') messages.push({ role: 'system', content: system });
  }
  body.messages.forEach((m, i) => {
    const f = `messages[${i}]`;
    if (!isRecord(m)) throw bad(f, 'must be an object');
    if (m.role !== 'user' && m.role !== 'assistant')
      throw bad(`${f}.role`, `'${String(m.role)}' is not user or assistant`);
    const blocks: unknown[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (!Array.isArray(m.content) && typeof m.content !== 'string')
      throw bad(`${f}.content`, 'must be a string or an array of content blocks');
    const texts: string[] = [];
    const calls: AgentToolCall[] = [];
    blocks.forEach((b, j) => {
      const bf = `${f}.content[${j}]`;
      if (!isRecord(b)) throw bad(bf, 'must be an object');
      switch (b.type) {
        case 'text':
          if (typeof b.text !== 'string') throw bad(`${bf}.text`, 'must be a string');
          texts.push(b.text);
          break;
        case 'tool_use':
          if (m.role !== 'assistant') throw bad(`${bf}.type`, 'tool_use belongs in an assistant message');
          if (typeof b.id !== 'string' || typeof b.name !== 'string')
            throw bad(bf, 'tool_use needs a string id and name');
          calls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
          break;
        case 'tool_result': {
          if (m.role !== 'user') throw bad(`${bf}.type`, 'tool_result belongs in a user message');
          if (typeof b.tool_use_id !== 'string') throw bad(`${bf}.tool_use_id`, 'must be a string');
          messages.push({
            role: 'tool',
            callId: b.tool_use_id,
            name: callNames(messages).get(b.tool_use_id) ?? '',
            content: partsText(b.content, `${bf}.content`),
          });
          if (b.is_error === true) errors.add(b.tool_use_id);
          break;
        }
        case 'image':
        case 'document':
          texts.push(`[${b.type} omitted by the gateway]`);
          break;
        // The model's own thoughts from earlier turns: meaningful to Anthropic alone.
        case 'thinking':
        case 'redacted_thinking':
          break;
        default:
          throw bad(
            `${bf}.type`,
            `'${String(b.type)}' is not served (text, tool_use, tool_result, image, document, thinking are)`,
          );
      }
    });
    const text = texts.join('\n');
    if (m.role === 'assistant')
      messages.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
    else if (text !== '') messages.push({ role: 'user', content: text });
  });
  return turnOf('messages', body, messages, parseTools(body.tools), errors, true);
}

function stopReason(answer: BackendAnswer): StopReason {
  if (answer.finishReason === 'length') return 'max_tokens';
  return answer.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

function usage(answer: BackendAnswer): Usage {
  return {
    input_tokens: answer.inputTokens ?? 0,
    output_tokens: answer.outputTokens ?? 0,
    cache_creation: null,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: null,
    speed: null,
  };
}

function blocks(answer: BackendAnswer): ContentBlock[] {
  const out: ContentBlock[] = [];
  if (answer.content) out.push({ type: 'text', text: answer.content, citations: null });
  for (const c of answer.toolCalls)
    out.push({
      type: 'tool_use',
      id: c.id,
      name: c.name,
      input: argumentsObject(c.arguments),
      caller: { type: 'direct' },
    });
  return out;
}

function message(
  answer: BackendAnswer,
  turn: GatewayTurn,
  content: ContentBlock[],
  stop: StopReason | null,
  id: string,
): Message {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: turn.requestedModel ?? answer.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: usage(answer),
  };
}

function render(answer: BackendAnswer, turn: GatewayTurn): Message {
  return message(answer, turn, blocks(answer), stopReason(answer), newId('msg_'));
}

/** message_start, each block's start, delta and stop, message_delta with the stop reason and usage, message_stop. */
function stream(answer: BackendAnswer, turn: GatewayTurn): { events: string; assembled: unknown } {
  const id = newId('msg_');
  const content = blocks(answer);
  const events: RawMessageStreamEvent[] = [
    {
      type: 'message_start',
      message: { ...message(answer, turn, [], null, id), usage: { ...usage(answer), output_tokens: 0 } },
    },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    events.push({ type: 'content_block_stop', index });
  });
  const u = usage(answer);
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason(answer), stop_sequence: null, stop_details: null, container: null },
    usage: {
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      output_tokens_details: null,
      server_tool_use: null,
    },
  });
  events.push({ type: 'message_stop' });
  return {
    events: events.map((e) => sseEvent(e.type, e)).join(''),
    assembled: message(answer, turn, content, stopReason(answer), id),
  };
}

/** Anthropic's error body: {type: 'error', error: {type, message}}. */
function error(status: number, _code: string, text: string): unknown {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 413
        ? 'request_too_large'
        : status === 401
          ? 'authentication_error'
          : status === 404
            ? 'not_found_error'
            : status === 529
              ? 'overloaded_error'
              : status >= 500
                ? 'api_error'
                : 'invalid_request_error';
  return { type: 'error', error: { type, message: text }, request_id: null };
}

export const anthropicMessages: ProtocolCodec = { protocol: 'messages', parse, render, stream, error };

/**
 * A rough count for `POST /v1/messages/count_tokens` (Claude Code asks it to size its context): four characters a
 * token.
 */
export function estimateInputTokens(body: unknown): number {
  return Math.ceil(JSON.stringify(body ?? '').length / 4);
}
