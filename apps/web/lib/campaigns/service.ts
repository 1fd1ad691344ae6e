import 'server-only';
import type { CreateCampaignDeps } from '@gitbench/use-cases';
import { describeAgents } from '@gitbench/engine';
import { productVersion, providerRegistry } from '../services';
import { safetyReviewerFromEnv } from '@gitbench/core';
import { loadSuite } from './suites';
import { webEnv } from '../env';
import type { Actor } from '../auth/guard';

/**
 * Campaign creation's dependencies but storage: the allow-listed suites, the registry's answer on each model, the
 * agents workers run.
 */
export async function campaignDeps(): Promise<Omit<CreateCampaignDeps, 'db' | 'queue'>> {
  const registry = await providerRegistry();
  const env = webEnv();
  return {
    safetyReviewConfigured: safetyReviewerFromEnv(process.env).kind !== 'off',
    limits: { maxModels: env.GITBENCH_MAX_MODELS_PER_CAMPAIGN, maxAttempts: env.GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN },
    loadSuite,
    profileFor: (modelId) => registry.describeModel(modelId),
    modelError: (modelId, outputModes) => registry.replayTargetError(modelId, outputModes),
    judgeProfileError: (name) => registry.judgeProfileError(name),
    agents: describeAgents().map((a) => a.name),
    productVersion: productVersion(),
  };
}

/** Who creates a campaign is the signed-in caller, whatever the body says. */
export function withCreator(body: unknown, actor: Actor): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return { ...body, createdBy: actor.email };
}
