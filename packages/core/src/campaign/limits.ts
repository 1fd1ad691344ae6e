import type { CampaignConfig } from './config-schema';
import type { CampaignConfigErrors } from './config-schema';
import { campaignAgents, canonicalConfig } from './config-hash';

/** How large one campaign may be; checked on the configuration, before anything is planned in memory. */
export interface CampaignLimits {
  /** Distinct models (GITBENCH_MAX_MODELS_PER_CAMPAIGN). */
  maxModels: number;
  /** Models × output modes × selected fixtures × trials (GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN). */
  maxAttempts: number;
}

export const DEFAULT_CAMPAIGN_LIMITS: CampaignLimits = { maxModels: 50, maxAttempts: 100_000 };

const positive = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return raw !== undefined && Number.isInteger(n) && n > 0 ? n : fallback;
};

export function campaignLimitsFromEnv(env: Readonly<Record<string, string | undefined>>): CampaignLimits {
  return {
    maxModels: positive(env['GITBENCH_MAX_MODELS_PER_CAMPAIGN'], DEFAULT_CAMPAIGN_LIMITS.maxModels),
    maxAttempts: positive(env['GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN'], DEFAULT_CAMPAIGN_LIMITS.maxAttempts),
  };
}

const n = (x: number) => x.toLocaleString('en-US');

/** The models limit, checked on the parsed configuration alone: a 400 naming the limit, or null. */
export function modelLimitError(config: CampaignConfig, limits: CampaignLimits): CampaignConfigErrors | null {
  const models = new Set(config.models).size;
  if (models <= limits.maxModels) return null;
  return {
    formErrors: [],
    fieldErrors: {
      models: [
        `A campaign may have at most ${n(limits.maxModels)} models ` +
          `(GITBENCH_MAX_MODELS_PER_CAMPAIGN); this one has ${n(models)}.`,
      ],
    },
  };
}

/**
 * The attempts limit, counted arithmetically (targets × selected fixtures × trials) so that an
 * oversized configuration is refused without building its plan.
 */
export function attemptLimitError(
  config: CampaignConfig,
  selectedFixtures: number,
  limits: CampaignLimits,
): CampaignConfigErrors | null {
  const canonical = canonicalConfig(config);
  // Agent mode counts once per agent (each drives every model).
  const agents = campaignAgents(canonical).length;
  const modeRuns = canonical.outputModes.filter((m) => m !== 'agent').length + agents;
  const attempts = canonical.models.length * modeRuns * selectedFixtures * canonical.trials;
  if (attempts <= limits.maxAttempts) return null;
  const modes =
    agents > 1
      ? `${canonical.outputModes.length} output modes, agent mode with ${agents} agents`
      : `${canonical.outputModes.length} output modes`;
  return {
    formErrors: [
      `This campaign would run ${n(attempts)} attempts (${n(canonical.models.length)} models ` +
        `× ${modes} × ${n(selectedFixtures)} fixtures × ${canonical.trials} trials); the limit ` +
        `is ${n(limits.maxAttempts)} attempts per campaign (GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN).`,
    ],
    fieldErrors: {},
  };
}
