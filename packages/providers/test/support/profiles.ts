import { RequestBudget } from '../../src/budget';
import { createOpenAICompatibleProvider, type AdapterOptions } from '../../src/openai-compatible';
import type { Profile } from '../../src/profiles';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/retry';

export function testProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    name: 'test',
    provider: 'openai',
    models: [],
    baseUrl: null,
    apiKeyEnv: 'TEST_API_KEY',
    timeoutMs: 5_000,
    retryCount: 3,
    extraBody: {},
    concurrency: { groups: [] },
    ...overrides,
  };
}

/** Short waits so retry tests take milliseconds; Retry-After is still honoured as sent. */
export const FAST_POLICY: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  backoffBaseMs: 10,
  backoffMaxMs: 40,
  timeoutMs: 5_000,
};

export const TEST_KEY = 'test-secret-key-0123456789';

export function openAIProvider(
  baseUrl: string,
  options: {
    profile?: Partial<Profile>;
    policy?: Partial<RetryPolicy>;
    budget?: RequestBudget;
    priceTable?: AdapterOptions['priceTable'];
  } = {},
) {
  const budget = options.budget ?? new RequestBudget();
  return createOpenAICompatibleProvider({
    profile: testProfile({ baseUrl, ...options.profile }),
    apiKey: TEST_KEY,
    budget,
    capacityGroupOf: (model) => `test:${model}`,
    policy: { ...FAST_POLICY, ...options.policy },
    random: () => 0.5,
    priceTable: options.priceTable,
  });
}
