import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@gitbench/core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findProfilesFile, inferProviderKind, listProfiles, loadProfiles, loadProfilesFile } from '../src/profiles';
import { budgetLimitsFromProfiles } from '../src/profile-budgets';
import { ProviderRegistry } from '../src/registry';

// The shape of upstream's gitbench.json, extended with what this project adds (min_interval_ms).
const CONFIG = {
  models: {
    openrouter: {
      models: ['mistralai/devstral-2512', 'openai/gpt-5.1#high', 'openai/gpt-5.1#low'],
      base_url: 'https://openrouter.ai/api/v1',
      api_key_env: 'OPENROUTER_API_KEY',
      timeout: 90,
      retry_count: 4,
      extra_body: { provider: { order: ['DeepInfra'] } },
      concurrency: {
        max_concurrent_requests: 6,
        groups: [{ key: 'openrouter:gpt-5', match: 'openai/gpt-5*', max_concurrent_requests: 2 }],
      },
    },
    local: { model: 'llama3.1:8b', base_url: 'http://localhost:11434' },
    vllm: { model: 'Qwen/Qwen3-8B', base_url: 'http://127.0.0.1:8000/v1' },
    judges: {
      models: ['ibm-granite/granite-4.1-8b', 'openai/gpt-oss-120b#xhigh'],
      base_url: 'https://openrouter.ai/api/v1',
      api_key_env: 'OPENROUTER_API_KEY',
    },
  },
  judge: { profile: 'judges' },
  concurrency: { max_concurrent_requests: 8, min_interval_ms: 50 },
  campaign: { default_trials: 3 },
};

describe('keys from the environment', () => {
  it('are listed for cutting out of stored output, once each, short placeholders left alone', () => {
    const env = { OPENROUTER_API_KEY: 'sk-or-v1-from-the-environment', UNUSED_KEY: 'sk-never-named-by-a-profile' };
    const registry = new ProviderRegistry({ profiles: loadProfiles(JSON.stringify(CONFIG), env), env });
    expect(registry.environmentKeys()).toEqual(['sk-or-v1-from-the-environment']);
    const short = { OPENROUTER_API_KEY: 'none' };
    expect(
      new ProviderRegistry({ profiles: loadProfiles(JSON.stringify(CONFIG), short), env: short }).environmentKeys(),
    ).toEqual([]);
  });
});

describe('loadProfiles', () => {
  const set = loadProfiles(JSON.stringify(CONFIG), { OPENROUTER_API_KEY: 'sk-or-v1-secret' });

  it('reads upstream profiles, inferring the provider as upstream does (plus OpenRouter and /v1)', () => {
    expect(set.get('openrouter')).toMatchObject({
      provider: 'openrouter',
      models: CONFIG.models.openrouter.models,
      timeoutMs: 90_000,
      retryCount: 4,
      apiKeyEnv: 'OPENROUTER_API_KEY',
      extraBody: { provider: { order: ['DeepInfra'] } },
      concurrency: { maxConcurrent: 6 },
    });
    expect(set.get('local')).toMatchObject({
      provider: 'ollama',
      models: ['llama3.1:8b'],
      timeoutMs: 120_000,
      retryCount: 3,
      apiKeyEnv: null,
    });
    expect(set.get('vllm').provider).toBe('openai');
    expect(set.judgeProfile).toBe('judges');
    expect(inferProviderKind(undefined, null)).toBe('openai');
    expect(inferProviderKind('ollama', 'https://openrouter.ai/api/v1')).toBe('ollama');
  });

  it('lists profiles without revealing keys', () => {
    const listed = listProfiles(set);
    expect(listed.map((p) => [p.name, p.provider, p.apiKey, p.isJudge])).toEqual([
      ['openrouter', 'openrouter', 'set', false],
      ['local', 'ollama', 'not needed', false],
      ['vllm', 'openai', 'not needed', false],
      ['judges', 'openrouter', 'set', true],
    ]);
    expect(JSON.stringify(listed)).not.toContain('sk-or-v1-secret');
    expect(JSON.stringify(set)).not.toContain('sk-or-v1-secret');
    const missing = loadProfiles(JSON.stringify(CONFIG), {});
    expect(listProfiles(missing)[0]?.apiKey).toBe('missing');
    expect(() => missing.apiKeyFor(missing.get('openrouter'))).toThrow(/OPENROUTER_API_KEY.*not set/);
  });

  it('rejects a literal key anywhere, naming the field', () => {
    const literal = structuredClone(CONFIG) as Record<string, unknown> & typeof CONFIG;
    (literal.models.openrouter as Record<string, unknown>).api_key = 'sk-or-v1-abcdef';
    expect(() => loadProfiles(JSON.stringify(literal), {})).toThrow(ConfigurationError);
    expect(() => loadProfiles(JSON.stringify(literal), {})).toThrow(/'models\.openrouter\.api_key'/);

    const hidden = structuredClone(CONFIG);
    (hidden.models.openrouter.extra_body as Record<string, unknown>).headers = { Authorization: 'Bearer abc' };
    expect(() => loadProfiles(JSON.stringify(hidden), {})).toThrow(
      /'models\.openrouter\.extra_body\.headers\.Authorization'/,
    );

    const inEnvField = structuredClone(CONFIG);
    inEnvField.models.openrouter.api_key_env = 'sk-or-v1-0123456789abcdef';
    expect(() => loadProfiles(JSON.stringify(inEnvField), {})).toThrow(/api_key_env/);
  });

  it('reports invalid files with the field path', () => {
    expect(() => loadProfiles('{', {})).toThrow(/not valid JSON/);
    expect(() => loadProfiles(JSON.stringify({ models: { x: { retry_count: 0 } } }), {})).toThrow(
      /'models\.x\.retry_count'/,
    );
    expect(() => loadProfiles(JSON.stringify({ models: { x: { provider: 'bedrock' } } }), {})).toThrow(
      /'models\.x\.provider'/,
    );
    expect(() => loadProfiles(JSON.stringify({ models: {}, judge: { profile: 'ghost' } }), {})).toThrow(/ghost/);
    expect(() => set.get('ghost')).toThrow(/configured: openrouter, local, vllm, judges/);
  });

  it('derives capacity groups by glob on the base model, effort variants sharing one', () => {
    const profile = set.get('openrouter');
    expect(set.capacityGroupOf(profile, 'openai/gpt-5.1').key).toBe('openrouter:gpt-5');
    expect(set.capacityGroupOf(profile, 'mistralai/devstral-2512').key).toBe('openrouter:mistralai/devstral-2512');
    expect(budgetLimitsFromProfiles(set)).toMatchObject({
      global: { maxConcurrent: 8, minIntervalMs: 50 },
      profiles: { openrouter: { maxConcurrent: 6 } },
      groups: { 'openrouter:gpt-5': { maxConcurrent: 2 } },
    });
  });
});

describe('ProviderRegistry.resolve', () => {
  const env = { OPENROUTER_API_KEY: 'k' };
  const registry = new ProviderRegistry({ profiles: loadProfiles(JSON.stringify(CONFIG), env), env });

  it('finds a profile listing another effort of the same base model', async () => {
    expect((await registry.resolve({ model: 'openai/gpt-5.1#medium' })).profile).toBe('openrouter');
  });

  it('finds the profile listing a model, and the group of its base model', async () => {
    const target = await registry.resolve({ model: 'openai/gpt-5.1#high' });
    expect(target).toMatchObject({
      profile: 'openrouter',
      capacityGroup: 'openrouter:gpt-5',
      modelId: { baseModel: 'openai/gpt-5.1', effort: 'high' },
      simulated: false,
    });
    expect(target.provider.kind).toBe('openrouter');
  });

  it('applies --provider / --base-url, and builds an ad-hoc target from them alone', async () => {
    const overridden = await registry.resolve({
      model: 'llama3.1:8b',
      profile: 'local',
      baseUrl: 'http://127.0.0.1:9999/v1',
    });
    expect(overridden.provider.kind).toBe('openai');
    const adHoc = await registry.resolve({ model: 'qwen3:high', provider: 'ollama' });
    expect(adHoc).toMatchObject({ profile: 'command-line', modelId: { baseModel: 'qwen3', effort: 'high' } });
    await expect(registry.resolve({ model: 'unknown/model' })).rejects.toThrow(/--profile/);
    await expect(
      new ProviderRegistry({ profiles: loadProfiles(JSON.stringify(CONFIG), {}) }).resolve({
        model: 'mistralai/devstral-2512',
      }),
    ).rejects.toThrow(/OPENROUTER_API_KEY/);
  });

  it('resolves the scripted providers by name', async () => {
    expect((await registry.resolve({ model: 'mock' })).provider.kind).toBe('mock');
    expect((await registry.resolve({ model: 'oracle' })).provider.kind).toBe('oracle');
    const simulated = await registry.resolve({ model: 'simulated:7' });
    expect(simulated).toMatchObject({ simulated: true, model: 'simulated:7' });
    expect(simulated.provider.name).toMatch(/^simulated/);
  });

  it('builds the judge panel from the judge profile', () => {
    const panel = registry.judgePanel();
    expect(panel.members.map((m) => [m.memberId, m.model])).toEqual([
      ['judge-0', 'ibm-granite/granite-4.1-8b'],
      ['judge-1', 'openai/gpt-oss-120b#xhigh'],
    ]);
    expect(() => new ProviderRegistry().judgePanel()).toThrow(/judge profile/);
  });
});

describe('profile files on disk', () => {
  it('finds gitbench.json as upstream does and loads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitbench-profiles-'));
    const home = mkdtempSync(join(tmpdir(), 'gitbench-home-'));
    expect(await findProfilesFile(dir, home)).toBeUndefined();
    writeFileSync(join(home, '.gitbench.json'), JSON.stringify({ models: { home: { model: 'a' } } }));
    expect(await findProfilesFile(dir, home)).toBe(join(home, '.gitbench.json'));
    writeFileSync(join(dir, 'gitbench.json'), JSON.stringify(CONFIG));
    const path = await findProfilesFile(dir, home);
    expect(path).toBe(join(dir, 'gitbench.json'));
    expect((await loadProfilesFile(path as string, {})).profiles).toHaveLength(4);
    await expect(loadProfilesFile(join(dir, 'missing.json'), {})).rejects.toThrow(/Cannot read/);
  });
});
