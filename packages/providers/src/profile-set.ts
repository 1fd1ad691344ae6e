import { ConfigurationError, globMatch, parseModelId } from '@gitbench/core';

/** A resolved profile and the set of them a configuration holds; profiles.ts reads them from gitbench.json. */

export const PROVIDER_KINDS = [
  'openai',
  'openrouter',
  'ollama',
  'anthropic',
  'mock',
  'oracle',
  'replay',
  'simulated',
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export interface CapacityGroup {
  key: string;
  match: string[];
  maxConcurrent?: number;
  minIntervalMs?: number;
}

export interface ConcurrencySettings {
  maxConcurrent?: number;
  minIntervalMs?: number;
  groups: CapacityGroup[];
}

/** A resolved profile. It holds the name of the key's variable, never the key. */
export interface Profile {
  name: string;
  provider: ProviderKind;
  models: string[];
  baseUrl: string | null;
  apiKeyEnv: string | null;
  /** The name of a stored provider key (never the key). */
  apiKeyRef?: string | null;
  timeoutMs: number;
  retryCount: number;
  extraBody: Record<string, unknown>;
  concurrency: ConcurrencySettings;
}

export interface ProfileSummary {
  name: string;
  provider: ProviderKind;
  models: string[];
  baseUrl: string | null;
  apiKeyEnv: string | null;
  apiKeyRef: string | null;
  apiKey: 'set' | 'missing' | 'not needed' | 'stored';
  timeoutMs: number;
  retryCount: number;
  isJudge: boolean;
}
function isLocal(url: string): boolean {
  return /\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(url);
}

/**
 * Upstream's rule (explicit provider wins; localhost means Ollama) with two refinements: OpenRouter is
 * recognised by its host because it takes a different reasoning parameter and reports cost, and a
 * local URL ending in /v1 is an OpenAI-compatible server (vLLM, LM Studio, llama.cpp), not Ollama.
 */
export function inferProviderKind(explicit: ProviderKind | undefined, baseUrl: string | null): ProviderKind {
  if (explicit === 'openai' && baseUrl?.includes('openrouter.ai')) return 'openrouter';
  if (explicit) return explicit;
  if (!baseUrl) return 'openai';
  if (baseUrl.includes('openrouter.ai')) return 'openrouter';
  if (baseUrl.includes('api.anthropic.com')) return 'anthropic';
  if (isLocal(baseUrl) && !/\/v1\/?$/.test(baseUrl)) return 'ollama';
  return 'openai';
}
/** Every profile of a configuration, plus the environment's keys, which never leave this object. */
export class ProfileSet {
  readonly #env: Readonly<Record<string, string | undefined>>;

  constructor(
    readonly profiles: readonly Profile[],
    readonly judgeProfile: string | null,
    readonly concurrency: ConcurrencySettings,
    env: Readonly<Record<string, string | undefined>>,
  ) {
    this.#env = env;
  }

  get(name: string): Profile {
    const profile = this.profiles.find((p) => p.name === name);
    if (!profile) {
      const names = this.profiles.map((p) => p.name).join(', ') || 'none';
      throw new ConfigurationError('unknown_profile', `Profile '${name}' is not configured (configured: ${names}).`);
    }
    return profile;
  }

  /** The first profile listing this model id, exactly as written or by its base model. */
  findByModel(model: string): Profile | undefined {
    const exact = this.profiles.find((p) => p.models.includes(model));
    if (exact) return exact;
    // `openai/gpt-5.1#low` belongs where `openai/gpt-5.1#high` is listed: efforts are variants of one model.
    const base = parseModelId(model).baseModel;
    return this.profiles.find((p) => p.models.some((listed) => parseModelId(listed).baseModel === base));
  }

  /** The key for a profile, read from its variable. Missing when the profile names one: configuration error. */
  apiKeyFor(profile: Profile): string | undefined {
    if (!profile.apiKeyEnv) return undefined;
    const key = this.#env[profile.apiKeyEnv];
    if (!key) {
      throw new ConfigurationError(
        'missing_api_key',
        `Profile '${profile.name}' reads its key from ${profile.apiKeyEnv}, which is not set in the environment.`,
      );
    }
    return key;
  }

  hasApiKey(profile: Profile): boolean {
    return Boolean(profile.apiKeyEnv && this.#env[profile.apiKeyEnv]);
  }

  /** The capacity group of a base model: the first explicit group whose glob matches, else provider:model. */
  capacityGroupOf(profile: Profile, baseModel: string): CapacityGroup {
    for (const group of [...this.concurrency.groups, ...profile.concurrency.groups]) {
      if (group.match.some((glob) => globMatch(glob, baseModel))) return group;
    }
    return { key: `${profile.provider}:${baseModel}`, match: [baseModel] };
  }

  toJSON(): unknown {
    return { profiles: this.profiles, judgeProfile: this.judgeProfile, concurrency: this.concurrency };
  }
}
export function listProfiles(set: ProfileSet): ProfileSummary[] {
  return set.profiles.map((p) => ({
    name: p.name,
    provider: p.provider,
    models: p.models,
    baseUrl: p.baseUrl,
    apiKeyEnv: p.apiKeyEnv,
    apiKeyRef: p.apiKeyRef ?? null,
    apiKey: p.apiKeyRef ? 'stored' : p.apiKeyEnv ? (set.hasApiKey(p) ? 'set' : 'missing') : 'not needed',
    timeoutMs: p.timeoutMs,
    retryCount: p.retryCount,
    isJudge: p.name === set.judgeProfile,
  }));
}
