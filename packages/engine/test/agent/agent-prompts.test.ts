import { join } from 'node:path';
import {
  agentBudgetSentence,
  agentCheckStatement,
  agentScoredOn,
  agentTaskText,
  COMMAND_TIME_LIMIT,
  contextPlan,
  DEFAULT_AGENT_CONFIG,
  getToolSet,
  toolSetNames,
  type Fixture,
} from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import {
  agentSystemPrompt,
  agentTaskPrompt,
  loadSuiteDir,
  thirdPartyTaskPrompt,
  tmpSentence,
  type FixtureSnapshot,
} from '../../src';

/** What an agent is told, checked over every fixture of the four suites and every tool set. */
const ROOT = join(import.meta.dirname, '../../../..');
const fixtures: Fixture[] = [];
for (const dir of ['fixtures', 'fixtures/repo-tasks', 'fixtures/gists', 'fixtures/ggb'])
  fixtures.push(...(await loadSuiteDir(join(ROOT, dir))).fixtures);
const sentences = (text: string) =>
  text
    .split(/(?<=[.!?:])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);

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
    for (const f of fixtures.filter((x) => !x.agent?.prompt && agentScoredOn(x) === 'answer'))
      expect(agentTaskText(f)).toBe(f.prompt);
  });

  it(
    'say once what is checked: the check statement for a prompt ' +
      'written for single answers, the agent prompt itself otherwise',
    () => {
      for (const f of fixtures) {
        const statement = agentCheckStatement(f);
        if (f.agent?.prompt) expect(statement, `${f.domain}/${f.id}`).toBeNull();
        else
          expect(statement, `${f.domain}/${f.id}`).toMatch(
            agentScoredOn(f) === 'answer'
              ? /^What is checked is the answer you submit/
              : /^What is checked is the (repository|conflicted files)/,
          );
      }
    },
  );

  it('claim nothing a tool set cannot do, and leave what is checked to the task', () => {
    for (const name of toolSetNames()) {
      const toolSet = getToolSet(name);
      const system = agentSystemPrompt(toolSet, 'native', '/work/repo', DEFAULT_AGENT_CONFIG.limits);
      expect(system, name).toContain(toolSet.instructions!);
      expect(system, name).not.toMatch(/checked/);
      const hasShell = toolSet.tools.some((t) => t.name === 'bash');
      if (!hasShell) expect(system, name).not.toMatch(/\bcommands?\b|\bbash\b|\bshell\b|inspect the repository/i);
    }
    for (const f of fixtures.filter((x) => x.scoring.type === 'ggb_mcr'))
      expect(agentTaskText(f), f.id).not.toMatch(/run the git commands/);
  });
});

describe('the budget in the system prompt', () => {
  const toolSet = getToolSet(toolSetNames().find((n) => getToolSet(n).tools.some((t) => t.name === 'bash'))!);
  const budget =
    'You have at most 30 turns and 10 minutes in all (each reply is one ' +
    'turn, with its tool call); each command is stopped after 30 seconds.';

  it('is the attempt’s own limits, in both protocols', () => {
    for (const protocol of ['native', 'text'] as const) {
      expect(
        agentSystemPrompt(toolSet, protocol, '/work/repo', DEFAULT_AGENT_CONFIG.limits).split('\n'),
        protocol,
      ).toContain(budget);
      const hard = agentSystemPrompt(toolSet, protocol, '/work/repo', {
        maxTurns: 60,
        maxWallMs: 1_800_000,
        commandTimeoutMs: 45_000,
      });
      expect(hard.split('\n'), protocol).toContain(
        'You have at most 60 turns and 30 minutes in all (each reply is one ' +
          'turn, with its tool call); each command is stopped after 45 seconds.',
      );
      expect(hard, protocol).not.toMatch(/\b30 turns|10 minutes/);
    }
  });

  it('leaves out the command limit where the agent’s own shell sets it, or where it has no shell', () => {
    const noShell = toolSetNames()
      .map(getToolSet)
      .find((t) => !t.tools.some((x) => x.name === 'bash'))!;
    expect(agentSystemPrompt(noShell, 'native', '/work/repo', DEFAULT_AGENT_CONFIG.limits)).toContain(
      'You have at most 30 turns and 10 minutes in all (each reply is one turn, with its tool call).',
    );
    expect(agentBudgetSentence({ maxTurns: 1, maxWallMs: 90_000 }, null)).toBe(
      'You have at most 1 turn and 90 seconds in all (each reply is one turn, with its tool call).',
    );
  });
});

describe('the size of /tmp in the system prompt', () => {
  const shell = getToolSet(toolSetNames().find((n) => getToolSet(n).tools.some((t) => t.name === 'bash'))!);
  const noShell = toolSetNames()
    .map(getToolSet)
    .find((t) => !t.tools.some((x) => x.name === 'bash'))!;
  const limits = DEFAULT_AGENT_CONFIG.limits;

  it('is said once, after the budget, where the sandbox caps /tmp and the tool set has a shell', () => {
    for (const protocol of ['native', 'text'] as const) {
      const lines = agentSystemPrompt(shell, protocol, '/work/repo', limits, 64 * 1024 * 1024).split('\n');
      expect(
        lines.filter((l) => l.includes('/tmp')),
        protocol,
      ).toEqual([
        '/tmp is an in-memory file system of 64 MB: keep large temporary ' +
          'files (a copy of the repository, big archives or logs) out of it.',
      ]);
      expect(lines.indexOf(tmpSentence(64 * 1024 * 1024)), protocol).toBe(3);
    }
  });

  it('is left out where /tmp is the host’s, and where the tool set runs no command', () => {
    expect(agentSystemPrompt(shell, 'native', '/work/repo', limits)).not.toMatch(/\/tmp/);
    expect(agentSystemPrompt(noShell, 'native', '/work/repo', limits, 64 * 1024 * 1024)).not.toMatch(/\/tmp/);
  });
});

describe('the budget at the end of a third-party agent’s task', () => {
  const f = fixtures.find((x) => x.domain === 'cherry_pick' && x.id === 'f007')!;
  const snapshot = {
    context: contextPlan(f).map((s) => ({ command: s.command, stdout: '', exitCode: 0 })),
  } as unknown as FixtureSnapshot;
  const limits = { maxTurns: 60, maxWallMs: 1_800_000 };

  it('is the gateway’s limits after the task, without a command limit its own tools set', () => {
    const task = agentTaskPrompt(f, snapshot, 'final message', null);
    expect(thirdPartyTaskPrompt(f, snapshot, limits)).toBe(
      `${task}\n\nYou have at most 60 turns and 30 minutes in all (each reply is one turn, with its tool call).`,
    );
  });

  it('is followed by the size of /tmp where the sandbox caps it, and by nothing of it where /tmp is the host’s', () => {
    expect(thirdPartyTaskPrompt(f, snapshot, limits, 64 * 1024 * 1024)).toBe(
      `${thirdPartyTaskPrompt(f, snapshot, limits)}\n/tmp is an in-memory file system of 64 MB: ` +
        `keep large temporary files (a copy of the repository, big archives or logs) out of it.`,
    );
    expect(thirdPartyTaskPrompt(f, snapshot, limits)).not.toMatch(/\/tmp/);
  });
});

describe('the command time limit in the hard tier’s prompts', async () => {
  const hard = (await loadSuiteDir(join(ROOT, 'fixtures/hard'))).fixtures;
  const naming = hard.filter((f) => (f.agent?.prompt ?? f.prompt).includes(COMMAND_TIME_LIMIT));
  // The mined tasks have context commands (git status, git diff): each gets an empty result, which renders
  // its heading alone and leaves the prompt's own text to check.
  const snapshot = (f: Fixture) =>
    ({
      context: contextPlan(f).map((s) => ({ command: s.command, stdout: '', exitCode: 0 })),
    }) as unknown as FixtureSnapshot;

  it('is the attempt’s own limit, never a number a fixture wrote', () => {
    expect(naming.length).toBeGreaterThanOrEqual(18);
    for (const f of naming) {
      const key = `${f.domain}/${f.id}`;
      expect(agentTaskPrompt(f, snapshot(f), 'submit', 45_000), key).toMatch(/stopped after\s+45 seconds/);
      expect(agentTaskPrompt(f, snapshot(f), 'submit', 45_000), key).not.toContain(COMMAND_TIME_LIMIT);
      expect(agentTaskPrompt(f, snapshot(f), 'final message', null), key).toMatch(
        /stopped after\s+the time limit of your own shell tool/,
      );
    }
    for (const f of hard)
      expect(`${f.prompt}\n${f.agent?.prompt ?? ''}`, `${f.domain}/${f.id}`).not.toMatch(/stopped after\s+\d/);
  });
});
