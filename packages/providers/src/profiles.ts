import { access, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@gitbench/core';
import { z } from 'zod';
import { BUILTIN_PROFILE } from './builtin-models';
import { PROVIDER_KINDS, ProfileSet, inferProviderKind, type CapacityGroup, type Profile } from './profile-set';

export {
  PROVIDER_KINDS,
  ProfileSet,
  inferProviderKind,
  listProfiles,
  type CapacityGroup,
  type ConcurrencySettings,
  type Profile,
  type ProfileSummary,
  type ProviderKind,
} from './profile-set';

/**
 * gitbench.json read into a ProfileSet: upstream's format checked field by field, a literal key anywhere
 * refused, keys only ever named by the variable that holds them.
 */

const positiveInt = z.number().int().positive();

const capacityGroupSchema = z.looseObject({
  key: z.string().min(1),
  match: z.union([z.string(), z.array(z.string())]),
  max_concurrent_requests: positiveInt.optional(),
  min_interval_ms: z.number().nonnegative().optional(),
});

const concurrencySchema = z.looseObject({
  max_concurrent_requests: positiveInt.optional(),
  min_interval_ms: z.number().nonnegative().optional(),
  groups: z.array(capacityGroupSchema).optional(),
});

/** One profile as written in gitbench.json (upstream's format; unknown keys are kept and ignored). */
export const profileFileSchema = z.looseObject({
  models: z.union([z.string(), z.array(z.string())]).optional(),
  model: z.union([z.string(), z.array(z.string())]).optional(),
  provider: z.enum(PROVIDER_KINDS).optional(),
  base_url: z.url().optional(),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, not the key itself')
    .optional(),
  /** A provider key stored on the server (Settings → Provider keys), by its name; wins over api_key_env. */
  api_key_ref: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be the name of a stored provider key')
    .optional(),
  /** Seconds, as upstream. */
  timeout: z.number().positive().optional(),
  /** Total tries per call, as upstream. */
  retry_count: positiveInt.optional(),
  extra_body: z.record(z.string(), z.unknown()).optional(),
  concurrency: concurrencySchema.optional(),
  max_concurrent_requests: positiveInt.optional(),
});

export const configFileSchema = z.looseObject({
  models: z.record(z.string(), profileFileSchema).default({}),
  judge: z.looseObject({ profile: z.string().min(1) }).optional(),
  concurrency: concurrencySchema.optional(),
});
// Names that only ever hold a secret (`key` alone is not one: capacity groups use it for their name).
const SECRET_FIELD =
  /^(api[_-]?key|apikey|secret|client[_-]?secret|token|access[_-]?token|authorization|password|bearer)$/i;
const SECRET_VALUE = /^(sk-[A-Za-z0-9_-]{12,}|Bearer\s+\S+)/;

function rejectLiteralSecrets(value: unknown, path: string): void {
  if (typeof value === 'string') {
    if (SECRET_VALUE.test(value.trim())) {
      throw new ConfigurationError(
        'literal_secret',
        `Field '${path}' holds what looks like an API key. Put keys in ` +
          `environment variables and name the variable in 'api_key_env'.`,
      );
    }
    return;
  }
  if (Array.isArray(value)) return value.forEach((item, i) => rejectLiteralSecrets(item, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (SECRET_FIELD.test(key) && child !== null && child !== '') {
        throw new ConfigurationError(
          'literal_secret',
          `Field '${childPath}' holds a literal secret. Keys are accepted only ` +
            `by environment variable: set 'api_key_env' to the variable's name.`,
        );
      }
      rejectLiteralSecrets(child, childPath);
    }
  }
}
function toGroups(groups: z.infer<typeof capacityGroupSchema>[] | undefined): CapacityGroup[] {
  return (groups ?? []).map((g) => ({
    key: g.key,
    match: typeof g.match === 'string' ? [g.match] : g.match,
    maxConcurrent: g.max_concurrent_requests,
    minIntervalMs: g.min_interval_ms,
  }));
}

function toProfile(name: string, raw: z.infer<typeof profileFileSchema>): Profile {
  const listed = raw.models ?? raw.model ?? [];
  const provider = inferProviderKind(raw.provider, raw.base_url ?? null);
  return {
    name,
    provider,
    models: typeof listed === 'string' ? [listed] : listed,
    baseUrl: raw.base_url ?? null,
    apiKeyEnv: raw.api_key_env ?? null,
    apiKeyRef: raw.api_key_ref ?? null,
    timeoutMs: (raw.timeout ?? (provider === 'ollama' ? 120 : 60)) * 1000,
    retryCount: raw.retry_count ?? 3,
    extraBody: raw.extra_body ?? {},
    concurrency: {
      maxConcurrent: raw.concurrency?.max_concurrent_requests ?? raw.max_concurrent_requests,
      minIntervalMs: raw.concurrency?.min_interval_ms,
      groups: toGroups(raw.concurrency?.groups),
    },
  };
}
/**
 * Parses gitbench.json text. Rejects a literal key anywhere in the file with the field's path; reads
 * keys only through the variables the profiles name, from `env`.
 */
export function loadProfiles(text: string, env: Readonly<Record<string, string | undefined>>): ProfileSet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError('bad_config', `The profile file is not valid JSON: ${(error as Error).message}`);
  }
  rejectLiteralSecrets(json, '');
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `'${i.path.join('.')}' ${i.message}`).join('; ');
    throw new ConfigurationError('bad_config', `The profile file is invalid: ${issues}`);
  }
  if (BUILTIN_PROFILE in parsed.data.models) {
    throw new ConfigurationError(
      'bad_config',
      `The profile file is invalid: 'models.${BUILTIN_PROFILE}' ` +
        `is reserved for the built-in models; rename the profile.`,
    );
  }
  const profiles = Object.entries(parsed.data.models).map(([name, raw]) => toProfile(name, raw));
  const judgeProfile = parsed.data.judge?.profile ?? null;
  if (judgeProfile && !profiles.some((p) => p.name === judgeProfile)) {
    throw new ConfigurationError(
      'unknown_profile',
      `The judge profile '${judgeProfile}' is not among the configured profiles.`,
    );
  }
  const top = parsed.data.concurrency;
  return new ProfileSet(
    profiles,
    judgeProfile,
    { maxConcurrent: top?.max_concurrent_requests, minIntervalMs: top?.min_interval_ms, groups: toGroups(top?.groups) },
    env,
  );
}

export async function loadProfilesFile(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProfileSet> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new ConfigurationError('bad_config', `Cannot read the profile file ${path}: ${error.code ?? error.message}`);
  });
  return loadProfiles(text, env);
}

/** Where upstream looks for its configuration: gitbench.json or .gitbench.json here, then ~/.gitbench.json. */
export async function findProfilesFile(cwd: string, home: string = homedir()): Promise<string | undefined> {
  for (const candidate of [join(cwd, 'gitbench.json'), join(cwd, '.gitbench.json'), join(home, '.gitbench.json')]) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}
