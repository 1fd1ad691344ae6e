import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyLegacyScore, LegacyEnvelopeError, planLegacyImport } from '../../src/legacy';

import { UPSTREAM_RESULTS as RESULTS } from '../fixtures/upstream-data';
const files = readdirSync(RESULTS).filter((f) => f.endsWith('.json'));

describe('upstream result envelopes', () => {
  it.each(files)('%s becomes one legacy attempt per recorded score, verdicts kept', (file) => {
    const text = readFileSync(path.join(RESULTS, file), 'utf8');
    const raw = JSON.parse(text) as {
      results: { scores: { passed: boolean }[] }[];
      summary: { total_passed: number; total_fixtures: number };
    };
    const plan = planLegacyImport(file, text);
    expect(plan.attempts).toHaveLength(raw.summary.total_fixtures);
    expect(plan.attempts.filter((a) => a.status === 'VALID_PASS')).toHaveLength(raw.summary.total_passed);
    expect(plan.model).toBe('mistralai/devstral-2512');
    expect(plan.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.safetyReview).toBe('approved');
  });

  it('names the file and the path of a broken field', () => {
    expect(() =>
      planLegacyImport(
        'bad.json',
        '{"benchmark_suite_version":"1","timestamp":"t","model":"m",' +
          '"results":[{"benchmark":"x","scores":[{"passed":true}]}]}',
      ),
    ).toThrow(/bad\.json: results\.0\.scores\.0\.fixture_id/);
    expect(() => planLegacyImport('x.json', '{not json')).toThrow(LegacyEnvelopeError);
    expect(() =>
      planLegacyImport('e.json', '{"benchmark_suite_version":"1","timestamp":"t","model":"m","results":[]}'),
    ).toThrow(/no scores/);
  });

  it('counts transport failures as infrastructure, scorer mismatches as valid failures', () => {
    expect(
      classifyLegacyScore({ fixture_id: 'f', passed: false, model_output: '', error: 'Request timed out after 60s' }),
    ).toBe('INFRA_FAILURE');
    expect(
      classifyLegacyScore({
        fixture_id: 'f',
        passed: false,
        model_output: 'git log',
        error: "Expected 'x', got 'git log'",
      }),
    ).toBe('VALID_FAIL');
    expect(
      classifyLegacyScore({ fixture_id: 'f', passed: false, model_output: '', error: 'Expected x, got empty' }),
    ).toBe('VALID_FAIL');
    expect(classifyLegacyScore({ fixture_id: 'f', passed: true })).toBe('VALID_PASS');
  });
});
