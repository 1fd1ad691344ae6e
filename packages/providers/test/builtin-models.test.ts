import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_MODELS, BUILTIN_PROFILE, builtinKindOf, simulatedSeedOf } from '../src/builtin-models';
import { loadProfiles } from '../src/profiles';
import { ProviderRegistry } from '../src/registry';

const CONFIG = {
  models: {
    openrouter: {
      models: ['openai/gpt-5.1#high'],
      base_url: 'https://openrouter.ai/api/v1',
      api_key_env: 'OPENROUTER_API_KEY',
    },
    local: { model: 'llama3.1:8b', base_url: 'http://localhost:11434' },
  },
};

describe('built-in models', () => {
  it('are recognised with or without an effort, and nothing else is', () => {
    expect(builtinKindOf('oracle')).toBe('oracle');
    expect(builtinKindOf('mock#high')).toBe('mock');
    expect(builtinKindOf('simulated')).toBe('simulated');
    expect(builtinKindOf('simulated:42')).toBe('simulated');
    expect(builtinKindOf('simulated:high')).toBe('simulated');
    expect(builtinKindOf('replay:/tmp/a.json,/tmp/b.json')).toBe('replay');
    // `sim` was once accepted by the web and unknown to the workers: it is not a model.
    expect(builtinKindOf('sim')).toBeNull();
    expect(builtinKindOf('replay:')).toBeNull();
    expect(builtinKindOf('openai/gpt-5.1')).toBeNull();
    expect(builtinKindOf('mock#bogus')).toBeNull();
    expect(simulatedSeedOf('simulated:42')).toBe('42');
    expect(simulatedSeedOf('simulated:high')).toBe('0');
    expect(BUILTIN_MODELS.map((m) => m.kind)).toEqual(['oracle', 'nop', 'mock', 'simulated', 'replay']);
    expect(builtinKindOf('nop')).toBe('nop');
  });

  it('resolve to the scripted providers under the builtin profile', async () => {
    const registry = new ProviderRegistry();
    const sim = await registry.resolve({ model: 'simulated:7#low', profile: BUILTIN_PROFILE });
    expect(sim).toMatchObject({ profile: 'builtin', simulated: true, model: 'simulated:7' });
    expect((await registry.resolve({ model: 'oracle#high' })).provider.kind).toBe('oracle');
    await expect(registry.resolve({ model: 'openai/gpt-5.1', profile: BUILTIN_PROFILE })).rejects.toThrow(
      /not a built-in model/,
    );
  });
});

describe('ProviderRegistry.describeModel', () => {
  const registry = new ProviderRegistry({
    profiles: loadProfiles(JSON.stringify(CONFIG), {}),
    profilesFile: '/etc/gitbench.json',
  });

  it('names the profile serving a model id, built-in or configured', () => {
    expect(registry.describeModel('simulated:3')).toEqual({
      ok: true,
      model: 'simulated:3',
      profile: 'builtin',
      provider: 'simulated',
      builtin: true,
      simulated: true,
    });
    expect(registry.describeModel('replay:results/')).toMatchObject({
      ok: true,
      profile: 'builtin',
      provider: 'replay',
      simulated: false,
    });
    expect(registry.describeModel('openai/gpt-5.1#low')).toEqual({
      ok: true,
      model: 'openai/gpt-5.1#low',
      profile: 'openrouter',
      provider: 'openrouter',
      builtin: false,
      simulated: false,
    });
    expect(registry.describeModel('llama3.1:8b')).toMatchObject({ ok: true, profile: 'local', provider: 'ollama' });
  });

  it('says why no profile serves a model id, naming the file and the built-in models', () => {
    const sim = registry.describeModel('sim');
    expect(sim.ok).toBe(false);
    expect(!sim.ok && sim.error).toMatch(
      /No configured profile serves 'sim'.*\/etc\/gitbench\.json.*simulated\[:seed\]/,
    );
    const bad = registry.describeModel('gpt#turbo');
    expect(!bad.ok && bad.error).toMatch(/'turbo' is not a reasoning effort/);
  });
});

describe('ProviderRegistry.judgeProfileError', () => {
  it('says why a profile cannot judge, without needing its key', () => {
    const registry = new ProviderRegistry({
      profiles: loadProfiles(JSON.stringify({ models: { ...CONFIG.models, empty: { models: [] } } }), {}),
    });
    expect(registry.judgeProfileError('openrouter')).toBeNull();
    expect(registry.judgeProfileError('ghost')).toBe(
      "Judge profile 'ghost' is not configured (configured: openrouter, local, empty).",
    );
    expect(registry.judgeProfileError('empty')).toBe("Judge profile 'empty' lists no models.");
  });
});

describe('ProviderRegistry.load', () => {
  it('reads the named file, else finds gitbench.json, and lists profiles without keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitbench-registry-'));
    const home = mkdtempSync(join(tmpdir(), 'gitbench-home-'));
    const none = await ProviderRegistry.load({ cwd: dir, home });
    expect(none.profilesFile).toBeNull();
    expect(none.listProfiles()).toEqual([]);

    writeFileSync(join(dir, 'gitbench.json'), JSON.stringify(CONFIG));
    const found = await ProviderRegistry.load({
      cwd: dir,
      home,
      env: { OPENROUTER_API_KEY: 'sk-or-v1-0123456789abcdef' },
    });
    expect(found.profilesFile).toBe(join(dir, 'gitbench.json'));
    expect(found.listProfiles().map((p) => [p.name, p.apiKey])).toEqual([
      ['openrouter', 'set'],
      ['local', 'not needed'],
    ]);
    expect(JSON.stringify(found.listProfiles())).not.toContain('sk-or-v1');

    const named = join(dir, 'other.json');
    writeFileSync(named, JSON.stringify({ models: { only: { model: 'x/y' } } }));
    expect(
      (await ProviderRegistry.load({ cwd: dir, home, profilesFile: named })).listProfiles().map((p) => p.name),
    ).toEqual(['only']);
  });

  it('refuses a profile named like the built-in one', () => {
    expect(() => loadProfiles(JSON.stringify({ models: { builtin: { model: 'x' } } }), {})).toThrow(
      /'models.builtin' is reserved/,
    );
  });
});
