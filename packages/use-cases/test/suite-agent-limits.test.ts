import { describe, expect, it } from 'vitest';
import { configHash, type Fixture, type SuiteAgentLimits } from '@gitbench/core';
import { prepareCampaign, type LoadedSuite, type PrepareCampaignDeps } from '../src';

/**
 * A suite's agent limits (suite.yaml) as the defaults of an agent campaign: explicit limits win, other campaigns keep
 * their hash.
 */
const fixtures = [
  { domain: 'log', id: 'f001', difficulty: 'easy', tags: [], scoring: { type: 'exact_match' } },
] as unknown as Fixture[];
const deps = (agentLimits?: SuiteAgentLimits, invalid: LoadedSuite['invalid'] = []): PrepareCampaignDeps => ({
  loadSuite: async () => ({ version: 'v', fixtures, invalid, ...(agentLimits ? { agentLimits } : {}) }),
  profileFor: () => ({ profile: 'builtin' }),
});
const hard = { maxTurns: 60, maxWallMs: 1_800_000 };
const agentCampaign = { name: 'hard', createdBy: 'x', models: ['mock'], outputModes: ['agent'] };

async function prepared(input: unknown, d: PrepareCampaignDeps) {
  const r = await prepareCampaign(input, d);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
}

describe('a suite’s agent limits in a campaign', () => {
  it('are the limits of an agent campaign that gives none, written into its configuration and hash', async () => {
    const r = await prepared(agentCampaign, deps(hard));
    expect(r.config.agent?.limits).toMatchObject({ maxTurns: 60, maxWallMs: 1_800_000, commandTimeoutMs: 30_000 });
    expect(r.hash).not.toBe((await prepared(agentCampaign, deps())).hash);
  });

  it('give way to each limit the configuration sets', async () => {
    const r = await prepared({ ...agentCampaign, agent: { limits: { maxTurns: 40 } } }, deps(hard));
    expect(r.config.agent?.limits).toMatchObject({ maxTurns: 40, maxWallMs: 1_800_000 });
    const all = await prepared(
      { ...agentCampaign, agent: { limits: { maxTurns: 30, maxWallMs: 600_000 } } },
      deps(hard),
    );
    expect(all.config.agent?.limits).toMatchObject({ maxTurns: 30, maxWallMs: 600_000 });
    // Explicit values equal to the built-in defaults are the configuration of a suite without limits.
    expect(all.hash).toBe((await prepared(agentCampaign, deps())).hash);
  });

  it('leave a campaign without the agent mode, and one on a suite without limits, with the hash it had', async () => {
    const single = { name: 's', createdBy: 'x', models: ['mock'] };
    const r = await prepared(single, deps(hard));
    expect(r.config.agent).toBeUndefined();
    expect(r.hash).toBe(configHash({ ...single, fixtures: { suiteVersion: 'v' } }));
    const plain = await prepared(agentCampaign, deps());
    expect(plain.hash).toBe(configHash({ ...agentCampaign, fixtures: { suiteVersion: 'v' } } as never));
  });

  it('refuse an agent campaign on a suite whose suite.yaml does not load, naming the file and field', async () => {
    const invalid = [{ file: 'suite.yaml', line: 4, field: 'agent.max_turns', message: 'Allow at most 500 turns.' }];
    const r = await prepareCampaign(agentCampaign, deps(undefined, invalid));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.fieldErrors['fixtures.suiteDir']).toEqual([
      'suite.yaml: agent.max_turns: Allow at most 500 turns.',
    ]);
  });
});
