import { canonicalJson, compareCodeUnits, sha256Hex } from '../canonical-json';
import { formatModelId, parseModelId } from '../models/model-id';
import { agentConfigSchema, OWN_AGENT } from '../agent/agent-config';
import { campaignConfigSchema, type CampaignConfig, type CampaignConfigInput } from './config-schema';

/** Sorted by UTF-16 code units, never by locale, so every machine orders alike. */
function sortedSet<T extends string>(values: readonly T[]): T[] {
  return [...new Set(values)].sort(compareCodeUnits);
}

/**
 * The configuration in its one canonical spelling: defaults applied, model ids in the `base#effort`
 * form (so `o3-mini:high` and `o3-mini#high` are one model), and every list sorted and de-duplicated.
 * Every list in a configuration is a set: the plan derives its order from the sorted lists, so the order
 * the user typed changes nothing and must not change the hash.
 */
export function canonicalConfig(input: CampaignConfig | CampaignConfigInput): CampaignConfig {
  const config = campaignConfigSchema.parse(input);
  const canonical: CampaignConfig = {
    name: config.name,
    createdBy: config.createdBy,
    models: sortedSet(config.models.map((raw) => formatModelId(parseModelId(raw)))),
    outputModes: sortedSet(config.outputModes),
    fixtures: {
      suiteDir: config.fixtures.suiteDir,
      domains: sortedSet(config.fixtures.domains),
      difficulties: sortedSet(config.fixtures.difficulties),
      tags: sortedSet(config.fixtures.tags),
      ids: sortedSet(config.fixtures.ids),
    },
    trials: config.trials,
    seed: config.seed,
  };
  if (config.fixtures.suiteVersion !== undefined) canonical.fixtures.suiteVersion = config.fixtures.suiteVersion;
  if (config.judgeProfile !== undefined) canonical.judgeProfile = config.judgeProfile;
  if (config.concurrency !== undefined) canonical.concurrency = config.concurrency;
  // Agent targets always carry their configuration, defaults spelled out: an omitted section and the
  // defaults written in full are one configuration with one hash.
  if (canonical.outputModes.includes('agent')) {
    canonical.agent = agentConfigSchema.parse(config.agent ?? {});
    // Our own loop alone is what every campaign before agents could be chosen ran: spelled by omission,
    // so those campaigns keep their hash.
    const agents = sortedSet(config.agents ?? [OWN_AGENT]);
    if (agents.length !== 1 || agents[0] !== OWN_AGENT) canonical.agents = agents;
  }
  return canonical;
}

/** The agents of a canonical configuration's agent targets (our own loop when none are listed). */
export function campaignAgents(config: CampaignConfig): string[] {
  return config.outputModes.includes('agent') ? sortedSet(config.agents ?? [OWN_AGENT]) : [];
}

/**
 * The part of a configuration that decides what is evaluated. Name and author are labels, and
 * concurrency only changes how fast it runs; leaving them out lets two campaigns with the same
 * evaluation share a hash, so re-runs of one configuration can be found and compared.
 */
export function evaluationIdentity(config: CampaignConfig): Omit<CampaignConfig, 'name' | 'createdBy' | 'concurrency'> {
  const { name: _name, createdBy: _createdBy, concurrency: _concurrency, ...identity } = canonicalConfig(config);
  return identity;
}

/** sha256 (hex) of the canonical JSON (keys sorted at every depth) of the evaluation identity. */
export function configHash(config: CampaignConfig | CampaignConfigInput): string {
  return sha256Hex(canonicalJson(evaluationIdentity(canonicalConfig(config))));
}

export class SuiteVersionMismatchError extends Error {
  override readonly name = 'SuiteVersionMismatchError';
  constructor(
    readonly requested: string,
    readonly loaded: string,
  ) {
    super(`The configuration asks for suite version ${requested}, but the suite on disk is version ${loaded}.`);
  }
}

/**
 * Pins the suite version to the one actually loaded before the hash is taken, so a campaign's hash
 * always names the suite it ran. A requested version that differs from the loaded one is an error.
 */
export function resolveSuiteVersion(config: CampaignConfig, loadedVersion: string): CampaignConfig {
  const requested = config.fixtures.suiteVersion;
  if (requested !== undefined && requested !== loadedVersion)
    throw new SuiteVersionMismatchError(requested, loadedVersion);
  return { ...config, fixtures: { ...config.fixtures, suiteVersion: loadedVersion } };
}
