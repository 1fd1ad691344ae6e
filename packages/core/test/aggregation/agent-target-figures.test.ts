import { describe, expect, it } from 'vitest';
import { sameTarget, targetFigures, type PassAnyCell, type TargetSums } from '../../src';

const resources = { costUsd: 0, costKnown: 0, costEstimated: 0, tokens: 0, tokensKnown: 0, apiMs: 0, apiKnown: 0 };
function sums(modelId: string, agent: string | null, passes: number, valid: number): TargetSums {
  return {
    modelId,
    effort: null,
    outputMode: 'agent',
    agent,
    campaigns: 1,
    attempts: valid,
    valid,
    passes,
    infraFailures: 0,
    unscored: 0,
    otherExcluded: 0,
    classified: valid,
    stablePass: passes,
    stableFail: valid - passes,
    flaky: 0,
    unknown: 0,
    anyCurrent: true,
    anyLegacy: false,
    allLegacy: false,
    maxTrials: 1,
    total: { ...resources, costExpected: valid, tokensExpected: valid, apiExpected: valid },
    trialRounds: 1,
    completeTrials: 1,
    inCompleteTrials: { ...resources, attempts: valid },
  };
}

describe('agent × model targets in the figures', () => {
  it('keeps two agents on one model, and one agent on two models, as rows of their own with their own pass_any', () => {
    const passAny: PassAnyCell[] = [
      { modelId: 'oracle', outputMode: 'agent', agent: 'codex', n: 1, num: 3, den: 3 },
      { modelId: 'oracle', outputMode: 'agent', agent: 'claude-code', n: 1, num: 2, den: 3 },
      { modelId: 'oracle', outputMode: 'agent', agent: null, n: 1, num: 1, den: 3 },
      { modelId: 'nop', outputMode: 'agent', agent: 'codex', n: 1, num: 0, den: 3 },
    ];
    const rows = targetFigures(
      [
        sums('oracle', 'codex', 3, 3),
        sums('oracle', 'claude-code', 2, 3),
        sums('oracle', null, 1, 3),
        sums('nop', 'codex', 0, 3),
      ],
      passAny,
    );
    expect(
      rows.map((r) => [r.rank, r.agent, r.modelId, r.passAny.applicable && r.passAny.points[0]!.numerator]),
    ).toEqual([
      [1, 'codex', 'oracle', 3],
      [2, 'claude-code', 'oracle', 2],
      [3, null, 'oracle', 1],
      [4, 'codex', 'nop', 0],
    ]);
  });

  it('takes an absent agent for our own loop', () => {
    expect(sameTarget({ modelId: 'm', outputMode: 'agent' }, { modelId: 'm', outputMode: 'agent', agent: null })).toBe(
      true,
    );
    expect(sameTarget({ modelId: 'm', outputMode: 'agent' }, { modelId: 'm', outputMode: 'agent', agent: 'pi' })).toBe(
      false,
    );
  });
});
