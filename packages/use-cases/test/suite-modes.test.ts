import { describe, expect, it } from 'vitest';
import type { Fixture, SuiteModes } from '@gitbench/core';
import { prepareCampaign, type LoadedSuite, type PrepareCampaignDeps } from '../src';

/**
 * A suite's modes (suite.yaml's `modes`) in campaign creation: a campaign in a mode the suite's tasks are not
 * built for is refused on its outputModes field, before anything is planned or written.
 */
const fixtures = [
  { domain: 'bisection', id: 'b01', difficulty: 'hard', tags: [], scoring: { type: 'exact_match' } },
] as unknown as Fixture[];
const agentOnly: SuiteModes = { file: 'fixtures/hard/suite.yaml', allowed: ['agent'] };
const deps = (modes?: SuiteModes, invalid: LoadedSuite['invalid'] = []): PrepareCampaignDeps => ({
  loadSuite: async () => ({ version: 'v', fixtures, invalid, ...(modes ? { modes } : {}) }),
  profileFor: () => ({ profile: 'builtin' }),
});
const campaign = (outputModes: string[]) => ({
  name: 'hard',
  createdBy: 'x',
  models: ['mock'],
  outputModes,
  fixtures: { suiteDir: 'fixtures/hard' },
});

describe('a suite’s modes in a campaign', () => {
  it('refuse each mode the suite does not list, on the outputModes field, naming suite.yaml and the mode', async () => {
    const r = await prepareCampaign(campaign(['text', 'json_schema', 'agent']), deps(agentOnly));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual({
      formErrors: [],
      fieldErrors: {
        outputModes: [
          "fixtures/hard/suite.yaml: modes: this suite's tasks are built for the agent mode only, not for text",
          "fixtures/hard/suite.yaml: modes: this suite's tasks are built for the agent mode only, not for json_schema",
        ],
      },
    });
  });

  it('let a campaign in the modes the suite lists, and any campaign on a suite that lists none, through', async () => {
    const agent = await prepareCampaign(campaign(['agent']), deps(agentOnly));
    expect(agent.ok && new Set(agent.plan.attempts.map((a) => a.outputMode))).toEqual(new Set(['agent']));
    const text = await prepareCampaign(campaign(['text']), deps());
    expect(text.ok).toBe(true);
  });

  it('refuse a campaign in any mode when suite.yaml does not load: it cannot say its modes', async () => {
    const invalid = [
      { file: 'suite.yaml', line: 3, field: 'modes[0]', message: 'must be one of text, json_schema, agent' },
    ];
    const r = await prepareCampaign(campaign(['text']), deps(undefined, invalid));
    expect(!r.ok && r.errors.fieldErrors['fixtures.suiteDir']).toEqual([
      'suite.yaml: modes[0]: must be one of text, json_schema, agent',
    ]);
  });
});
