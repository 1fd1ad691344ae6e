import { describeAgents } from '@gitbench/agents';
import { campaignLimitsFromEnv, safetyReviewerFromEnv } from '@gitbench/core';
import { detectProductVersion, loadSuiteDir, type LoadedSuiteDir } from '@gitbench/engine';
import type { ProviderRegistry } from '@gitbench/providers';
import type { CreateCampaignDeps, LoadedSuite } from '@gitbench/use-cases';

/** A suite read from disk as campaign creation takes it: its fixtures, its broken files, its limits and modes. */
export function campaignSuite(suite: LoadedSuiteDir): LoadedSuite {
  return {
    version: suite.version,
    fixtures: suite.fixtures,
    invalid: suite.errors,
    ...(suite.agentLimits ? { agentLimits: suite.agentLimits } : {}),
    ...(suite.modes ? { modes: suite.modes } : {}),
  };
}

/**
 * What campaign creation needs from this process, but its database and queue. Unlike the web, which takes
 * configurations from browsers and so only reads allow-listed suites, the CLI reads the directory its user names.
 */
export function campaignDeps(registry: ProviderRegistry): Omit<CreateCampaignDeps, 'db' | 'queue'> {
  return {
    loadSuite: async (dir) => campaignSuite(await loadSuiteDir(dir)),
    profileFor: (modelId) => registry.describeModel(modelId),
    modelError: (modelId, outputModes) => registry.replayTargetError(modelId, outputModes),
    judgeProfileError: (name) => registry.judgeProfileError(name),
    agents: describeAgents().map((a) => a.name),
    // The checkout this CLI is (or GITBENCH_VERSION when a build baked one in), not the user's directory.
    productVersion: detectProductVersion(process.env, import.meta.dirname),
    limits: campaignLimitsFromEnv(process.env),
    safetyReviewConfigured: safetyReviewerFromEnv(process.env).kind !== 'off',
  };
}
