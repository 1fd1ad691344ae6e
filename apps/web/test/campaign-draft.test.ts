import { describe, expect, it } from 'vitest';
import { draftBody, INITIAL_DRAFT } from '../components/new-campaign/draft';

/** The form leaves an agent campaign's turn limit to its suite (suite.yaml's agent.max_turns) unless one is typed. */
describe('the new-campaign form’s agent section', () => {
  const agentDraft = { ...INITIAL_DRAFT, outputModes: ['agent'], suiteDir: 'fixtures/hard' };

  it('gives no limit when the turns are left empty, so the suite’s limits apply', () => {
    expect(draftBody(agentDraft).agent).toEqual({ toolSet: 'default' });
  });

  it('gives the turns typed, which win over the suite’s', () => {
    expect(draftBody({ ...agentDraft, maxTurns: '45' }).agent).toEqual({
      toolSet: 'default',
      limits: { maxTurns: 45 },
    });
  });
});
