import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { AgentMessage, AgentToolCall, AgentToolSpec } from '@gitbench/providers';
import {
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
import { sseData, type ProtocolCodec } from './codec';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`): what most agents speak to "OpenAI-compatible"
 * endpoints (opencode, qwen-code, pi). Wire shapes are the openai SDK's types.
 */

function parseToolCalls(value: unknown, field: string): AgentToolCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw bad(field, 'must be an array');
  return value.map((c, i) => {
    const f = `${field}[${i}]`;
    if (!isRecord(c) || !isRecord(c.function))
      throw bad(f, 'must be {id, type: "function", function: {name, arguments}}');
    if (typeof c.id !== 'string') throw bad(`${f}.id`, 'must be a string');
    if (typeof c.function.name !== 'string') throw bad(`${f}.function.name`, 'must be a string');
    const args = c.function.arguments;
    return {
      id: c.id,
      name: c.function.name,
      arguments: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args),
    };
  });
}

function parseTools(value: unknown): AgentToolSpec[] {
  // Only function tools reach a model through the neutral shape; others (custom grammars) are not offered.
  return parseToolList(value, (t, field) => {
    if (t.type !== undefined && t.type !== 'function') return null;
    if (!isRecord(t.function)) throw bad(`${field}.function`, 'must be an object');
    return t.function as { name: unknown; description: unknown; parameters: unknown };
  });
}

function parse(body: unknown): GatewayTurn {
  if (!isRecord(body)) throw bad('body', 'must be a JSON object');
  if (!Array.isArray(body.messages)) throw bad('messages', 'must be an array');
  const messages: AgentMessage[] = [];
  body.messages.forEach((m, i) => {
    const f = `messages[${i}]`;
    if (!isRecord(m)) throw bad(f, 'must be an object');
    switch (m.role) {
      case 'system':
      case 'developer':
        messages.push({ role: 'system', content: partsText(m.content, `${f}.content`) });
        break;
      case 'user':
        messages.push({ role: 'user', content: partsText(m.content, `${f}.content`) });
        break;
      case 'assistant': {
        const toolCalls = parseToolCalls(m.tool_calls, `${f}.tool_calls`);
        const content = m.content === null || m.content === undefined ? null : partsText(m.content, `${f}.content`);
        messages.push({ role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
        break;
      }
      case 'tool': {
        if (typeof m.tool_call_id !== 'string') throw bad(`${f}.tool_call_id`, 'must be a string');
        const name = callNames(messages).get(m.tool_call_id) ?? (typeof m.name === 'string' ? m.name : '');
        messages.push({ role: 'tool', callId: m.tool_call_id, name, content: partsText(m.content, `${f}.content`) });
        break;
      }
      default:
        throw bad(`${f}.role`, `'${String(m.role)}' is not one of system, developer, user, assistant, tool`);
    }
  });
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  // Chat Completions has no error flag on a tool message.
  return turnOf('chat_completions', body, messages, parseTools(body.tools), new Set(), options.include_usage === true);
}

const FINISH: Record<string, ChatCompletion.Choice['finish_reason']> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};
const finishReason = (answer: BackendAnswer) =>
  FINISH[answer.finishReason ?? ''] ?? (answer.toolCalls.length > 0 ? 'tool_calls' : 'stop');

function usage(answer: BackendAnswer): NonNullable<ChatCompletion['usage']> {
  const prompt = answer.inputTokens ?? 0;
  const completion = answer.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(answer.reasoningTokens !== null
      ? { completion_tokens_details: { reasoning_tokens: answer.reasoningTokens } }
      : {}),
  };
}

function render(
  answer: BackendAnswer,
  turn: GatewayTurn,
  id = newId('chatcmpl-'),
  created = Math.floor(Date.now() / 1000),
): ChatCompletion {
  return {
    id,
    object: 'chat.completion',
    created,
    model: turn.requestedModel ?? answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content,
          refusal: null,
          ...(answer.toolCalls.length > 0
            ? {
                tool_calls: answer.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        finish_reason: finishReason(answer),
        logprobs: null,
      },
    ],
    usage: usage(answer),
  };
}

/** The chunks of a stream: role, the text, each call's name then its arguments, the finish, usage if asked, [DONE]. */
function stream(answer: BackendAnswer, turn: GatewayTurn): { events: string; assembled: unknown } {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const model = turn.requestedModel ?? answer.model;
  const chunk = (
    delta: ChatCompletionChunk.Choice.Delta,
    finish: ChatCompletionChunk.Choice['finish_reason'] = null,
  ): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const chunks: ChatCompletionChunk[] = [chunk({ role: 'assistant', content: '' })];
  if (answer.content) chunks.push(chunk({ content: answer.content }));
  answer.toolCalls.forEach((c, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }),
    );
    if (c.arguments !== '') chunks.push(chunk({ tool_calls: [{ index, function: { arguments: c.arguments } }] }));
  });
  chunks.push(chunk({}, finishReason(answer)));
  if (turn.streamUsage)
    chunks.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usage(answer) });
  return {
    events: chunks.map((c) => sseData(c)).join('') + 'data: [DONE]\n\n',
    assembled: render(answer, turn, id, created),
  };
}

/** OpenAI's error body: {error: {message, type, param, code}}. */
export function openAIError(status: number, code: string, message: string): unknown {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 401
        ? 'authentication_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';
  return { error: { message, type, param: null, code } };
}

export const chatCompletions: ProtocolCodec = {
  protocol: 'chat_completions',
  parse,
  render: (a, t) => render(a, t),
  stream,
  error: openAIError,
};
