import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletion } from 'openai/resources/chat/completions';

/**
 * A local server speaking OpenAI Chat Completions, the protocol of the profile's provider behind the
 * gateway, scripted per test. It records what the gateway sent, and when.
 */
export interface ProviderRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  receivedAt: number;
}

export interface ProviderReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  delayMs?: number;
}

export interface FakeProvider {
  url: string;
  requests: ProviderRequest[];
  close(): Promise<void>;
}

export async function startFakeProvider(
  reply: (request: ProviderRequest, index: number) => ProviderReply,
): Promise<FakeProvider> {
  const requests: ProviderRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
        receivedAt: Date.now(),
      };
      const index = requests.push(seen) - 1;
      const r = reply(seen, index);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
        res.end(JSON.stringify(r.json ?? {}));
      }, r.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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
