import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { agentPromptOf, FixtureDefinition } from '../components/fixture/fixture-definition';
import type { FixtureReport } from '../lib/queries/fixture';
import { renderedText } from './support/rendered-text';

// The fixture page's definition: a fixture with an agent section of its own (every hard-tier task) shows the
// agent's prompt beside the single answer's, each named for its mode; one without shows its one prompt.

function shown(definition: Record<string, unknown>): string {
  const snapshot = { definition, scoringType: 'repo_checks', campaignId: 'cmp_1' } as FixtureReport['snapshot'];
  return renderedText(
    renderToStaticMarkup(createElement(FixtureDefinition, { domain: 'recovery', fixtureId: 'r1', snapshot })),
  );
}

describe("a fixture page's prompts", () => {
  it('shows the agent prompt beside the single answer one, each named for its mode', () => {
    const text = shown({
      prompt: 'Output ONLY the shell commands.',
      agent: { prompt: 'Work in the repository, then call submit.', scored_on: 'repository' },
    });
    expect(text).toMatch(/Prompt \(single answer\).*Output ONLY the shell commands\./);
    expect(text).toMatch(/Prompt \(agent\).*Work in the repository, then call submit\./);
    expect(text.indexOf('Prompt (single answer)')).toBeLessThan(text.indexOf('Prompt (agent)'));
  });

  it('shows one prompt, titled Prompt, for a fixture without an agent prompt of its own', () => {
    const text = shown({ prompt: 'Output ONLY the commit id.', agent: { scored_on: 'answer' } });
    expect(text).toMatch(/^Prompt Copy Output ONLY the commit id\./);
    expect(text).not.toContain('(agent)');
    expect(agentPromptOf({ prompt: 'p' })).toBeUndefined();
    expect(agentPromptOf({ agent: null })).toBeUndefined();
  });
});
