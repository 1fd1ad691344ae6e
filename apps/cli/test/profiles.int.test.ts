import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitbench, jsonOf } from './cli-process';

/** `gitbench profiles` as a user runs it: the built-in models and the configured profiles, never a key. */
const dir = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-profiles-'));
const file = path.join(dir, 'gitbench.json');
writeFileSync(
  file,
  JSON.stringify({
    models: {
      openrouter: {
        models: ['openai/gpt-5.1#high', 'mistralai/devstral-2512'],
        base_url: 'https://openrouter.ai/api/v1',
        api_key_env: 'GITBENCH_TEST_OR_KEY',
      },
      local: { model: 'llama3.1:8b', base_url: 'http://localhost:11434' },
      judges: { models: ['judge-a'], base_url: 'http://127.0.0.1:9/v1', api_key_env: 'GITBENCH_TEST_MISSING_KEY' },
    },
    judge: { profile: 'judges' },
  }),
);
const SECRET = 'sk-or-v1-0123456789abcdefghij';
const env = { GITBENCH_TEST_OR_KEY: SECRET, GITBENCH_TEST_MISSING_KEY: undefined };

interface Listing {
  profilesFile: string | null;
  judgeProfile: string | null;
  builtin: { kind: string; usage: string; simulated: boolean }[];
  profiles: {
    name: string;
    provider: string;
    models: string[];
    apiKeyEnv: string | null;
    apiKey: string;
    isJudge: boolean;
  }[];
}

describe('gitbench profiles', () => {
  it('lists the built-in models and the profiles of GITBENCH_PROFILES, with key variables and no keys', async () => {
    const r = await gitbench(['profiles', '--json'], { ...env, GITBENCH_PROFILES: file });
    expect(r.code, r.stderr).toBe(0);
    const listing = jsonOf<Listing>(r);
    expect(listing.profilesFile).toBe(file);
    expect(listing.judgeProfile).toBe('judges');
    expect(listing.builtin.map((m) => m.usage)).toEqual([
      'oracle',
      'nop',
      'mock',
      'simulated[:seed]',
      'replay:<result file or dir>',
    ]);
    expect(listing.profiles.map((p) => [p.name, p.provider, p.apiKeyEnv, p.apiKey, p.isJudge])).toEqual([
      ['openrouter', 'openrouter', 'GITBENCH_TEST_OR_KEY', 'set', false],
      ['local', 'ollama', null, 'not needed', false],
      ['judges', 'openai', 'GITBENCH_TEST_MISSING_KEY', 'missing', true],
    ]);
    expect(r.stdout).not.toContain(SECRET);

    const text = await gitbench(['profiles'], { ...env, GITBENCH_PROFILES: file });
    expect(text.stdout).toContain(`profiles from ${file}:`);
    expect(text.stdout).toMatch(
      /openrouter: openrouter https:\/\/openrouter\.ai\/api\/v1, key GITBENCH_TEST_OR_KEY \(set\)/,
    );
    expect(text.stdout).toMatch(/judges \[judge\]: .* key GITBENCH_TEST_MISSING_KEY \(missing\)/);
    expect(text.stdout).toMatch(/simulated\[:seed\] +seeded stand-in/);
    expect(text.stdout).not.toContain(SECRET);
  });

  it('finds gitbench.json in the working directory, and says when there is none', async () => {
    const found = jsonOf<Listing>(
      await gitbench(['profiles', '--json'], { GITBENCH_PROFILES: undefined, HOME: dir }, dir),
    );
    expect(found.profilesFile).toBe(file);
    const empty = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-noprofiles-'));
    const none = await gitbench(['profiles'], { GITBENCH_PROFILES: undefined, HOME: empty }, empty);
    expect(none.stdout).toContain('no profile file: set GITBENCH_PROFILES');
  });

  it('names the field of a profile file holding a literal key', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ models: { p: { model: 'm', api_key: SECRET } } }));
    const r = await gitbench(['profiles'], { GITBENCH_PROFILES: bad });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Field 'models\.p\.api_key' holds a literal secret/);
    expect(r.stderr).not.toContain(SECRET);
  });
});
