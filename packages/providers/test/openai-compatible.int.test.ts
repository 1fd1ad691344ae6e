import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, RetriesExhaustedError, classifyError } from '@gitbench/core';
import { RequestBudget } from '../src/budget';
import {
  chatCompletion,
  openAIError,
  startFakeModelServer,
  type FakeModelServer,
  type Handler,
} from './support/fake-model-server';
import { openAIProvider, TEST_KEY } from './support/profiles';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler): Promise<FakeModelServer> {
  server = await startFakeModelServer(handler);
  return server;
}

const SCHEMA = {
  type: 'object',
  properties: { commit_message: { type: 'string' } },
  required: ['commit_message'],
  additionalProperties: false,
};

describe('OpenAI-compatible provider against a local chat-completions server', () => {
  it('records a normal answer with usage, route and a request configuration free of secrets', async () => {
    const s = await serve(() => ({
      json: chatCompletion({
        content: 'git log --oneline -3',
        model: 'gpt-4o-mini-2024-07-18',
        usage: { prompt: 120, completion: 8 },
      }),
    }));
    const provider = openAIProvider(`${s.url}/v1`);
    const result = await provider.complete({
      model: 'gpt-4o-mini',
      prompt: 'Show the last 3 commits',
      outputMode: 'text',
    });

    expect(result.output).toBe('git log --oneline -3');
    expect(result.qualityFailure).toBeNull();
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 8, reasoningTokens: null, totalTokens: 128 });
    // No cost reported: estimated from the dated price table (0.15 / 0.60 USD per million tokens).
    expect(result.cost).toEqual({ source: 'estimated', usd: (120 * 0.15 + 8 * 0.6) / 1e6, priceDate: '2024-07-18' });
    expect(result.route).toMatchObject({
      provider: 'openai',
      requestedModel: 'gpt-4o-mini',
      servedModel: 'gpt-4o-mini-2024-07-18',
      simulated: false,
    });
    expect(result.route.responseId).toMatch(/^chatcmpl-/);
    expect(result.apiDurationMs).toBeGreaterThan(0);
    expect(result.retries).toEqual([]);
    expect(result.transcript).toEqual([
      { role: 'user', content: 'Show the last 3 commits' },
      { role: 'assistant', content: 'git log --oneline -3' },
    ]);
    expect(s.requests[0]?.url).toBe('/v1/chat/completions');
    expect(s.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(s.requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Show the last 3 commits' }],
    });
    expect(JSON.stringify(result)).not.toContain(TEST_KEY);
  });

  it('sends reasoning_effort to OpenAI-style servers and records reasoning text and tokens', async () => {
    const s = await serve(() => ({
      json: chatCompletion({
        content: 'main',
        reasoning: 'The branch is main.',
        reasoningField: 'reasoning_content',
        usage: { prompt: 50, completion: 40, reasoning: 32 },
      }),
    }));
    const result = await openAIProvider(`${s.url}/v1`).complete({
      model: 'o3-mini#high',
      prompt: 'Which branch?',
      outputMode: 'text',
    });
    expect(s.requests[0]?.body).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high' });
    expect(s.requests[0]?.body).not.toHaveProperty('reasoning');
    expect(result.model).toMatchObject({ baseModel: 'o3-mini', effort: 'high' });
    expect(result.usage.reasoningTokens).toBe(32);
    expect(result.reasoning).toBe('The branch is main.');
    expect(result.transcript[1]).toEqual({ role: 'assistant', content: 'main', reasoning: 'The branch is main.' });
    expect(result.requestConfig).toMatchObject({ reasoning_effort: 'high', model: 'o3-mini' });
  });

  it('sends OpenRouter its reasoning object, reads usage.cost, and flags reasoning under effort none', async () => {
    const s = await serve((req) => ({
      json: chatCompletion({
        content: 'ok',
        provider: 'DeepInfra',
        reasoning: (req.body.reasoning as { enabled?: boolean }).enabled === false ? 'thought anyway' : undefined,
        usage: { prompt: 248, completion: 17, reasoning: 0, cost: 0.00011592 },
      }),
    }));
    const provider = openAIProvider(`${s.url}/api/v1`, { profile: { provider: 'openrouter' } });
    const high = await provider.complete({ model: 'openai/gpt-oss-120b:high', prompt: 'p', outputMode: 'text' });
    expect(s.requests[0]?.body).toMatchObject({
      model: 'openai/gpt-oss-120b',
      reasoning: { effort: 'high' },
      usage: { include: true },
    });
    expect(s.requests[0]?.body).not.toHaveProperty('reasoning_effort');
    expect(high.cost).toEqual({ source: 'provider', usd: 0.00011592 });
    expect(high.route.upstreamProvider).toBe('DeepInfra');
    expect(high.flags).toEqual([]);

    const none = await provider.complete({ model: 'openai/gpt-oss-120b#none', prompt: 'p', outputMode: 'text' });
    expect(s.requests[1]?.body).toMatchObject({ reasoning: { enabled: false } });
    expect(none.reasoning).toBe('thought anyway');
    expect(none.flags).toEqual(['reasoning_despite_effort_none']);
  });

  it('marks cost unknown (never 0) when neither the provider nor the price table knows it', async () => {
    const s = await serve(() => ({ json: chatCompletion({ content: 'x' }) }));
    const result = await openAIProvider(`${s.url}/v1`).complete({
      model: 'some-lab/unpriced-model',
      prompt: 'p',
      outputMode: 'text',
    });
    expect(result.cost).toEqual({ source: 'unknown', usd: null });
  });

  it('asks for strict json_schema output with the fixture contract and accepts a conforming answer', async () => {
    const s = await serve(() => ({ json: chatCompletion({ content: '{"commit_message":"Fix typo"}' }) }));
    const result = await openAIProvider(`${s.url}/v1`).complete({
      model: 'm',
      prompt: 'p',
      outputMode: 'json_schema',
      schema: SCHEMA,
      schemaName: 'commit message',
    });
    expect(s.requests[0]?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'commit_message', strict: true, schema: SCHEMA },
    });
    expect(result.qualityFailure).toBeNull();
    expect(result.structuredOutput).toEqual({ commit_message: 'Fix typo' });
  });

  it('classifies malformed JSON from the model as a quality failure, with the answer kept', async () => {
    const s = await serve(() => ({ json: chatCompletion({ content: '{"commit_message": "Fix typo"' }) }));
    const result = await openAIProvider(`${s.url}/v1`).complete({
      model: 'm',
      prompt: 'p',
      outputMode: 'json_schema',
      schema: SCHEMA,
    });
    expect(result.qualityFailure?.code).toBe('malformed_json');
    expect(result.output).toBe('{"commit_message": "Fix typo"');
    expect(result.usage.inputTokens).toBe(10);
    expect(s.requests).toHaveLength(1);
  });

  it('classifies structured output that violates the contract as a quality failure', async () => {
    const s = await serve(() => ({ json: chatCompletion({ content: '{"message":"Fix typo"}' }) }));
    const result = await openAIProvider(`${s.url}/v1`).complete({
      model: 'm',
      prompt: 'p',
      outputMode: 'json_schema',
      schema: SCHEMA,
    });
    expect(result.qualityFailure?.code).toBe('schema_violation');
    expect(result.qualityFailure?.message).toMatch(/commit_message/);
    expect(result.structuredOutput).toBeUndefined();
  });

  it('honours Retry-After on 429, and holds the whole capacity group during the cooldown', async () => {
    let first = true;
    const s = await serve((req) => {
      if (req.body.messages && first) {
        first = false;
        return openAIError(429, 'slow down', { 'retry-after': '1' });
      }
      return { json: chatCompletion({ content: 'ok' }) };
    });
    const budget = new RequestBudget();
    const provider = openAIProvider(`${s.url}/v1`, { budget });
    // The second request must start inside the cooldown: wait for the 429 to reach the budget rather than
    // for a fixed time, which a loaded machine can overrun (the 429 then arrives after the second is sent).
    const cooling = new Promise<void>((resolve) => {
      const report = budget.reportRateLimited.bind(budget);
      budget.reportRateLimited = (group, retryAfterMs) => {
        report(group, retryAfterMs);
        resolve();
      };
    });
    const started = Date.now();
    const limited = provider.complete({ model: 'shared-model', prompt: 'first', outputMode: 'text' });
    await cooling;
    // Another request to the same group, sent during the cooldown: it must wait too.
    const other = await provider.complete({ model: 'shared-model', prompt: 'second', outputMode: 'text' });
    const result = await limited;

    expect(result.retries).toEqual([
      expect.objectContaining({
        attempt: 1,
        reason: 'rate_limited',
        status: 429,
        waitMs: 1000,
        waitSource: 'retry_after',
      }),
    ]);
    expect(other.retries).toEqual([]);
    const secondArrival = s.requests.find((r) => JSON.stringify(r.body).includes('second'))?.receivedAt ?? 0;
    expect(secondArrival - started).toBeGreaterThanOrEqual(950);
    expect(s.requests).toHaveLength(3);
  });

  it('backs off exponentially on 429 without Retry-After', async () => {
    const s = await serve((_req, i) =>
      i < 2 ? openAIError(429, 'busy') : { json: chatCompletion({ content: 'ok' }) },
    );
    const result = await openAIProvider(`${s.url}/v1`).complete({ model: 'm', prompt: 'p', outputMode: 'text' });
    // random() = 0.5 in tests: equal jitter gives 3/4 of the ceiling (10 ms, then 20 ms).
    expect(result.retries.map((r) => [r.reason, r.waitSource, r.waitMs])).toEqual([
      ['rate_limited', 'backoff', 8],
      ['rate_limited', 'backoff', 15],
    ]);
  });

  it('retries 500s and succeeds; gives up after the configured attempts as a transient failure', async () => {
    const s = await serve((_req, i) =>
      i < 1 ? openAIError(500, 'boom') : { json: chatCompletion({ content: 'ok' }) },
    );
    const ok = await openAIProvider(`${s.url}/v1`).complete({ model: 'm', prompt: 'p', outputMode: 'text' });
    expect(ok.output).toBe('ok');
    expect(ok.retries).toEqual([
      expect.objectContaining({ reason: 'server_error', status: 500, waitSource: 'backoff' }),
    ]);

    await s.close();
    const always = await serve(() => openAIError(503, 'down'));
    const error = await openAIProvider(`${always.url}/v1`, { policy: { maxAttempts: 3 } })
      .complete({ model: 'm', prompt: 'p', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect(classifyError(error)).toBe('transient');
    expect((error as RetriesExhaustedError).retries).toHaveLength(3);
    expect(always.requests).toHaveLength(3);
  });

  it('aborts the HTTP request when the answer is slower than the timeout', async () => {
    const s = await serve(() => ({ delayMs: 3_000, json: chatCompletion({ content: 'late' }) }));
    const started = Date.now();
    const error = await openAIProvider(`${s.url}/v1`, { policy: { timeoutMs: 200, maxAttempts: 1 } })
      .complete({ model: 'm', prompt: 'p', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect((error as RetriesExhaustedError).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
    // The server sees the client hang up: nothing is left running (and billing).
    expect(await s.requests[0]?.closedEarly).toBe(true);
  });

  it('fails fast on 401 and 404 with a message naming what to fix', async () => {
    const s = await serve((req) =>
      req.body.model === 'missing-model'
        ? openAIError(404, 'The model `missing-model` does not exist')
        : openAIError(401, 'Invalid API key'),
    );
    const provider = openAIProvider(`${s.url}/v1`);
    const unauthorized = await provider
      .complete({ model: 'm', prompt: 'p', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(ConfigurationError);
    expect((unauthorized as ConfigurationError).message).toMatch(/TEST_API_KEY/);
    const notFound = await provider
      .complete({ model: 'missing-model', prompt: 'p', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(notFound).toMatchObject({ kind: 'configuration', code: 'model_not_found' });
    expect((notFound as Error).message).toMatch(/missing-model.*base_url/);
    expect(s.requests).toHaveLength(2);
  });

  it('treats a refused connection as transient and a 200 without choices as a service failure', async () => {
    const s = await serve(() => ({ json: { id: 'x', object: 'chat.completion', choices: [] } }));
    const empty = await openAIProvider(`${s.url}/v1`, { policy: { maxAttempts: 2 } })
      .complete({ model: 'm', prompt: 'p', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(empty).toMatchObject({ kind: 'transient', code: 'empty_response' });
    const url = s.url;
    await s.close();
    server = undefined;
    const refused = await openAIProvider(`${url}/v1`, { policy: { maxAttempts: 1 } })
      .complete({ model: 'm', prompt: 'p', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'transient', code: 'connection_error' });
  });

  it('stops without retrying when the caller aborts', async () => {
    const s = await serve(() => ({ delayMs: 2_000, json: chatCompletion({ content: 'late' }) }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('campaign cancelled')), 100);
    const error = await openAIProvider(`${s.url}/v1`)
      .complete({ model: 'm', prompt: 'p', outputMode: 'text', signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('campaign cancelled');
    expect(s.requests).toHaveLength(1);
    expect(await s.requests[0]?.closedEarly).toBe(true);
  });
});
