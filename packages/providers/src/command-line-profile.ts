import { inferProviderKind, type Profile, type ProviderKind } from './profiles';

/** The variable a hosted provider's key is read from when the command line names no profile. */
const DEFAULT_KEY_ENV: Partial<Record<ProviderKind, string>> = {
  openrouter: 'OPENROUTER_API_KEY',
  openai: 'OPENAI_API_KEY',
};

/** The profile of a target the command line describes with --provider or --base-url instead of naming a profile. */
export function commandLineProfile(
  spec: { model: string; provider?: ProviderKind; baseUrl?: string },
  env: Readonly<Record<string, string | undefined>>,
): Profile {
  const provider = inferProviderKind(spec.provider, spec.baseUrl ?? null);
  const keyEnv = DEFAULT_KEY_ENV[provider];
  // A local OpenAI-compatible server needs no key; a hosted one reads the usual variable when it is set.
  const apiKeyEnv = keyEnv && (provider === 'openrouter' || !spec.baseUrl || env[keyEnv]) ? keyEnv : null;
  return {
    name: 'command-line',
    provider,
    models: [spec.model],
    baseUrl: spec.baseUrl ?? (provider === 'openrouter' ? 'https://openrouter.ai/api/v1' : null),
    apiKeyEnv,
    timeoutMs: (provider === 'ollama' ? 120 : 60) * 1000,
    retryCount: 3,
    extraBody: {},
    concurrency: { groups: [] },
  };
}
