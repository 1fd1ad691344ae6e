import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  humanModelId,
  isControlModelId,
  isHumanModelId,
  targetFigures,
  type TargetSums,
} from '../../src';

const resources = { costUsd: 0, costKnown: 0, costEstimated: 0, tokens: 0, tokensKnown: 0, apiMs: 0, apiKnown: 0 };
function sums(modelId: string, passes: number, valid: number): TargetSums {
  return {
    modelId,
    effort: null,
    outputMode: 'agent',
    campaigns: 1,
    attempts: valid,
    valid,
    passes,
    infraFailures: 0,
    unscored: 0,
    otherExcluded: 0,
    classified: 0,
    stablePass: 0,
    stableFail: 0,
    flaky: 0,
    unknown: 0,
    anyCurrent: true,
    anyLegacy: false,
    allLegacy: false,
    maxTrials: 1,
    total: { ...resources, costExpected: 0, tokensExpected: 0, apiExpected: 0 },
    trialRounds: 1,
    completeTrials: 1,
    inCompleteTrials: { ...resources, attempts: valid },
  };
}

describe('human baselines', () => {
  it('are the targets human:<name>, named by a person, never a control', () => {
    expect(humanModelId('ana')).toBe('human:ana');
    expect(humanModelId(' bo.k-2 ')).toBe('human:bo.k-2');
    expect(isHumanModelId('human:ana')).toBe(true);
    expect(['human', 'human:', 'human:a b', 'acme/human:ana'].map(isHumanModelId)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(isControlModelId('human:ana')).toBe(false);
    expect(() => humanModelId('a b')).toThrow(ConfigurationError);
    expect(() => humanModelId('high')).toThrow(/reasoning effort/);
  });

  it('keep their place in the order but take no rank: the models are numbered as if they were absent', () => {
    const rows = targetFigures([sums('acme/a', 30, 60), sums('human:ana', 8, 8), sums('acme/b', 50, 60)], []);
    expect(rows.map((r) => [r.modelId, r.rank])).toEqual([
      ['acme/b', 1],
      ['human:ana', 0],
      ['acme/a', 2],
    ]);
    const top = targetFigures([sums('human:ana', 60, 60), sums('acme/a', 30, 60)], []);
    expect(top.map((r) => [r.modelId, r.rank])).toEqual([
      ['human:ana', 0],
      ['acme/a', 1],
    ]);
  });
});
