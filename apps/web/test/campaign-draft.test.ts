import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { chooseSuite, draftBody, INITIAL_DRAFT, type Suite } from '../components/new-campaign/draft';
import { maxTurnsPlaceholder, OutputModesFieldset } from '../components/new-campaign/output-modes-fieldset';

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

/** A suite whose tasks are built for some modes only (suite.yaml's modes): the form offers no other. */
describe('the new-campaign form on a suite that lists its modes', () => {
  const hard: Suite = {
    dir: 'fixtures/hard',
    version: '0.9.1',
    domains: ['bisection'],
    difficulties: ['hard'],
    tags: [],
    modes: { file: 'fixtures/hard/suite.yaml', allowed: ['agent'] },
  };
  const plain: Suite = { ...hard, dir: 'fixtures', modes: undefined };

  it('keeps the chosen modes the suite lists, else takes its first, and leaves a suite without modes alone', () => {
    expect(chooseSuite({ outputModes: ['text', 'json_schema'] }, hard)).toEqual({
      suiteDir: 'fixtures/hard',
      domains: [],
      tags: [],
      outputModes: ['agent'],
    });
    expect(chooseSuite({ outputModes: ['text', 'agent'] }, hard).outputModes).toEqual(['agent']);
    expect(chooseSuite({ outputModes: ['text', 'json_schema'] }, plain).outputModes).toEqual(['text', 'json_schema']);
    expect(chooseSuite({ outputModes: [] }, hard).outputModes).toEqual([]);
  });

  it('disables the other modes’ boxes and says why beside them', () => {
    const html = renderToStaticMarkup(
      createElement(OutputModesFieldset, {
        uid: 'f',
        draft: { outputModes: ['agent'], toolSet: 'default', maxTurns: '', agents: ['gitbench'] },
        suiteModes: hard.modes,
        update: () => undefined,
        errors: [],
        agentErrors: [],
        agents: [],
        agentsErrors: [],
      }),
    );
    const box = (mode: string) => new RegExp(`<input[^>]*>${mode}</label>`).exec(html)?.[0] ?? '';
    expect(box('text')).toMatch(/disabled=""/);
    expect(box('json_schema')).toMatch(/disabled=""/);
    expect(box('text')).toMatch(/aria-describedby="f-modes-note"/);
    expect(box('agent')).toMatch(/^<input type="checkbox"[^>]*checked=""/);
    expect(box('agent')).not.toMatch(/disabled/);
    expect(html).toContain(
      'id="f-modes-note" class="mt-1 text-xs text-slate-500" data-testid="suite-modes-note">' +
        'This suite&#x27;s tasks are built for agent only (modes in fixtures/hard/suite.yaml).</p>',
    );
  });

  it('says what an empty turn limit means: the suite’s own (the hard tier’s 60), else the built-in default', () => {
    expect(maxTurnsPlaceholder({ turns: 60, fromSuite: true })).toBe("the suite's (60)");
    expect(maxTurnsPlaceholder({ turns: 30, fromSuite: false })).toBe('the default (30)');
    expect(maxTurnsPlaceholder(undefined)).toBe("the suite's");
    const html = renderToStaticMarkup(
      createElement(OutputModesFieldset, {
        uid: 'f',
        draft: { outputModes: ['agent'], toolSet: 'default', maxTurns: '', agents: ['gitbench'] },
        suiteModes: hard.modes,
        suiteMaxTurns: { turns: 60, fromSuite: true },
        update: () => undefined,
        errors: [],
        agentErrors: [],
        agents: [],
        agentsErrors: [],
      }),
    );
    expect(html).toMatch(/id="f-turns"[^>]*placeholder="the suite&#x27;s \(60\)"/);
  });
});
