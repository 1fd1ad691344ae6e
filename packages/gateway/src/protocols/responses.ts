import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { AgentMessage, AgentToolSpec } from '@gitbench/providers';
import {
  bad,
  parseToolList,
  isRecord,
  newId,
  partsText,
  turnOf,
  type BackendAnswer,
  type GatewayTurn,
} from '../conversation';
import { openAIError } from './chat-completions';
import { sseEvent, type ProtocolCodec } from './codec';

/**
 * The OpenAI Responses API (`POST /v1/responses`): what Codex CLI speaks. The gateway keeps no
 * conversation state, so a request must carry its whole input (Codex sends `store: false` and does);
 * `previous_response_id` is refused with a message saying so. Wire shapes are the openai SDK's types.
 */

function parseTools(value: unknown): AgentToolSpec[] {
  // Hosted tools (web_search, file_search) and free-form custom tools have no neutral form: not offered.
  return parseToolList(value, (t) =>
    t.type === 'function' ? { name: t.name, description: t.description, parameters: t.parameters } : null,
  );
}

function parse(body: unknown): GatewayTurn {
  if (!isRecord(body)) throw bad('body', 'must be a JSON object');
  if (typeof body.previous_response_id === 'string') {
    throw bad(
      'previous_response_id',
      'is not supported: the gateway keeps no conversations; send the whole input (store: false)',
    );
  }
  const messages: AgentMessage[] = [];
  const errors = new Set<string>();
  if (typeof body.instructions === 'string' && body.instructions !== '')
    messages.push({ role: 'system', content: body.instructions });
  const names = new Map<string, string>();
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  if (!Array.isArray(input)) throw bad('input', 'must be a string or an array of input items');
  input.forEach((item, i) => {
    const f = `input[${i}]`;
    if (!isRecord(item)) throw bad(f, 'must be an object');
    const type = item.type ?? 'message';
    switch (type) {
      case 'message': {
        const content = partsText(item.content, `${f}.content`);
        if (item.role === 'system' || item.role === 'developer') messages.push({ role: 'system', content });
        else if (item.role === 'user') messages.push({ role: 'user', content });
        else if (item.role === 'assistant') messages.push({ role: 'assistant', content });
        else throw bad(`${f}.role`, `'${String(item.role)}' is not one of system, developer, user, assistant`);
        break;
      }
      case 'function_call': {
        if (typeof item.call_id !== 'string') throw bad(`${f}.call_id`, 'must be a string');
        if (typeof item.name !== 'string') throw bad(`${f}.name`, 'must be a string');
        const call = {
          id: item.call_id,
          name: item.name,
          arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
        };
        names.set(call.id, call.name);
        // Consecutive calls (and the text before them) are one assistant turn.
        const last = messages[messages.length - 1];
        if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
        else messages.push({ role: 'assistant', content: null, toolCalls: [call] });
        break;
      }
      case 'function_call_output': {
        if (typeof item.call_id !== 'string') throw bad(`${f}.call_id`, 'must be a string');
        messages.push({
          role: 'tool',
          callId: item.call_id,
          name: names.get(item.call_id) ?? '',
          content: partsText(item.output, `${f}.output`),
        });
        if (item.status === 'incomplete') errors.add(item.call_id);
        break;
      }
      // Reasoning items carry the model's own (often encrypted) thoughts back: nothing to send to another backend.
      case 'reasoning':
        break;
      default:
        throw bad(
          `${f}.type`,
          `'${String(type)}' is not served (message, function_call, function_call_output, reasoning are)`,
        );
    }
  });
  return turnOf('responses', body, messages, parseTools(body.tools), errors, true);
}

/** A stream event before it is numbered (Omit distributed over the union). */
type Unsequenced<T> = T extends unknown ? Omit<T, 'sequence_number'> : never;

function outputItems(answer: BackendAnswer): ResponseOutputItem[] {
  const items: ResponseOutputItem[] = [];
  if (answer.content) {
    items.push({
      type: 'message',
      id: newId('msg_'),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer.content, annotations: [] }],
    });
  }
  for (const c of answer.toolCalls)
    items.push({
      type: 'function_call',
      id: newId('fc_'),
      call_id: c.id,
      name: c.name,
      arguments: c.arguments,
      status: 'completed',
    });
  return items;
}

function response(
  answer: BackendAnswer,
  turn: GatewayTurn,
  output: ResponseOutputItem[],
  status: 'in_progress' | 'completed' | 'incomplete',
  id: string,
  created: number,
): Response {
  const input = answer.inputTokens ?? 0;
  const out = answer.outputTokens ?? 0;
  return {
    id,
    object: 'response',
    created_at: created,
    status,
    model: turn.requestedModel ?? answer.model,
    output,
    output_text: status === 'in_progress' ? '' : (answer.content ?? ''),
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    metadata: null,
    parallel_tool_calls: true,
    temperature: null,
    top_p: null,
    tool_choice: 'auto',
    tools: turn.tools.map((t) => ({
      type: 'function' as const,
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
    })),
    ...(status === 'in_progress'
      ? {}
      : {
          usage: {
            input_tokens: input,
            input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
            output_tokens: out,
            output_tokens_details: { reasoning_tokens: answer.reasoningTokens ?? 0 },
            total_tokens: input + out,
          },
        }),
  };
}

const finalStatus = (answer: BackendAnswer) => (answer.finishReason === 'length' ? 'incomplete' : 'completed');

function render(answer: BackendAnswer, turn: GatewayTurn): Response {
  return response(
    answer,
    turn,
    outputItems(answer),
    finalStatus(answer),
    newId('resp_'),
    Math.floor(Date.now() / 1000),
  );
}

/** created, in_progress, each item added (text deltas or argument deltas) and done, then completed or incomplete. */
function stream(answer: BackendAnswer, turn: GatewayTurn): { events: string; assembled: unknown } {
  const id = newId('resp_');
  const created = Math.floor(Date.now() / 1000);
  const items = outputItems(answer);
  const events: ResponseStreamEvent[] = [];
  let seq = 0;
  const push = (e: Unsequenced<ResponseStreamEvent>) =>
    events.push({ ...e, sequence_number: seq++ } as ResponseStreamEvent);
  push({ type: 'response.created', response: response(answer, turn, [], 'in_progress', id, created) });
  push({ type: 'response.in_progress', response: response(answer, turn, [], 'in_progress', id, created) });
  items.forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = answer.content ?? '';
      push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } });
      push({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      push({
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index,
        content_index: 0,
        delta: text,
        logprobs: [],
      });
      push({ type: 'response.output_text.done', item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
      push({
        type: 'response.content_part.done',
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text, annotations: [] },
      });
    } else if (item.type === 'function_call') {
      const itemId = item.id!;
      push({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index, delta: item.arguments });
      push({
        type: 'response.function_call_arguments.done',
        item_id: itemId,
        output_index,
        name: item.name,
        arguments: item.arguments,
      });
    }
    push({ type: 'response.output_item.done', output_index, item });
  });
  const done = response(answer, turn, items, finalStatus(answer), id, created);
  push({ type: done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response: done });
  return { events: events.map((e) => sseEvent(e.type, e)).join(''), assembled: done };
}

export const responses: ProtocolCodec = { protocol: 'responses', parse, render, stream, error: openAIError };
