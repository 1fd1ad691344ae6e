import { parseModelId } from '@gitbench/core';
import { BUILTIN_PROFILE, builtinKindOf, simulatedSeedOf } from './builtin-models';
import { createReplayProvider } from './replay';
import type { ReplayTargets } from './replay-targets';
import type { TargetSpec, ResolvedTarget } from './registry-types';
import { createMockProvider, createNopProvider, createOracleProvider, createSimulatedProvider } from './scripted';
import type { Provider } from './types';

/**
 * The target of a built-in model (mock, nop, oracle, simulated, replay), answered without any profile;
 * undefined when the spec names none.
 */
export async function resolveBuiltinTarget(
  spec: TargetSpec,
  replays: ReplayTargets,
): Promise<ResolvedTarget | undefined> {
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
    const index = await replays.index(spec.model);
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
