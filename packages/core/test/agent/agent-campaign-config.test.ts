import { describe, expect, it } from 'vitest';
import { canonicalConfig, configHash, parseCampaignConfig, planTargets } from '../../src';

const base = { name: 'a', createdBy: 'me', models: ['oracle'] };

describe('agent mode in the campaign configuration', () => {
  it('accepts the agent output mode with its configuration, defaults spelled out in the canonical form', () => {
    const parsed = parseCampaignConfig({
      ...base,
      outputModes: ['agent'],
      agent: { toolSet: 'bash', limits: { maxTurns: 5 } },
    });
    expect(parsed.success).toBe(true);
    const canonical = canonicalConfig(parsed.success ? parsed.data : ({} as never));
    expect(canonical.agent).toMatchObject({
      toolSet: 'bash',
      protocol: 'auto',
      limits: { maxTurns: 5, commandTimeoutMs: 30_000 },
    });
    expect(planTargets(canonical).map((t) => t.outputMode)).toEqual(['agent']);
  });

  it('hashes an omitted agent section like the defaults written out, and a different limit differently', () => {
    const omitted = configHash({ ...base, outputModes: ['agent'] });
    expect(configHash({ ...base, outputModes: ['agent'], agent: {} })).toBe(omitted);
    expect(configHash({ ...base, outputModes: ['agent'], agent: { toolSet: 'default', protocol: 'auto' } })).toBe(
      omitted,
    );
    expect(configHash({ ...base, outputModes: ['agent'], agent: { limits: { maxTurns: 7 } } })).not.toBe(omitted);
    // Answer modes carry no agent section.
    expect(canonicalConfig({ ...base, outputModes: ['text'] }).agent).toBeUndefined();
  });

  it('refuses an agent section without the agent mode, and unknown tool sets', () => {
    const orphan = parseCampaignConfig({ ...base, outputModes: ['text'], agent: {} });
    expect(!orphan.success && orphan.error.fieldErrors.agent).toEqual([
      'An agent configuration needs the agent output mode.',
    ]);
    const unknown = parseCampaignConfig({ ...base, outputModes: ['agent'], agent: { toolSet: 'nope' } });
    expect(!unknown.success && unknown.error.fieldErrors['agent.toolSet']?.[0]).toMatch(/Unknown tool set 'nope'/);
    const limits = parseCampaignConfig({ ...base, outputModes: ['agent'], agent: { limits: { maxTurns: 0 } } });
    expect(!limits.success && limits.error.fieldErrors['agent.limits.maxTurns']).toEqual(['Allow at least 1 turn.']);
  });
});
