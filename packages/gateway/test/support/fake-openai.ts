import type { ChatCompletion } from 'openai/resources/chat/completions';
import {
  startFakeJsonServer,
  type JsonReply,
  type JsonRequest,
} from '../../../providers/test/support/fake-json-server';

/**
 * A local server speaking OpenAI Chat Completions, the protocol of the profile's provider behind the
 * gateway, scripted per test.
 */
export type ProviderRequest = JsonRequest;
export type ProviderReply = JsonReply;

export interface FakeProvider {
  /** The base URL as a profile names it (with /v1). */
  url: string;
  requests: ProviderRequest[];
  close(): Promise<void>;
}

export async function startFakeProvider(
  reply: (request: ProviderRequest, index: number) => ProviderReply,
): Promise<FakeProvider> {
  const server = await startFakeJsonServer(reply);
  return { url: `${server.origin}/v1`, requests: server.requests, close: server.close };
}

/** A chat completion as OpenAI sends it: text and/or tool calls, with usage. */
export function completion(answer: {
  content?: string | null;
  toolCalls?: { id: string; name: string; arguments: string }[];
  usage?: [number, number];
  model?: string;
  finish?: string;
}): ChatCompletion {
  const calls = answer.toolCalls ?? [];
  const [prompt, out] = answer.usage ?? [100, 20];
  return {
    id: `chatcmpl-fake${Math.random().toString(36).slice(2, 8)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: answer.model ?? 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content ?? null,
          refusal: null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        finish_reason: (answer.finish ??
          (calls.length > 0 ? 'tool_calls' : 'stop')) as ChatCompletion.Choice['finish_reason'],
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: out, total_tokens: prompt + out },
  };
}

export function providerError(status: number, message: string, headers: Record<string, string> = {}): ProviderReply {
  return {
    status,
    headers,
    json: {
      error: { message, type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', param: null, code: null },
    },
  };
}
