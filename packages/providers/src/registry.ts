import { ConfigurationError, parseModelId, sha256Hex, type Mode } from '@gitbench/core';
import { RequestBudget } from './budget';
import { BUILTIN_PROFILE, BUILTIN_USAGE, builtinKindOf } from './builtin-models';
import { resolveBuiltinTarget } from './builtin-targets';
import type { JudgePanel } from './judges';
import { commandLineProfile } from './command-line-profile';
import { budgetLimitsFromProfiles } from './profile-budgets';
import { createProfileProvider } from './profile-provider';
import {
  findProfilesFile,
  inferProviderKind,
  listProfiles,
  loadProfilesFile,
  ProfileSet,
  type Profile,
  type ProfileSummary,
} from './profiles';
import { isManualModel, manualProfile } from './manual/manual-profile';
import { replaySourcesFromEnv } from './replay-sources';
import { ReplayTargets } from './replay-targets';
import type {
  LoadRegistryOptions,
  ModelDescription,
  RegistryOptions,
  ResolvedTarget,
  TargetSpec,
} from './registry-types';
import { DEFAULT_RETRY_POLICY } from './retry';
import type { Provider } from './types';

/**
 * Turns target specs into providers over one shared budget. Providers are built once per profile
 * (with any command-line overrides) and reused.
 */
export class ProviderRegistry {
  private readonly set: ProfileSet;
  private readonly env: Readonly<Record<string, string | undefined>>;
  readonly budget: RequestBudget;
  private readonly providers = new Map<string, Provider>();
  private readonly replays: ReplayTargets;

  constructor(private readonly options: RegistryOptions = {}) {
    this.env = options.env ?? {};
    this.set = options.profiles ?? new ProfileSet([], null, { groups: [] }, this.env);
    this.budget = options.budget ?? new RequestBudget(budgetLimitsFromProfiles(this.set));
    this.replays = new ReplayTargets(() => options.replay ?? replaySourcesFromEnv(this.env, process.cwd()));
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
    const scripted = await resolveBuiltinTarget(spec, this.replays);
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
    } else if (spec.provider || spec.baseUrl) profile = commandLineProfile(spec, this.env);
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

  /** Why a campaign cannot replay `model` in its output modes, or null (see ReplayTargets.targetError). */
  replayTargetError(model: string, outputModes: readonly Mode[]): Promise<string | null> {
    return this.replays.targetError(model, outputModes);
  }

  /** For a replay model, what each recorded answer cost (see ReplayTargets.recordedCosts). */
  recordedCosts(model: string): ReturnType<ReplayTargets['recordedCosts']> {
    return this.replays.recordedCosts(model);
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
    const provider = createProfileProvider(adapter);
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
