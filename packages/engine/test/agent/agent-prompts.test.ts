import { join } from 'node:path';
import { agentCheckStatement, agentScoredOn, agentTaskText, COMMAND_TIME_LIMIT, contextPlan, getToolSet, toolSetNames, type Fixture } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { agentSystemPrompt, agentTaskPrompt, loadSuiteDir, type FixtureSnapshot } from '../../src';

/** What an agent is told, checked over every fixture of the four suites and every tool set. */
const ROOT = join(import.meta.dirname, '../../../..');
const fixtures: Fixture[] = [];
for (const dir of ['fixtures', 'fixtures/repo-tasks', 'fixtures/gists', 'fixtures/ggb']) fixtures.push(...(await loadSuiteDir(join(ROOT, dir))).fixtures);
const sentences = (text: string) => text.split(/(?<=[.!?:])\s+/).map((s) => s.trim()).filter(Boolean);

describe('agent prompts', () => {
  it('drop the output format of a task checked on the repository and keep the rest of its wording', () => {
    const stripped = fixtures.filter((f) => !f.agent?.prompt && agentScoredOn(f) === 'repository');
    expect(stripped.length).toBeGreaterThan(50);
    for (const f of stripped) {
      const text = agentTaskText(f);
      expect(text, `${f.domain}/${f.id}`).not.toMatch(/(^|[.!?:]\s*)Output\b/);
      // Only that sentence went: every other sentence is the fixture's own, in order.
      const kept = sentences(f.prompt).filter((s) => !s.startsWith('Output'));
      expect(sentences(text), `${f.domain}/${f.id}`).toEqual(kept);
    }
    const f007 = fixtures.find((f) => f.domain === 'cherry_pick' && f.id === 'f007')!;
    expect(agentTaskText(f007)).not.toMatch(/heading line/);
  });

  it('keep the format of a task checked on the submitted answer, where it is scored', () => {
    for (const f of fixtures.filter((x) => !x.agent?.prompt && agentScoredOn(x) === 'answer')) expect(agentTaskText(f)).toBe(f.prompt);
  });

  it('say once what is checked: the check statement for a prompt written for single answers, the agent prompt itself otherwise', () => {
    for (const f of fixtures) {
      const statement = agentCheckStatement(f);
      if (f.agent?.prompt) expect(statement, `${f.domain}/${f.id}`).toBeNull();
      else expect(statement, `${f.domain}/${f.id}`).toMatch(agentScoredOn(f) === 'answer' ? /^What is checked is the answer you submit/ : /^What is checked is the (repository|conflicted files)/);
    }
  });

  it('claim nothing a tool set cannot do, and leave what is checked to the task', () => {
    for (const name of toolSetNames()) {
      const toolSet = getToolSet(name);
      const system = agentSystemPrompt(toolSet, 'native', '/work/repo');
      expect(system, name).toContain(toolSet.instructions!);
      expect(system, name).not.toMatch(/checked/);
      const hasShell = toolSet.tools.some((t) => t.name === 'bash');
      if (!hasShell) expect(system, name).not.toMatch(/\bcommands?\b|\bbash\b|\bshell\b|inspect the repository/i);
    }
    for (const f of fixtures.filter((x) => x.scoring.type === 'ggb_mcr')) expect(agentTaskText(f), f.id).not.toMatch(/run the git commands/);
  });
});

describe('the command time limit in the hard tier’s prompts', async () => {
  const hard = (await loadSuiteDir(join(ROOT, 'fixtures/hard'))).fixtures;
  const naming = hard.filter((f) => (f.agent?.prompt ?? f.prompt).includes(COMMAND_TIME_LIMIT));
  // The mined tasks have context commands (git status, git diff): each gets an empty result, which renders
  // its heading alone and leaves the prompt's own text to check.
  const snapshot = (f: Fixture) => ({ context: contextPlan(f).map((s) => ({ command: s.command, stdout: '', exitCode: 0 })) }) as unknown as FixtureSnapshot;

  it('is the attempt’s own limit, never a number a fixture wrote', () => {
    expect(naming.length).toBeGreaterThanOrEqual(18);
    for (const f of naming) {
      const key = `${f.domain}/${f.id}`;
      expect(agentTaskPrompt(f, snapshot(f), 'submit', 45_000), key).toMatch(/stopped after\s+45 seconds/);
      expect(agentTaskPrompt(f, snapshot(f), 'submit', 45_000), key).not.toContain('{{');
      expect(agentTaskPrompt(f, snapshot(f), 'final message', null), key).toMatch(/stopped after\s+the time limit of your own shell tool/);
    }
    for (const f of hard) expect(`${f.prompt}\n${f.agent?.prompt ?? ''}`, `${f.domain}/${f.id}`).not.toMatch(/stopped after\s+\d/);
  });
});
