import { describe, expect, it } from 'vitest';
import {
  campaignConfigSchema,
  canonicalConfig,
  configHash,
  parseCampaignConfig,
  resolveSuiteVersion,
  SuiteVersionMismatchError,
} from '../../src/campaign';

const base = { name: 'Nightly', createdBy: 'ana', models: ['openai/o3-mini#high'] };

describe('campaignConfigSchema', () => {
  it('applies defaults', () => {
    const config = campaignConfigSchema.parse(base);
    expect(config.trials).toBe(3);
    expect(config.seed).toBe(0);
    expect(config.outputModes).toEqual(['text']);
    expect(config.fixtures).toEqual({ suiteDir: 'fixtures', domains: [], difficulties: [], tags: [], ids: [] });
  });

  it('reports readable errors per field, nested paths dotted', () => {
    const result = parseCampaignConfig({
      name: ' ',
      models: ['a#turbo', ''],
      outputModes: ['xml'],
      trials: 21,
      fixtures: { ids: ['f001'], difficulties: ['impossible'] },
      extra: 1,
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    const errors = result.error.fieldErrors;
    expect(errors.name).toEqual(['Enter a name.']);
    expect(errors.createdBy).toEqual(['Say who creates the campaign.']);
    expect(errors['models.0']?.[0]).toMatch(/'turbo' is not a reasoning effort/);
    expect(errors['models.1']).toEqual(['Enter a model id.']);
    expect(errors['outputModes.0']).toEqual(['Use text, json_schema or agent.']);
    expect(errors.trials).toEqual(['Run at most 20 trials.']);
    expect(errors['fixtures.ids.0']).toEqual(['Write a fixture as domain/id, e.g. log/f001.']);
    expect(errors['fixtures.difficulties.0']?.[0]).toMatch(/^Use one of trivial/);
    expect(errors.extra).toEqual(["Unknown field 'extra'."]);
  });

  it('rejects a non-object with a form error', () => {
    const result = parseCampaignConfig('nope');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.formErrors).toHaveLength(1);
  });

  it('accepts 1 and 20 trials and rejects 0 and fractions', () => {
    expect(parseCampaignConfig({ ...base, trials: 1 }).success).toBe(true);
    expect(parseCampaignConfig({ ...base, trials: 20 }).success).toBe(true);
    expect(parseCampaignConfig({ ...base, trials: 0 }).success).toBe(false);
    expect(parseCampaignConfig({ ...base, trials: 2.5 }).success).toBe(false);
  });
});

describe('canonicalConfig and configHash', () => {
  it('sorts and de-duplicates every list and spells efforts with #', () => {
    const canonical = canonicalConfig({
      ...base,
      models: ['z-model', 'openai/o3-mini:high', 'openai/o3-mini#high'],
      outputModes: ['json_schema', 'text', 'text'],
      fixtures: {
        domains: ['merge', 'log'],
        tags: ['b', 'a'],
        ids: ['log/f2', 'log/f1'],
        difficulties: ['hard', 'easy'],
      },
    });
    expect(canonical.models).toEqual(['openai/o3-mini#high', 'z-model']);
    expect(canonical.outputModes).toEqual(['json_schema', 'text']);
    expect(canonical.fixtures).toEqual({
      suiteDir: 'fixtures',
      domains: ['log', 'merge'],
      difficulties: ['easy', 'hard'],
      tags: ['a', 'b'],
      ids: ['log/f1', 'log/f2'],
    });
  });

  it('is a sha256 hex that ignores list order, defaults spelled out, labels and concurrency', () => {
    const a = configHash({ ...base, models: ['m1', 'm2'], outputModes: ['text', 'json_schema'] });
    const b = configHash({
      name: 'Other name',
      createdBy: 'bo',
      models: ['m2', 'm1', 'm1'],
      outputModes: ['json_schema', 'text'],
      trials: 3,
      seed: 0,
      concurrency: 8,
    });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
  });

  it('changes with anything that changes the evaluation', () => {
    const h = configHash(base);
    expect(configHash({ ...base, trials: 4 })).not.toBe(h);
    expect(configHash({ ...base, seed: 1 })).not.toBe(h);
    expect(configHash({ ...base, models: ['openai/o3-mini#low'] })).not.toBe(h);
    expect(configHash({ ...base, judgeProfile: 'panel' })).not.toBe(h);
    expect(configHash({ ...base, fixtures: { domains: ['log'] } })).not.toBe(h);
    expect(configHash({ ...base, fixtures: { suiteVersion: '2' } })).not.toBe(h);
  });

  it('is idempotent', () => {
    const once = canonicalConfig({ ...base, models: ['b', 'a'] });
    expect(canonicalConfig(once)).toEqual(once);
    expect(configHash(once)).toBe(configHash({ ...base, models: ['a', 'b'] }));
  });

  it('pins the suite version to the loaded suite', () => {
    const config = campaignConfigSchema.parse(base);
    expect(resolveSuiteVersion(config, '1.2.0').fixtures.suiteVersion).toBe('1.2.0');
    const asked = campaignConfigSchema.parse({ ...base, fixtures: { suiteVersion: '1.0.0' } });
    expect(() => resolveSuiteVersion(asked, '1.2.0')).toThrow(SuiteVersionMismatchError);
  });
});
