import type { ContentBlock, Message } from '@anthropic-ai/sdk/resources/messages/messages';
import { startFakeJsonServer, type JsonReply, type JsonRequest } from './fake-json-server';

/** A local server speaking Anthropic's Messages API (`POST /v1/messages`), scripted per test. */
export type AnthropicRequest = JsonRequest;
export type AnthropicReply = JsonReply;

export interface FakeAnthropic {
  /** The base URL as a profile names it (no /v1). */
  url: string;
  requests: AnthropicRequest[];
  close(): Promise<void>;
}

export async function startFakeAnthropic(
  reply: (request: AnthropicRequest, index: number) => AnthropicReply,
): Promise<FakeAnthropic> {
  const server = await startFakeJsonServer(reply);
  return { url: server.origin, requests: server.requests, close: server.close };
}

/** A message as Anthropic sends it: text, thinking and tool_use blocks with usage. */
export function anthropicMessage(answer: {
  text?: string;
  thinking?: string;
  toolUse?: { id: string; name: string; input: unknown }[];
  usage?: [number, number];
  stop?: Message['stop_reason'];
}): Message {
  const content: ContentBlock[] = [];
  if (answer.thinking) content.push({ type: 'thinking', thinking: answer.thinking, signature: 'sig' });
  if (answer.text) content.push({ type: 'text', text: answer.text, citations: null });
  for (const t of answer.toolUse ?? [])
    content.push({ type: 'tool_use', id: t.id, name: t.name, input: t.input, caller: { type: 'direct' } });
  const [input, output] = answer.usage ?? [100, 20];
  return {
    id: `msg_fake${Math.random().toString(36).slice(2, 8)}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: answer.stop ?? ((answer.toolUse ?? []).length > 0 ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: {
      input_tokens: input,
      output_tokens: output,
      cache_creation: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: null,
      speed: null,
    },
  };
}

export function anthropicError(status: number, message: string, headers: Record<string, string> = {}): AnthropicReply {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 401
        ? 'authentication_error'
        : status === 529
          ? 'overloaded_error'
          : 'invalid_request_error';
  return { status, headers, json: { type: 'error', error: { type, message }, request_id: 'req_fake' } };
}
