import { describe, expect, it } from 'vitest';
import { campaignLimitsFromEnv, capJsonStrings, DEFAULT_CAMPAIGN_LIMITS, type Fixture } from '@gitbench/core';
import { prepareCampaign, type PrepareCampaignDeps } from '../src';

// A suite of 204 fixtures (the size of the built-in one) made of plain text fixtures.
const suite = Array.from({ length: 204 }, (_, i) => ({
  domain: `d${i % 17}`,
  id: `f${i}`,
  difficulty: 'easy',
  tags: [],
  scoring: { type: 'exact_match' },
})) as unknown as Fixture[];
const deps = (limits?: PrepareCampaignDeps['limits']): PrepareCampaignDeps => ({
  loadSuite: async () => ({ version: 'v', fixtures: suite, invalid: [] }),
  profileFor: () => ({ profile: 'builtin' }),
  ...(limits ? { limits } : {}),
});

describe('campaign size limits, checked before planning', () => {
  it(
    "refuses the issue's 10,000 simulated models × whole suite " +
      '× 20 trials at once with a 400 naming the models limit',
    async () => {
      const models = Array.from({ length: 10_000 }, (_, i) => `simulated:${i}`);
      const started = performance.now();
      const r = await prepareCampaign({ name: 'huge', createdBy: 'x', models, trials: 20 }, deps());
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.errors.fieldErrors['models']?.[0]).toMatch(
        /at most 50 models \(GITBENCH_MAX_MODELS_PER_CAMPAIGN\); this one has 10,000/,
      );
    },
  );

  it(
    'counts attempts arithmetically and refuses past ' + 'GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN without building the plan',
    async () => {
      const models = Array.from({ length: 10_000 }, (_, i) => `simulated:${i}`);
      const started = performance.now();
      const r = await prepareCampaign(
        { name: 'huge', createdBy: 'x', models, trials: 3, outputModes: ['text', 'json_schema'] },
        deps({ maxModels: 100_000, maxAttempts: 100_000 }),
      );
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.errors.formErrors[0]).toBe(
        'This campaign would run 12,240,000 attempts (10,000 models × 2 output modes × 204 fixtures ' +
          '× 3 trials); the limit is 100,000 attempts per campaign (GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN).',
      );
    },
  );

  it('accepts a campaign at the limit exactly', async () => {
    const r = await prepareCampaign(
      { name: 'ok', createdBy: 'x', models: ['mock'], trials: 1 },
      deps({ maxModels: 1, maxAttempts: 204 }),
    );
    expect(r.ok && r.plan.attempts.length).toBe(204);
    const over = await prepareCampaign(
      { name: 'ok', createdBy: 'x', models: ['mock'], trials: 1 },
      deps({ maxModels: 1, maxAttempts: 203 }),
    );
    expect(over.ok).toBe(false);
  });

  it('reads the limits from the environment, with the documented defaults', () => {
    expect(DEFAULT_CAMPAIGN_LIMITS).toEqual({ maxModels: 50, maxAttempts: 100_000 });
    expect(
      campaignLimitsFromEnv({ GITBENCH_MAX_MODELS_PER_CAMPAIGN: '3', GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN: '10' }),
    ).toEqual({ maxModels: 3, maxAttempts: 10 });
    expect(campaignLimitsFromEnv({ GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN: 'lots' })).toEqual(DEFAULT_CAMPAIGN_LIMITS);
  });
});

describe('evidence size cap', () => {
  it('cuts the longest strings until the record fits, keeping its shape', () => {
    const record = { a: 'x'.repeat(100_000), b: ['y'.repeat(50_000), 'short'], c: { d: 'z'.repeat(10) } };
    const { value, cut } = capJsonStrings(record, 20_000, 'GITBENCH_MAX_EVIDENCE_BYTES');
    expect(cut).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(value))).toBeLessThanOrEqual(20_000);
    expect(value.a).toMatch(/characters cut: GITBENCH_MAX_EVIDENCE_BYTES\]$/);
    expect(value.b[1]).toBe('short');
    expect(value.c.d).toBe('zzzzzzzzzz');
    expect(record.a.length).toBe(100_000);
    expect(capJsonStrings(record, 1_000_000, 'L')).toEqual({ value: record, cut: false });
  });
});

describe('the agents a campaign lists, checked against those this deployment runs', () => {
  it('names each unknown agent on its field with the agents there are, before anything is planned', async () => {
    const input = {
      name: 'agents',
      createdBy: 'x',
      models: ['oracle'],
      outputModes: ['agent'],
      agents: ['gitbench', 'codex', 'aider'],
      trials: 1,
    };
    const r = await prepareCampaign(input, { ...deps(), agents: ['claude-code', 'codex'] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.fieldErrors).toEqual({
      'agents.2': ["agents[2]: unknown agent 'aider'. Use one of gitbench, claude-code, codex."],
    });
    // Without a list of agents only our own loop runs.
    const none = await prepareCampaign({ ...input, agents: ['codex'] }, deps());
    expect(!none.ok && none.errors.fieldErrors['agents.0']).toEqual([
      "agents[0]: unknown agent 'codex'. Use one of gitbench.",
    ]);
  });

  it('plans one target per agent and model', async () => {
    const input = {
      name: 'agents',
      createdBy: 'x',
      models: ['oracle', 'nop'],
      outputModes: ['agent'],
      agents: ['gitbench', 'codex'],
      trials: 1,
    };
    const r = await prepareCampaign(input, { ...deps(), agents: ['codex'] });
    expect(r.ok && r.plan.targets.map((t) => `${t.modelId}/${t.agent ?? 'gitbench'}`)).toEqual([
      'nop/gitbench',
      'nop/codex',
      'oracle/gitbench',
      'oracle/codex',
    ]);
    expect(r.ok && r.plan.attempts.length).toBe(4 * 204);
  });
});
