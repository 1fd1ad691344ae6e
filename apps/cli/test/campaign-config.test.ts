import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCampaignConfig, rateOf } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { configFromFlags, configInput } from '../src/campaign/config-input';
import { formatRate } from '../src/campaign/format-status';
import { parseCommandLine } from '../src/program';

const args = (argv: string[]) => parseCommandLine(['campaign', 'create', ...argv]).args;
const DEFAULTS = { createdBy: 'me' };

describe('campaign create: the configuration from flags', () => {
  it('spells the API body, leaving out what was not given so the schema defaults apply', () => {
    const config = configFromFlags(
      args([
        '--name',
        'nightly',
        '--model',
        'openai/o3-mini#high',
        '--model',
        'replay:a.json,b.json',
        '--output-mode',
        'both',
        '--trials',
        '3',
        '--fixtures',
        'fixtures',
        '--domain',
        'rebase,git_bisect',
        '--difficulty',
        'hard',
        '--tag',
        'conflicts',
        '--id',
        'log/f001',
        '--seed',
        '7',
        '--judge-profile',
        'judges',
        '--concurrency',
        '8',
      ]),
      DEFAULTS,
    );
    expect(config).toEqual({
      name: 'nightly',
      createdBy: 'me',
      models: ['openai/o3-mini#high', 'replay:a.json,b.json'],
      outputModes: ['text', 'json_schema'],
      fixtures: {
        suiteDir: 'fixtures',
        domains: ['rebase', 'git_bisect'],
        difficulties: ['hard'],
        tags: ['conflicts'],
        ids: ['log/f001'],
      },
      trials: 3,
      seed: 7,
      judgeProfile: 'judges',
      concurrency: 8,
    });
    expect(parseCampaignConfig(config).success).toBe(true);
    expect(configFromFlags(args(['--name', 'n', '--model', 'oracle', '--created-by', 'ci']), DEFAULTS)).toEqual({
      name: 'n',
      createdBy: 'ci',
      models: ['oracle'],
    });
  });

  it("hands malformed values to the schema, so the errors are the API's", () => {
    const parsed = parseCampaignConfig(
      configFromFlags(
        args(['--name', 'n', '--model', 'oracle', '--trials', 'three', '--seed', '1.5', '--output-mode', 'yaml']),
        DEFAULTS,
      ),
    );
    expect(parsed.success).toBe(false);
    expect(!parsed.success && parsed.error.fieldErrors).toEqual({
      trials: ['Trials must be a whole number.'],
      seed: ['The seed must be a whole number.'],
      'outputModes.0': ['Use text, json_schema or agent.'],
    });
  });

  it('reads --config FILE instead of the flags, never both', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gitbench-config-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ name: 'n', createdBy: 'c', models: ['mock'] }));
    expect(await configInput(args(['--config', file]), DEFAULTS)).toEqual({
      ok: true,
      value: { name: 'n', createdBy: 'c', models: ['mock'] },
    });
    await expect(configInput(args(['--config', file, '--trials', '2', '--name', 'x']), DEFAULTS)).rejects.toThrow(
      '--config replaces the configuration flags; drop --name, --trials',
    );
    await expect(configInput(args(['--config', path.join(dir, 'missing.json')]), DEFAULTS)).rejects.toThrow(
      /cannot read .*missing\.json: ENOENT/,
    );
    writeFileSync(file, 'nope');
    expect(await configInput(args(['--config', file]), DEFAULTS)).toMatchObject({
      ok: false,
      errors: { formErrors: [expect.stringMatching(/c\.json is not valid JSON/)], fieldErrors: {} },
    });
  });
});

describe('rates in the status', () => {
  it('always show numerator and denominator, the interval, and no value without evidence', () => {
    expect(formatRate(rateOf(3, 4))).toBe('3/4 = 75.0% (95% Wilson 30.1%–95.4%)');
    expect(formatRate(rateOf(0, 0))).toBe('0/0 (no evidence)');
  });
});

describe('campaign create --mode agent', () => {
  it('spells the agent section from its flags', () => {
    const config = configFromFlags(
      args(['--name', 'a', '--model', 'oracle', '--mode', 'agent', '--tool-set', 'bash', '--max-turns', '9']),
      { createdBy: 'me' },
    );
    expect(config).toMatchObject({ outputModes: ['agent'], agent: { toolSet: 'bash', limits: { maxTurns: 9 } } });
    const parsed = parseCampaignConfig(config);
    expect(parsed.success).toBe(true);
  });

  it('takes the agents that drive the models from --agent, repeated or comma-separated', () => {
    const config = configFromFlags(
      args([
        '--name',
        'a',
        '--model',
        'oracle',
        '--mode',
        'agent',
        '--agent',
        'claude-code',
        '--agent',
        'codex,gitbench',
      ]),
      { createdBy: 'me' },
    );
    expect(config).toMatchObject({ outputModes: ['agent'], agents: ['claude-code', 'codex', 'gitbench'] });
    expect(parseCampaignConfig(config).success).toBe(true);
    const orphan = parseCampaignConfig(
      configFromFlags(args(['--name', 'a', '--model', 'oracle', '--agent', 'codex']), { createdBy: 'me' }),
    );
    expect(!orphan.success && orphan.error.fieldErrors.agents).toEqual([
      'Agents run only in the agent output mode: add agent to the output modes.',
    ]);
  });
});
