import { describe, expect, it } from 'vitest';
import {
  attemptLimitError,
  campaignAgents,
  canonicalConfig,
  configHash,
  OWN_AGENT,
  parseCampaignConfig,
  planTargets,
  type CampaignConfig,
  type CampaignConfigInput,
} from '../../src';

const base: CampaignConfigInput = { name: 'a', createdBy: 'me', models: ['oracle', 'nop'], outputModes: ['agent'] };
const parsed = (input: unknown): CampaignConfig => {
  const r = parseCampaignConfig(input);
  if (!r.success) throw new Error(JSON.stringify(r.error));
  return r.data;
};
const errorsOf = (input: unknown) => {
  const r = parseCampaignConfig(input);
  return r.success ? null : r.error.fieldErrors;
};

describe('a target is an agent with a model', () => {
  it(
    'pairs every listed agent with every model in agent ' + 'mode; our own loop is stored as no agent and comes first',
    () => {
      const targets = planTargets(canonicalConfig(parsed({ ...base, agents: ['codex', 'gitbench', 'claude-code'] })));
      expect(targets.map((t) => `${t.modelId}/${t.agent ?? '-'}`)).toEqual([
        'nop/-',
        'nop/claude-code',
        'nop/codex',
        'oracle/-',
        'oracle/claude-code',
        'oracle/codex',
      ]);
    },
  );

  it('runs only our own loop when no agent is listed, and answer modes have no agent', () => {
    const targets = planTargets(canonicalConfig(parsed({ ...base, outputModes: ['agent', 'text'] })));
    expect(targets.map((t) => `${t.modelId}/${t.outputMode}/${t.agent ?? '-'}`)).toEqual([
      'nop/agent/-',
      'nop/text/-',
      'oracle/agent/-',
      'oracle/text/-',
    ]);
    const withAgents = planTargets(
      canonicalConfig(parsed({ ...base, outputModes: ['agent', 'text'], agents: ['pi'] })),
    );
    expect(withAgents.filter((t) => t.outputMode === 'text').map((t) => t.agent)).toEqual([null, null]);
    expect(withAgents.filter((t) => t.outputMode === 'agent').map((t) => t.agent)).toEqual(['pi', 'pi']);
  });

  it(
    'keeps the hash of a campaign that lists only our own loop (as ' +
      'every campaign before agents), and changes it for another agent',
    () => {
      const before = configHash(base);
      expect(configHash({ ...base, agents: [OWN_AGENT] })).toBe(before);
      expect(canonicalConfig({ ...base, agents: [OWN_AGENT] }).agents).toBeUndefined();
      expect(configHash({ ...base, agents: ['codex'] })).not.toBe(before);
      // A list is a set: order and repeats of the same agents are one configuration.
      expect(configHash({ ...base, agents: ['codex', 'pi'] })).toBe(configHash({ ...base, agents: ['pi', 'codex'] }));
      expect(campaignAgents(canonicalConfig({ ...base, agents: ['pi', 'codex'] }))).toEqual(['codex', 'pi']);
    },
  );

  it(
    'refuses agents without the agent mode, an empty list, ' + 'a name twice and a malformed name, each on its field',
    () => {
      expect(errorsOf({ ...base, outputModes: ['text'], agents: ['codex'] })?.agents).toEqual([
        'Agents run only in the agent output mode: add agent to the output modes.',
      ]);
      expect(errorsOf({ ...base, agents: [] })?.agents?.[0]).toMatch(
        /Choose at least one agent \(gitbench is GitBench's own loop\)/,
      );
      expect(errorsOf({ ...base, agents: ['codex', 'pi', 'codex'] })?.['agents.2']).toEqual([
        "The agent 'codex' is listed twice.",
      ]);
      expect(errorsOf({ ...base, agents: ['Claude Code'] })?.['agents.0']?.[0]).toMatch(/Name an agent in lower case/);
      expect(errorsOf({ ...base, agents: 'codex' })?.agents).toEqual(['List the agents as an array of names.']);
    },
  );

  it('counts each agent in the attempts limit', () => {
    const config = parsed({ ...base, agents: ['gitbench', 'codex', 'pi'], trials: 2 });
    // 2 models × 3 agents × 10 fixtures × 2 trials = 120.
    expect(attemptLimitError(config, 10, { maxModels: 50, maxAttempts: 120 })).toBeNull();
    expect(attemptLimitError(config, 10, { maxModels: 50, maxAttempts: 119 })?.formErrors[0]).toMatch(
      /120 attempts \(2 models × 1 output modes, agent mode with 3 agents × 10 fixtures × 2 trials\)/,
    );
  });
});
