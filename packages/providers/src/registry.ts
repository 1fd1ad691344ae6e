import {
  ConfigurationError,
  parseModelId,
  sha256Hex,
  type AnswerMode,
  type Mode,
  type ModelId,
  type PriceTable,
} from '@gitbench/core';
import { createAgentChat } from './agent-chat';
import { createAnthropicProvider } from './anthropic';
import { RequestBudget, type BudgetLimits } from './budget';
import { BUILTIN_PROFILE, BUILTIN_USAGE, builtinKindOf, simulatedSeedOf, type BuiltinKind } from './builtin-models';
import type { JudgePanel } from './judges';
import { createOllamaProvider } from './ollama';
import { createOpenAICompatibleProvider } from './openai-compatible';
import {
  findProfilesFile,
  inferProviderKind,
  listProfiles,
  loadProfilesFile,
  ProfileSet,
  type Profile,
  type ProfileSummary,
  type ProviderKind,
} from './profiles';
import { isManualModel, manualProfile } from './manual/manual-profile';
import {
  createReplayProvider,
  loadReplayIndex,
  ReplaySourceError,
  replaySourcesFromEnv,
  type ReplayIndex,
  type ReplaySources,
} from './replay';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
import { createMockProvider, createNopProvider, createOracleProvider, createSimulatedProvider } from './scripted';
import type { Provider } from './types';

/** What the CLI's `--model`, `--profile`, `--provider` and `--base-url` (or a campaign target) ask for. */
export interface TargetSpec {
  /** `openai/o3-mini#high`, `llama3.1:8b`, `mock`, `oracle`, `simulated[:seed]`, `replay:<file or dir>`. */
  model: string;
  profile?: string;
  provider?: ProviderKind;
  baseUrl?: string;
}

export interface ResolvedTarget {
  provider: Provider;
  /** The model id to put in each CompletionRequest. */
  model: string;
  modelId: ModelId;
  profile: string;
  capacityGroup: string;
  /** True when no model answers (simulated); every display of its results must say so. */
  simulated: boolean;
}

/** Which profile serves a model id, or why none does: what campaign creation checks before writing. */
export type ModelDescription =
  | {
      ok: true;
      model: string;
      profile: string;
      provider: ProviderKind | BuiltinKind;
      builtin: boolean;
      simulated: boolean;
    }
  | { ok: false; model: string; error: string };

export interface RegistryOptions {
  profiles?: ProfileSet;
  env?: Readonly<Record<string, string | undefined>>;
  /** One budget per process so that every call shares limits and cooldowns; built from the profiles if absent. */
  budget?: RequestBudget;
  /** Overrides of the retry policy for every profile (tests shorten the backoff with it). */
  policy?: Partial<RetryPolicy>;
  random?: () => number;
  priceTable?: PriceTable;
  /** The file the profiles were read from, for messages and listings. */
  profilesFile?: string | null;
  /** Where `replay:` may read; from `env` (GITBENCH_REPLAY_DIRS) against the working directory if absent. */
  replay?: ReplaySources;
  /** Stored provider keys by name (the worker opens them from the database), for profiles with `api_key_ref`. */
  storedKeys?: () => ReadonlyMap<string, string>;
}

export interface LoadRegistryOptions extends Omit<RegistryOptions, 'profiles' | 'profilesFile'> {
  /** An explicit profile file (GITBENCH_PROFILES); else gitbench.json / .gitbench.json here, then ~/.gitbench.json. */
  profilesFile?: string;
  cwd: string;
  home?: string;
}

/** Request budgets as configured: global and per group at the top level, per profile and its groups. */
export function budgetLimitsFromProfiles(set: ProfileSet): BudgetLimits {
  const groups: NonNullable<BudgetLimits['groups']> = {};
  for (const group of [...set.concurrency.groups, ...set.profiles.flatMap((p) => p.concurrency.groups)]) {
    groups[group.key] ??= { maxConcurrent: group.maxConcurrent, minIntervalMs: group.minIntervalMs };
  }
  return {
    global: { maxConcurrent: set.concurrency.maxConcurrent, minIntervalMs: set.concurrency.minIntervalMs },
    profiles: Object.fromEntries(
      set.profiles.map((p) => [
        p.name,
        { maxConcurrent: p.concurrency.maxConcurrent, minIntervalMs: p.concurrency.minIntervalMs },
      ]),
    ),
    groups,
  };
}

const DEFAULT_KEY_ENV: Partial<Record<ProviderKind, string>> = {
  openrouter: 'OPENROUTER_API_KEY',
  openai: 'OPENAI_API_KEY',
};

function adHocProfile(spec: TargetSpec, env: Readonly<Record<string, string | undefined>>): Profile {
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

/** What follows `replay:` in a model id: one source, or several separated by commas. */
function replaySource(model: string): string {
  return model.startsWith('replay:') ? model.slice('replay:'.length) : model;
}

/**
 * Turns target specs into providers over one shared budget. Providers are built once per profile
 * (with any command-line overrides) and reused.
 */
export class ProviderRegistry {
  private readonly set: ProfileSet;
  private readonly env: Readonly<Record<string, string | undefined>>;
  readonly budget: RequestBudget;
  private readonly providers = new Map<string, Provider>();
  /**
   * Replay files by source, loaded once: a worker resolves its target for every attempt, and parsing
   * the recorded envelopes each time is the same work again. A failed load is not kept, so a file
   * added later (after a retry of the failed attempts) is found.
   */
  private readonly replays = new Map<string, Promise<ReplayIndex>>();

  constructor(private readonly options: RegistryOptions = {}) {
    this.env = options.env ?? {};
    this.set = options.profiles ?? new ProfileSet([], null, { groups: [] }, this.env);
    this.budget = options.budget ?? new RequestBudget(budgetLimitsFromProfiles(this.set));
  }

  /** The registry every process builds the same way: the profile file named or found, keys from `env`. */
  static async load(options: LoadRegistryOptions): Promise<ProviderRegistry> {
    const { profilesFile: named, cwd, home, ...rest } = options;
    const file = named ?? (await findProfilesFile(cwd, home));
    const profiles = file ? await loadProfilesFile(file, options.env ?? {}) : undefined;
    const replay = rest.replay ?? replaySourcesFromEnv(options.env ?? {}, cwd);
    return new ProviderRegistry({ ...rest, replay, ...(profiles ? { profiles } : {}), profilesFile: file ?? null });
  }

  get profilesFile(): string | null {
    return this.options.profilesFile ?? null;
  }

  /**
   * The keys the profiles read from environment variables (api_key_env), to be cut out of whatever an
   * attempt stores exactly as stored keys are: a provider that echoes its key must not leak either kind.
   * Values under 8 characters are left alone: a placeholder like `none` would be cut from every output.
   */
  environmentKeys(): string[] {
    const values = this.set.profiles.map((p) => (p.apiKeyEnv ? this.env[p.apiKeyEnv] : undefined));
    return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length >= 8))];
  }

  /** The configured profiles, with whether each key's variable is set (never the key). */
  listProfiles(): ProfileSummary[] {
    return listProfiles(this.set);
  }

  get judgeProfile(): string | null {
    return this.set.judgeProfile;
  }

  /**
   * Which profile serves a model id without building anything: the check a campaign's models pass
   * before the campaign is written, so a worker never meets a model nobody can run.
   */
  describeModel(model: string): ModelDescription {
    const builtin = builtinKindOf(model);
    if (builtin)
      return {
        ok: true,
        model,
        profile: BUILTIN_PROFILE,
        provider: builtin,
        builtin: true,
        simulated: builtin === 'simulated',
      };
    try {
      parseModelId(model);
    } catch (error) {
      return { ok: false, model, error: (error as Error).message };
    }
    const profile = this.set.findByModel(model);
    if (!profile && isManualModel(model))
      return {
        ok: true,
        model,
        profile: manualProfile(this.env).name,
        provider: 'openai',
        builtin: false,
        simulated: false,
      };
    if (!profile) {
      const where = this.profilesFile
        ? `a profile in ${this.profilesFile}`
        : 'a profile in gitbench.json (or the file GITBENCH_PROFILES names)';
      return {
        ok: false,
        model,
        error:
          `No configured profile serves '${model}'. Add it ` +
          `to ${where}, or use a built-in model: ${BUILTIN_USAGE}.`,
      };
    }
    return { ok: true, model, profile: profile.name, provider: profile.provider, builtin: false, simulated: false };
  }

  async resolve(spec: TargetSpec): Promise<ResolvedTarget> {
    const scripted = await this.scripted(spec);
    if (scripted) return scripted;
    if (spec.profile === BUILTIN_PROFILE) {
      throw new ConfigurationError('not_builtin', `'${spec.model}' is not a built-in model (${BUILTIN_USAGE}).`);
    }

    let profile: Profile;
    const listed = spec.profile ? this.set.get(spec.profile) : this.set.findByModel(spec.model);
    if (listed) profile = listed;
    else if (isManualModel(spec.model)) {
      // A person answers at the manual endpoint; --base-url points at one served elsewhere.
      const manual = manualProfile(this.env);
      profile = { ...manual, baseUrl: spec.baseUrl ?? manual.baseUrl };
    } else if (spec.provider || spec.baseUrl) profile = adHocProfile(spec, this.env);
    else {
      throw new ConfigurationError(
        'no_profile_for_model',
        `No profile lists model '${spec.model}'. Name one with --profile, give ` +
          `--provider / --base-url, or use a built-in model: ${BUILTIN_USAGE}.`,
      );
    }
    if (listed && (spec.provider || spec.baseUrl)) {
      const baseUrl = spec.baseUrl ?? profile.baseUrl;
      profile = {
        ...profile,
        baseUrl,
        provider: inferProviderKind(spec.provider ?? (spec.baseUrl ? undefined : profile.provider), baseUrl),
      };
    }
    const modelId = parseModelId(spec.model);
    return {
      provider: this.providerFor(profile),
      model: spec.model,
      modelId,
      profile: profile.name,
      capacityGroup: this.set.capacityGroupOf(profile, modelId.baseModel).key,
      simulated: false,
    };
  }

  /**
   * Why `name` cannot judge (not configured, no models), or null. Checked before a campaign is written;
   * keys are not, since the process creating a campaign need not hold the workers' keys.
   */
  judgeProfileError(name: string): string | null {
    const profile = this.set.profiles.find((p) => p.name === name);
    if (!profile)
      return (
        `Judge profile '${name}' is not configured ` +
        `(configured: ${this.set.profiles.map((p) => p.name).join(', ') || 'none'}).`
      );
    return profile.models.length === 0 ? `Judge profile '${name}' lists no models.` : null;
  }

  /** The judge panel: one member per model of the judge profile (the configured one unless named). */
  judgePanel(profileName?: string): JudgePanel {
    const name = profileName ?? this.set.judgeProfile;
    if (!name)
      throw new ConfigurationError(
        'no_judge_profile',
        'llm_judge fixtures need a judge profile ("judge": {"profile": ...} or --judge-profile).',
      );
    const profile = this.set.get(name);
    if (profile.models.length === 0)
      throw new ConfigurationError('empty_judge_profile', `Judge profile '${name}' lists no models.`);
    const provider = this.providerFor(profile);
    return {
      profile: name,
      members: profile.models.map((model, i) => ({
        memberId: `judge-${i}`,
        model,
        provider,
        identity: {
          provider: profile.provider,
          ...(profile.baseUrl ? { baseUrl: profile.baseUrl } : {}),
          extraBody: profile.extraBody,
        },
      })),
    };
  }

  private async scripted(spec: TargetSpec): Promise<ResolvedTarget | undefined> {
    const make = (provider: Provider, model: string, simulated = false): ResolvedTarget => ({
      provider,
      model,
      modelId: parseModelId(model),
      profile: BUILTIN_PROFILE,
      capacityGroup: provider.kind,
      simulated,
    });
    const kind = builtinKindOf(spec.model) ?? spec.provider;
    if (kind === 'replay') {
      const index = await this.replayIndex(spec.model);
      const recordedModel = index.all()[0]?.model ?? index.trajectories[0]?.model ?? 'replay';
      return make(createReplayProvider(index), recordedModel);
    }
    if (kind === 'mock') return make(createMockProvider(), spec.model);
    if (kind === 'nop') return make(createNopProvider(), spec.model);
    if (kind === 'oracle') return make(createOracleProvider(), spec.model);
    if (kind === 'simulated') {
      const seed = simulatedSeedOf(spec.model);
      return make(createSimulatedProvider({ seed }), `simulated:${seed}`, true);
    }
    return undefined;
  }

  private replayIndex(model: string): Promise<ReplayIndex> {
    const source = replaySource(model);
    let loading = this.replays.get(source);
    if (!loading) {
      loading = loadReplayIndex(
        source.split(','),
        this.options.replay ?? replaySourcesFromEnv(this.env, process.cwd()),
      );
      this.replays.set(source, loading);
      loading.catch(() => this.replays.delete(source));
    }
    return loading;
  }

  /**
   * Why a campaign cannot replay `model` in its output modes, or null (always null for a model that is
   * not `replay:`). The sources are opened exactly as a worker opens them (the same loader, cache and
   * provider: headers and recordings parsed, nothing replayed), so a campaign is refused when it is
   * created rather than failing every attempt of the target. The message names the source as the
   * caller wrote it and nothing the caller did not write (no configured directory).
   */
  async replayTargetError(model: string, outputModes: readonly Mode[]): Promise<string | null> {
    if (builtinKindOf(model) !== 'replay') return null;
    const written = replaySource(model).split(',');
    let index: ReplayIndex;
    try {
      index = await this.replayIndex(model);
      createReplayProvider(index);
    } catch (error) {
      if (error instanceof ReplaySourceError) return `Replay source '${written[error.source]}' ${error.problem}`;
      if (error instanceof ConfigurationError) return `'${model}': ${error.message}`;
      throw error;
    }
    const single = outputModes.filter((m) => m !== 'agent');
    if (outputModes.includes('agent') && index.trajectories.length === 0) {
      return (
        `'${model}' holds no ATIF trajectory, which the agent output mode ` +
        `replays (a result file replays text and json_schema answers).`
      );
    }
    if (single.length > 0 && index.all().length === 0) {
      return (
        `'${model}' holds only an ATIF trajectory, which replays in the agent ` +
        `output mode alone; this campaign also runs ${single.join(' and ')}.`
      );
    }
    return null;
  }

  /**
   * For a replay model, what each recorded answer cost (null where the recording has no cost), for
   * the estimate before launch; undefined for any other model.
   */
  async recordedCosts(
    model: string,
  ): Promise<((domain: string, fixtureId: string, outputMode: AnswerMode) => number | null) | undefined> {
    if (builtinKindOf(model) !== 'replay') return undefined;
    const index = await this.replayIndex(model);
    return (domain, fixtureId, outputMode) => {
      const usd = index.get(domain, fixtureId, outputMode)?.recordedScore.cost_usd;
      return typeof usd === 'number' && Number.isFinite(usd) ? usd : null;
    };
  }

  private providerFor(profile: Profile): Provider {
    const apiKey = profile.apiKeyRef ? this.storedKey(profile) : profile.apiKeyEnv ? this.apiKey(profile) : undefined;
    // A stored key that was replaced makes a new provider: the cache is keyed by a digest of the key, never the key.
    const keyDigest = apiKey ? sha256Hex(apiKey).slice(0, 16) : '';
    const cacheKey = `${profile.name}|${profile.provider}|${profile.baseUrl ?? ''}|${keyDigest}`;
    const existing = this.providers.get(cacheKey);
    if (existing) return existing;
    const adapter = {
      profile,
      apiKey,
      budget: this.budget,
      capacityGroupOf: (baseModel: string) => this.set.capacityGroupOf(profile, baseModel).key,
      policy: {
        ...DEFAULT_RETRY_POLICY,
        maxAttempts: profile.retryCount,
        timeoutMs: profile.timeoutMs,
        ...this.options.policy,
      },
      random: this.options.random,
      priceTable: this.options.priceTable,
    };
    let provider: Provider;
    switch (profile.provider) {
      case 'openai':
      case 'openrouter':
        provider = {
          ...createOpenAICompatibleProvider(adapter),
          chat: createAgentChat(adapter, (profile.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')),
        };
        break;
      case 'ollama':
        // Agent turns go through Ollama's OpenAI-compatible API, which takes tools (and refuses them for models
        // without).
        provider = {
          ...createOllamaProvider(adapter),
          chat: createAgentChat(
            adapter,
            `${(profile.baseUrl ?? 'http://127.0.0.1:11434').replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`,
          ),
        };
        break;
      case 'anthropic':
        provider = createAnthropicProvider(adapter);
        break;
      case 'mock':
        provider = createMockProvider();
        break;
      case 'oracle':
        provider = createOracleProvider();
        break;
      case 'simulated':
        provider = createSimulatedProvider({ seed: 0 });
        break;
      case 'replay':
        throw new ConfigurationError(
          'replay_needs_file',
          `Profile '${profile.name}': use --model replay:<result file> for replay.`,
        );
    }
    this.providers.set(cacheKey, provider);
    return provider;
  }

  private storedKey(profile: Profile): string {
    const key = this.options.storedKeys?.().get(profile.apiKeyRef as string);
    if (!key) {
      throw new ConfigurationError(
        'missing_api_key',
        `Profile '${profile.name}' uses the stored provider key ` +
          `'${profile.apiKeyRef}', which this process does not hold (add it on Settings → ` +
          `Provider keys; a worker reads stored keys with GITBENCH_SECRET_KEY).`,
      );
    }
    return key;
  }

  private apiKey(profile: Profile): string {
    const key = this.env[profile.apiKeyEnv as string];
    if (!key) {
      throw new ConfigurationError(
        'missing_api_key',
        `Profile '${profile.name}' reads its key from ${profile.apiKeyEnv}, which is not set in the environment.`,
      );
    }
    return key;
  }
}
