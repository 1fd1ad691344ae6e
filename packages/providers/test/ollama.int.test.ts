import { afterEach, describe, expect, it } from 'vitest';
import { RetriesExhaustedError } from '@gitbench/core';
import { RequestBudget } from '../src/budget';
import { createOllamaProvider } from '../src/ollama';
import { startFakeModelServer, type FakeModelServer, type Handler } from './support/fake-model-server';
import { FAST_POLICY, testProfile } from './support/profiles';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ollama(handler: Handler, policy: Partial<typeof FAST_POLICY> = {}, baseSuffix = '') {
  server = await startFakeModelServer(handler);
  const provider = createOllamaProvider({
    profile: testProfile({ provider: 'ollama', baseUrl: `${server.url}${baseSuffix}`, apiKeyEnv: null }),
    budget: new RequestBudget(),
    capacityGroupOf: (m) => `ollama:${m}`,
    policy: { ...FAST_POLICY, ...policy },
    random: () => 0.5,
  });
  return { provider, server };
}

function chatReply(content: string, extra: Record<string, unknown> = {}) {
  return {
    json: {
      model: 'qwen3:8b',
      created_at: '2026-06-29T23:06:17Z',
      message: { role: 'assistant', content, ...extra },
      done: true,
      prompt_eval_count: 42,
      eval_count: 7,
    },
  };
}

const SCHEMA = { type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'] };

describe('Ollama provider against a local /api/chat server', () => {
  it('keeps the model tag, sends the schema as format, maps effort to think, and records tokens', async () => {
    const { provider, server: s } = await ollama(
      () => chatReply('{"branch":"main"}', { thinking: 'Look at HEAD.' }),
      {},
      '/v1',
    );
    const result = await provider.complete({
      model: 'qwen3:8b#high',
      prompt: 'Which branch?',
      outputMode: 'json_schema',
      schema: SCHEMA,
    });
    expect(s.requests[0]?.url).toBe('/api/chat');
    expect(s.requests[0]?.body).toMatchObject({ model: 'qwen3:8b', stream: false, think: 'high', format: SCHEMA });
    expect(result.structuredOutput).toEqual({ branch: 'main' });
    expect(result.reasoning).toBe('Look at HEAD.');
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 7, reasoningTokens: null, totalTokens: 49 });
    expect(result.cost).toEqual({ source: 'unknown', usd: null });
    expect(result.route).toMatchObject({ provider: 'ollama', servedModel: 'qwen3:8b' });
  });

  it('parses a tag-only model id without taking the tag for an effort', async () => {
    const { provider, server: s } = await ollama(() => chatReply('ok'));
    await provider.complete({ model: 'llama3.1:8b', prompt: 'p', outputMode: 'text' });
    expect(s.requests[0]?.body.model).toBe('llama3.1:8b');
    expect(s.requests[0]?.body).not.toHaveProperty('think');
  });

  it('turns thinking off for effort none (qwen3:none)', async () => {
    const { provider, server: s } = await ollama(() => chatReply('ok'));
    await provider.complete({ model: 'qwen3:none', prompt: 'p', outputMode: 'text' });
    expect(s.requests[0]?.body).toMatchObject({ model: 'qwen3', think: false });
  });

  it('treats an unknown model as a configuration error and a 500 as transient', async () => {
    const { provider } = await ollama((req) =>
      req.body.model === 'nope'
        ? { status: 404, json: { error: "model 'nope' not found" } }
        : { status: 500, json: { error: 'runner crashed' } },
    );
    await expect(provider.complete({ model: 'nope', prompt: 'p', outputMode: 'text' })).rejects.toMatchObject({
      kind: 'configuration',
      code: 'model_not_found',
    });
    const crashed = await provider
      .complete({ model: 'llama3.1:8b', prompt: 'p', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(RetriesExhaustedError);
    expect((crashed as RetriesExhaustedError).retries.map((r) => r.reason)).toEqual([
      'server_error',
      'server_error',
      'server_error',
    ]);
  });

  it('aborts a generation slower than the timeout', async () => {
    const { provider, server: s } = await ollama(() => ({ delayMs: 3_000, ...chatReply('late') }), {
      timeoutMs: 200,
      maxAttempts: 1,
    });
    await expect(provider.complete({ model: 'llama3.1:8b', prompt: 'p', outputMode: 'text' })).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(await s.requests[0]?.closedEarly).toBe(true);
  });
});
