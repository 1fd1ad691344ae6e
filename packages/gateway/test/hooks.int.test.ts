import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayCallRecord } from '@gitbench/core';
import { providerBackend } from './support/backend';
import { completion, startFakeProvider, type FakeProvider } from './support/fake-openai';
import { failure, startHarness, type GatewayHarness } from './support/harness';

/**
 * The engine's two hooks: beforeCall runs before the backend is asked (the repository's state at each
 * call is read there), onCall gets every record once its answer is out, in order, and close() waits
 * for the last one. The agent hanging up aborts the provider's call.
 */

let provider: FakeProvider | undefined;
let h: GatewayHarness | undefined;
afterEach(async () => {
  await h?.close().catch(() => undefined);
  await provider?.close();
  h = provider = undefined;
});

const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('the engine hooks', () => {
  it(
    'runs beforeCall before the provider is asked, hands every ' +
      'record to onCall in order, and close() waits for them',
    async () => {
      const events: string[] = [];
      provider = await startFakeProvider((_r, i) => {
        events.push(`provider ${i + 1}`);
        return { json: completion({ content: `answer ${i + 1}` }) };
      });
      const stored: GatewayCallRecord[] = [];
      h = await startHarness({
        backend: providerBackend(provider.url),
        budget: { maxCalls: 2 },
        beforeCall: async (seq) => {
          events.push(`state before ${seq}`);
          await new Promise((r) => setTimeout(r, 30));
        },
        onCall: async (call) => {
          // A slow store: the answer has gone out already, and the records still arrive in order.
          await new Promise((r) => setTimeout(r, 50));
          stored.push(call);
        },
      });
      await h.openai().chat.completions.create(ask);
      await h.openai().chat.completions.create(ask);
      await failure(h.openai().chat.completions.create(ask));
      expect(events).toEqual(['state before 1', 'provider 1', 'state before 2', 'provider 2']);
      const calls = h.gateway.calls();
      // The hook's time is recorded apart from the gateway's (a timer may fire a little early).
      expect(calls[0]!.hookMs).toBeGreaterThanOrEqual(25);
      await h.close();
      expect(stored.map((c) => [c.seq, c.status])).toEqual([
        [1, 200],
        [2, 200],
        [3, 400],
      ]);
    },
  );

  it('makes close() fail with what onCall threw, after delivering the rest', async () => {
    provider = await startFakeProvider(() => ({ json: completion({ content: 'ok' }) }));
    const seen: number[] = [];
    h = await startHarness({
      backend: providerBackend(provider.url),
      budget: {},
      onCall: (call) => {
        seen.push(call.seq);
        if (call.seq === 1) throw new Error('the database is gone');
      },
    });
    await h.openai().chat.completions.create(ask);
    await h.openai().chat.completions.create(ask);
    await expect(h.close()).rejects.toThrow('the database is gone');
    expect(seen).toEqual([1, 2]);
  });

  it('aborts the provider call when the agent hangs up', async () => {
    provider = await startFakeProvider(() => ({ json: completion({ content: 'late' }), delayMs: 2_000 }));
    h = await startHarness({ backend: providerBackend(provider.url), budget: {} });
    const controller = new AbortController();
    const pending = h.openai().chat.completions.create(ask, { signal: controller.signal });
    while (provider.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(pending).rejects.toThrow();
    while (h.gateway.calls().length === 0) await new Promise((r) => setTimeout(r, 10));
    // The call ended without waiting out the provider's two seconds, and was not retried.
    expect(h.gateway.calls()[0]).toMatchObject({
      status: 499,
      errorKind: 'cancelled',
      error: 'the call was cancelled: the agent closed the connection',
      answer: null,
    });
    expect(h.gateway.calls()[0]!.providerMs).toBeLessThan(2_000);
    expect(provider.requests).toHaveLength(1);
  });
});
