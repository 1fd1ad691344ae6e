import { parseModelId } from '@gitbench/core';
import type { Profile } from '../profiles';

/**
 * `--model manual` (or `manual:<who>`) without a profile listing it: the manual endpoint that
 * `gitbench manual` serves, at GITBENCH_MANUAL_URL or the default port. A person needs minutes per
 * turn where a model needs seconds, so the call waits as long as the agent's longest wall-time limit
 * allows, and is tried once (a second try would put the same question to the person again).
 */
export const MANUAL_MODEL = 'manual';
export const DEFAULT_MANUAL_PORT = 4717;
const SIX_HOURS_MS = 6 * 3_600_000;

export function isManualModel(model: string): boolean {
  try {
    const base = parseModelId(model.trim()).baseModel;
    return base === MANUAL_MODEL || /^manual:[A-Za-z0-9._-]+$/.test(base);
  } catch {
    return false;
  }
}

export function manualProfile(env: Readonly<Record<string, string | undefined>>): Profile {
  return {
    name: MANUAL_MODEL,
    provider: 'openai',
    models: [MANUAL_MODEL, 'manual:*'],
    baseUrl: env.GITBENCH_MANUAL_URL ?? `http://127.0.0.1:${DEFAULT_MANUAL_PORT}/v1`,
    apiKeyEnv: null,
    timeoutMs: SIX_HOURS_MS,
    retryCount: 1,
    extraBody: {},
    concurrency: { groups: [] },
  };
}
