import type { ModelId, PriceTable } from '@gitbench/core';
import type { RequestBudget } from './budget';
import type { BuiltinKind } from './builtin-models';
import type { ProfileSet, ProviderKind } from './profiles';
import type { ReplaySources } from './replay-sources';
import type { RetryPolicy } from './retry';
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
