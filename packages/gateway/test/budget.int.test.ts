import { describe, expect, it } from 'vitest';
import type { GatewayBudget } from '../src';
import { completion, type FakeProvider } from './support/fake-openai';
import { failure, providerGatewayPerTest, type GatewayHarness } from './support/harness';

/**
 * An attempt's budget at the gateway: a call is let through while every limit has room, the call past
 * a limit gets an error naming it in the agent's protocol, every later call too, and exhausted() says
 * which limit and the exit status it ends the attempt with. The provider is never asked past a limit.
 */

const gateways = providerGatewayPerTest();
let provider: FakeProvider;

/** Every answer: 120 input and 15 output tokens of gpt-4o-mini (2.7e-5 USD by the price table). */
async function serve(budget: GatewayBudget, delayMs = 0): Promise<GatewayHarness> {
  const started = await gateways.start(() => ({ json: completion({ content: 'ok', usage: [120, 15] }), delayMs }), {
    budget,
  });
  provider = started.provider;
  return started.g;
}

const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('budgets at the gateway', () => {
  it('refuses the call past the call limit, in the Anthropic shape, and every call after it', async () => {
    const g = await serve({ maxCalls: 2 });
    const messages = () =>
      g.anthropic().messages.create({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    await messages();
    await messages();
    expect(g.gateway.exhausted()).toBeNull();
    const e = await failure(messages());
    expect(e.status).toBe(400);
    expect(e.error).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining(
          "GitBench budget exhausted: the attempt's calls limit is reached (2 of 2 model calls)",
        ),
      },
    });
    expect((await failure(g.openai().chat.completions.create(ask))).error).toMatchObject({ code: 'budget_exhausted' });
    expect(g.gateway.exhausted()).toMatchObject({ limit: 'calls', used: 2, max: 2, exitStatus: 'turn_limit' });
    expect(provider.requests).toHaveLength(2);
    expect(g.gateway.calls().map((c) => c.errorKind)).toEqual([null, null, 'budget', 'budget']);
  });

  it('lets exactly the allowed number of parallel calls through', async () => {
    const g = await serve({ maxCalls: 3 }, 20);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => g.openai().chat.completions.create(ask)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(provider.requests).toHaveLength(3);
    expect(g.gateway.exhausted()?.limit).toBe('calls');
  });

  it('delivers the answer that overshoots a token limit, then refuses', async () => {
    const g = await serve({ maxTotalTokens: 200 });
    await g.openai().responses.create({ model: 'm', input: 'hi' });
    await g.openai().responses.create({ model: 'm', input: 'hi' });
    const e = await failure(g.openai().responses.create({ model: 'm', input: 'hi' }));
    expect(e.error).toMatchObject({
      message: expect.stringContaining('total tokens limit is reached (270 of 200 tokens)'),
    });
    expect(g.gateway.exhausted()).toMatchObject({ limit: 'total_tokens', used: 270, exitStatus: 'token_limit' });
    expect(g.gateway.spent()).toMatchObject({ calls: 2, inputTokens: 240, outputTokens: 30, costUnknownCalls: 0 });
  });

  it('stops at the input and output token limits on their own', async () => {
    const g = await serve({ maxOutputTokens: 15 });
    await g.openai().chat.completions.create(ask);
    await failure(g.openai().chat.completions.create(ask));
    expect(g.gateway.exhausted()).toMatchObject({
      limit: 'output_tokens',
      used: 15,
      max: 15,
      exitStatus: 'token_limit',
    });
  });

  it('stops at the cost limit, priced by the price table', async () => {
    const g = await serve({ maxCostUsd: 0.00004 });
    await g.openai().chat.completions.create(ask);
    await g.openai().chat.completions.create(ask);
    const e = await failure(g.openai().chat.completions.create(ask));
    expect(e.error).toMatchObject({
      message: expect.stringContaining('cost limit is reached (0.0001 of 0.00004 USD)'),
    });
    expect(g.gateway.exhausted()).toMatchObject({ limit: 'cost', exitStatus: 'cost_limit' });
    expect(g.gateway.exhausted()!.used).toBeCloseTo(2 * 2.7e-5, 12);
  });

  it('refuses every call once the wall time has passed', async () => {
    const g = await serve({ wallTimeMs: 50 });
    await new Promise((r) => setTimeout(r, 80));
    const e = await failure(g.openai().chat.completions.create(ask));
    expect(e.error).toMatchObject({ message: expect.stringContaining('wall time limit is reached') });
    expect(g.gateway.exhausted()).toMatchObject({ limit: 'wall_time', max: 50, exitStatus: 'time_limit' });
    expect(provider.requests).toHaveLength(0);
  });
});
