import {
  attemptLimitError,
  CampaignPlanError,
  agentConfigSchema,
  DEFAULT_CAMPAIGN_LIMITS,
  modelLimitError,
  OWN_AGENT,
  selectFixtures,
  type CampaignLimits,
  configHash,
  canonicalConfig,
  parseCampaignConfig,
  planAttempts,
  resolveSuiteVersion,
  SuiteVersionMismatchError,
  type CampaignConfig,
  type CampaignConfigErrors,
  type Fixture,
  type Mode,
  type SuiteAgentLimits,
  type SuiteModes,
  suiteModeRefusal,
  withSuiteAgentLimits,
} from '@gitbench/core';

export interface LoadedSuite {
  version: string;
  fixtures: Fixture[];
  /** Files that failed validation: they are left out of every selection, and said so. */
  invalid: { file: string; line: number; field: string; message: string }[];
  /** The suite's defaults for agent attempts (suite.yaml); a limit the configuration gives wins. */
  agentLimits?: SuiteAgentLimits;
  /** The modes its tasks are built for (suite.yaml's `modes`); absent, every mode. */
  modes?: SuiteModes;
}

/** What checking a configuration needs from the process: its suites, its profiles and agents, its limits. */
export interface PrepareCampaignDeps {
  loadSuite(dir: string): Promise<LoadedSuite>;
  /** The profile that serves a model id, or an error message naming why none does. */
  profileFor(modelId: string): { profile: string } | { error: string };
  /**
   * Why a model cannot run in these output modes although a profile serves it (a `replay:` source
   * that is missing, outside the replay directories, unreadable, or of the wrong kind), or null.
   * Checked before anything is written, by the same code that opens the model for an attempt.
   */
  modelError?(modelId: string, outputModes: readonly Mode[]): Promise<string | null>;
  /**
   * The third-party agents this deployment can run (`gitbench agents`), by name. A campaign may list
   * these and GitBench's own loop; absent, it may list only our own loop.
   */
  agents?: readonly string[];
  /** Why the judge profile cannot judge (unknown, no models), or null when it can. */
  judgeProfileError?(name: string): string | null;
  /** How large a campaign may be (default DEFAULT_CAMPAIGN_LIMITS); checked before anything is planned. */
  limits?: CampaignLimits;
}

export type PreparedCampaign =
  | {
      ok: true;
      config: CampaignConfig;
      hash: string;
      suite: LoadedSuite;
      plan: ReturnType<typeof planAttempts<Fixture>>;
      profiles: Map<string, string>;
    }
  | { ok: false; errors: CampaignConfigErrors };

const SUITE_MANIFEST = 'suite.yaml';

const fail = (field: string, message: string): PreparedCampaign => ({
  ok: false,
  errors: { formErrors: [], fieldErrors: { [field]: [message] } },
});

/**
 * Validates a configuration against the suite and the configured profiles and plans it, writing
 * nothing. Used by createCampaign (before writing), the form's estimate and the CLI's dry run.
 */
export async function prepareCampaign(input: unknown, deps: PrepareCampaignDeps): Promise<PreparedCampaign> {
  const parsed = parseCampaignConfig(input);
  if (!parsed.success) return { ok: false, errors: parsed.error };
  const limits = deps.limits ?? DEFAULT_CAMPAIGN_LIMITS;
  const tooManyModels = modelLimitError(parsed.data, limits);
  if (tooManyModels) return { ok: false, errors: tooManyModels };
  let suite: LoadedSuite;
  try {
    suite = await deps.loadSuite(parsed.data.fixtures.suiteDir);
  } catch (err) {
    return fail('fixtures.suiteDir', (err as Error).message);
  }
  // A campaign runs in the modes its suite allows, an agent one under the suite's limits: a suite.yaml that
  // does not load cannot say either.
  const manifestError = suite.invalid.find((e) => e.file === SUITE_MANIFEST);
  if (manifestError)
    return fail('fixtures.suiteDir', `${SUITE_MANIFEST}: ${manifestError.field || '(file)'}: ${manifestError.message}`);
  const refused = parsed.data.outputModes.flatMap((mode) => suiteModeRefusal(suite.modes, mode) ?? []);
  if (refused.length > 0) return { ok: false, errors: { formErrors: [], fieldErrors: { outputModes: refused } } };
  let config: CampaignConfig;
  try {
    config = canonicalConfig(
      withSuiteLimits(resolveSuiteVersion(parsed.data, suite.version), input, suite.agentLimits),
    );
  } catch (err) {
    if (err instanceof SuiteVersionMismatchError) return fail('fixtures.suiteVersion', err.message);
    throw err;
  }
  const tooManyAttempts = attemptLimitError(
    config,
    selectFixtures(config.fixtures, suite.fixtures).fixtures.length,
    limits,
  );
  if (tooManyAttempts) return { ok: false, errors: tooManyAttempts };
  const profiles = new Map<string, string>();
  const fieldErrors: Record<string, string[]> = {};
  config.models.forEach((model, i) => {
    const found = deps.profileFor(model);
    if ('error' in found) fieldErrors[`models.${i}`] = [found.error];
    else profiles.set(model, found.profile);
  });
  const modelErrors = await Promise.all(
    config.models.map((model, i) =>
      fieldErrors[`models.${i}`] || !deps.modelError ? null : deps.modelError(model, config.outputModes),
    ),
  );
  // The form lists every model's errors together, so each names its entry (models[2]) as well as its key.
  modelErrors.forEach((error, i) => {
    if (error) fieldErrors[`models.${i}`] = [`models[${i}]: ${error}`];
  });
  agentErrors(parsed.data, deps.agents ?? []).forEach(([field, message]) => (fieldErrors[field] = [message]));
  const judgeError = config.judgeProfile ? deps.judgeProfileError?.(config.judgeProfile) : null;
  if (judgeError) fieldErrors.judgeProfile = [judgeError];
  if (Object.keys(fieldErrors).length > 0) return { ok: false, errors: { formErrors: [], fieldErrors } };
  try {
    const plan = planAttempts(config, suite.fixtures);
    return { ok: true, config, hash: configHash(config), suite, plan, profiles };
  } catch (err) {
    if (err instanceof CampaignPlanError) return fail(err.field, err.message);
    throw err;
  }
}

/**
 * The suite's agent limits written into the configuration where it gives none, so that the stored
 * configuration (and its hash) says what its attempts run under. A configuration without the agent
 * mode, or a suite without an `agent` section, is left as it was: existing campaigns keep their hash.
 */
function withSuiteLimits(config: CampaignConfig, input: unknown, limits: SuiteAgentLimits | undefined): CampaignConfig {
  if (!limits || !config.outputModes.includes('agent')) return config;
  const given = (input as { agent?: unknown } | null)?.agent;
  return { ...config, agent: withSuiteAgentLimits(config.agent ?? agentConfigSchema.parse({}), given, limits) };
}

/**
 * Each listed agent that this deployment cannot run, keyed by its field (`agents.1`) and naming its entry
 * and the agents there are, checked before anything is written (the registry's names, not the image:
 * an agent's image is built when its first attempt runs).
 */
export function agentErrors(config: CampaignConfig, known: readonly string[]): [string, string][] {
  const choices = [OWN_AGENT, ...known].join(', ');
  return (config.agents ?? []).flatMap((name, i): [string, string][] =>
    name === OWN_AGENT || known.includes(name)
      ? []
      : [[`agents.${i}`, `agents[${i}]: unknown agent '${name}'. Use one of ${choices}.`]],
  );
}
