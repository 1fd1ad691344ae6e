import {
  createAgentChat,
  DEFAULT_RETRY_POLICY,
  RequestBudget,
  type Profile,
  type RetryPolicy,
} from '@gitbench/providers';
import type { ProviderBackend } from '../../src';

export const PROVIDER_KEY = 'sk-provider-secret-0123456789';

/** The profile's OpenAI-compatible provider, as the worker's registry builds it, with short backoffs. */
export function providerBackend(
  baseUrl: string,
  model = 'gpt-4o-mini',
  policy: Partial<RetryPolicy> = {},
): ProviderBackend {
  const profile: Profile = {
    name: 'fake',
    provider: 'openai',
    models: [],
    baseUrl,
    apiKeyEnv: 'FAKE_KEY',
    timeoutMs: 5_000,
    retryCount: 3,
    extraBody: {},
    concurrency: { groups: [] },
  };
  const chat = createAgentChat(
    {
      profile,
      apiKey: PROVIDER_KEY,
      budget: new RequestBudget(),
      capacityGroupOf: (m) => `fake:${m}`,
      policy: { ...DEFAULT_RETRY_POLICY, backoffBaseMs: 10, backoffMaxMs: 40, timeoutMs: 5_000, ...policy },
      random: () => 0.5,
    },
    baseUrl,
  );
  return { kind: 'provider', model, chat };
}
