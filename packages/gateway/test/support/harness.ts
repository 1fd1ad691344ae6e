import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach } from 'vitest';
import type { RetryPolicy } from '@gitbench/providers';
import { startModelGateway, type GatewayBudget, type ModelGateway, type ModelGatewayOptions } from '../../src';
import { providerBackend } from './backend';
import { startFakeProvider, type FakeProvider, type ProviderReply } from './fake-openai';
import { forwardToSocket } from './forwarder';

/**
 * A gateway on a socket in a fresh directory, a loopback forwarder to it, and SDK clients on that (no retries of their
 * own).
 */
export interface GatewayHarness {
  gateway: ModelGateway;
  url: string;
  openai(): OpenAI;
  anthropic(): Anthropic;
  close(): Promise<void>;
}

export async function startHarness(options: Omit<ModelGatewayOptions, 'socketPath'>): Promise<GatewayHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-'));
  const gateway = await startModelGateway({ socketPath: path.join(dir, 'model.sock'), ...options });
  const forwarder = await forwardToSocket(gateway.socketPath);
  return {
    gateway,
    url: forwarder.url,
    openai: () => new OpenAI({ baseURL: `${forwarder.url}/v1`, apiKey: 'dummy', maxRetries: 0 }),
    anthropic: () => new Anthropic({ baseURL: forwarder.url, apiKey: 'dummy', maxRetries: 0 }),
    async close() {
      await forwarder.close();
      await gateway.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a call that should fail threw: the SDK's APIError with status, headers and body. */
export async function failure(
  call: Promise<unknown>,
): Promise<{ status: number; message: string; error: unknown; headers: Headers | undefined }> {
  try {
    await call;
  } catch (error) {
    const e = error as { status?: number; message: string; error?: unknown; headers?: Headers };
    return { status: e.status ?? -1, message: e.message, error: e.error, headers: e.headers };
  }
  throw new Error('the call succeeded where it should have failed');
}

/**
 * A fake provider and a gateway in front of it (the profile's provider backend), both closed after
 * each test of the file that calls this at its top level.
 */
export function providerGatewayPerTest(): {
  start(
    reply: (i: number) => ProviderReply,
    options?: { budget?: GatewayBudget; policy?: Partial<RetryPolicy> },
  ): Promise<{ g: GatewayHarness; provider: FakeProvider }>;
} {
  let provider: FakeProvider | undefined;
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    await provider?.close();
    h = provider = undefined;
  });
  return {
    async start(reply, options = {}) {
      provider = await startFakeProvider((_r, i) => reply(i));
      h = await startHarness({
        backend: providerBackend(provider.url, 'gpt-4o-mini', options.policy),
        budget: options.budget ?? {},
      });
      return { g: h, provider };
    },
  };
}
