import type { TargetFigures } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { targetLines } from '../src/campaign/format-status';

const resources = { costUsd: { value: null }, tokens: { value: null }, apiDurationMs: { value: null } };
const target = (singleTrial: boolean) =>
  ({
    modelId: 'oracle',
    outputMode: 'text',
    meanSuccess: { numerator: 2, denominator: 3, value: 2 / 3 },
    passAny: { applicable: false, message: 'one trial' },
    classification: { applicable: true, stablePass: 2, flaky: 0, stableFail: 1, unknown: 0 },
    perTrial: resources,
    totals: resources,
    trialRounds: 1,
    completeTrials: 1,
    singleTrial,
  }) as unknown as TargetFigures;

describe('a target in campaign status', () => {
  it('says "single trial" instead of stable pass or fail when every campaign ran one trial', () => {
    const lines = targetLines(target(true), undefined);
    expect(lines).toContain('    fixtures       single trial: 2 pass, 1 fail, 0 unknown');
    expect(lines.join('\n')).not.toMatch(/stable/);
  });

  it('says stable and flaky over several trials', () => {
    expect(targetLines(target(false), undefined)).toContain(
      '    fixtures       2 stable pass, 0 flaky, 1 stable fail, 0 unknown',
    );
  });
});
