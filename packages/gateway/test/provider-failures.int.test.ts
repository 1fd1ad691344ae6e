import { describe, expect, it } from 'vitest';
import { completion, providerError, type FakeProvider, type ProviderReply } from './support/fake-openai';
import { failure, providerGatewayPerTest, type GatewayHarness } from './support/harness';

/**
 * The provider behind the gateway failing: the providers package retries (429 waits out Retry-After,
 * 5xx backs off), and what is left reaches the agent in its own protocol's error shape, with the
 * record saying whose failure it was.
 */

const gateways = providerGatewayPerTest();
let provider: FakeProvider;

async function serve(reply: (i: number) => ProviderReply, maxAttempts = 3): Promise<GatewayHarness> {
  const started = await gateways.start(reply, { policy: { maxAttempts } });
  provider = started.provider;
  return started.g;
}

const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('provider failures through the gateway', () => {
  it('waits out a 429 with Retry-After and answers; the record counts the retry', async () => {
    const g = await serve((i) =>
      i === 0
        ? providerError(429, 'slow down', { 'retry-after-ms': '300' })
        : { json: completion({ content: 'after the wait' }) },
    );
    const answer = await g.openai().chat.completions.create(ask);
    expect(answer.choices[0]!.message.content).toBe('after the wait');
    expect(provider.requests).toHaveLength(2);
    // The second try came no sooner than the provider asked.
    expect(provider.requests[1]!.receivedAt - provider.requests[0]!.receivedAt).toBeGreaterThanOrEqual(300);
    expect(g.gateway.calls()[0]).toMatchObject({ status: 200, retries: 1, error: null });
  });

  it(
    'answers 429 with Retry-After when the provider asks for ' + 'a longer wait than allowed (OpenAI error shape)',
    async () => {
      const g = await serve(() => providerError(429, 'quota exceeded', { 'retry-after': '600' }));
      const e = await failure(g.openai().chat.completions.create(ask));
      expect(e.status).toBe(429);
      expect(e.headers?.get('retry-after')).toBe('600');
      expect(e.error).toMatchObject({
        message: expect.stringContaining('quota exceeded'),
        type: 'rate_limit_error',
        code: 'rate_limited',
      });
      expect(g.gateway.calls()[0]).toMatchObject({ status: 429, errorKind: 'provider_transient' });
    },
  );

  it('answers 429 with Retry-After in the Anthropic error shape', async () => {
    const g = await serve(() => providerError(429, 'quota exceeded', { 'retry-after': '600' }));
    const e = await failure(
      g.anthropic().messages.create({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(e.status).toBe(429);
    expect(e.headers?.get('retry-after')).toBe('600');
    expect(e.error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining('600000 ms') },
    });
  });

  it('answers 502 after the provider failed every try with 5xx, counting the tries', async () => {
    const g = await serve(() => providerError(503, 'upstream overloaded'));
    const e = await failure(g.openai().responses.create({ model: 'm', input: 'hi' }));
    expect(e.status).toBe(502);
    expect(e.error).toMatchObject({
      message: expect.stringMatching(/Gave up after 3 attempt\(s\).*upstream overloaded/),
      type: 'server_error',
    });
    expect(provider.requests).toHaveLength(3);
    expect(g.gateway.calls()[0]).toMatchObject({
      protocol: 'responses',
      status: 502,
      errorKind: 'provider_transient',
      retries: 3,
      answer: null,
      response: null,
    });
  });

  it(
    'answers 400 to a configuration failure (the key or ' + 'the model), which no agent retries, and names it',
    async () => {
      const g = await serve(() => providerError(404, 'The model `gpt-9` does not exist'));
      const e = await failure(
        g.anthropic().messages.create({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(e.status).toBe(400);
      expect(e.error).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('refused the configuration') },
      });
      expect(e.message).toContain('does not exist');
      // A configuration failure is not retried.
      expect(provider.requests).toHaveLength(1);
      expect(g.gateway.calls()[0]).toMatchObject({ status: 400, errorKind: 'provider_configuration' });
    },
  );
});
