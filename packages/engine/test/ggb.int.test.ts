import { join } from 'node:path';
import { renderPrompt, type Fixture, type GgbOutcome } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_COST } from '@gitbench/core';
import type {
  AgentChatResult,
  AgentModel,
  CompletionRequest,
  CompletionResult,
  JudgeMember,
} from '@gitbench/providers';
import { InMemoryHistoryJudgeCache, parseAttemptEvidence } from '@gitbench/core';
import { loadProfiles, ProviderRegistry } from '@gitbench/providers';
import {
  evidenceOfRun,
  buildFixtureRepository,
  executeAttempt,
  judgeGgbAttempt,
  judgeUsageOf,
  loadSuiteDir,
  scoreAttempt,
  selfcheckSuite,
} from '../src';
import {
  chatCompletion,
  startFakeModelServer,
  type FakeModelServer,
} from '../../providers/test/support/fake-model-server';
import { useTestDriver } from './test-driver';

const completion = (output: string, structuredOutput?: unknown) =>
  ({
    output,
    structuredOutput,
    qualityFailure: null,
    usage: {},
    cost: { source: 'unknown', usd: null },
    apiDurationMs: 1,
    route: {},
    retries: [],
    flags: [],
  }) as unknown as CompletionResult;

const SUITE = join(import.meta.dirname, '../../../fixtures/ggb');
let driver: DockerSandboxDriver;
const runLabel = useTestDriver('ggb', (d) => (driver = d));
let fixtures: Fixture[];
let server: FakeModelServer | undefined;

const pick = (key: string) => {
  const f = fixtures.find((x) => `${x.domain}/${x.id}` === key);
  if (!f) throw new Error(`${key} not found`);
  return f;
};

/** A model that answers with one scripted tool call per turn, the last one repeated. */
function scriptedAgent(
  name: string,
  turns: { name: string; args: unknown }[],
): AgentModel & { complete: () => Promise<CompletionResult> } {
  let next = 0;
  return {
    complete: () => Promise.reject(new Error('agent mode only')),
    name,
    kind: 'scripted',
    simulated: false,
    chat: () => {
      const t = turns[Math.min(next++, turns.length - 1)]!;
      const result: AgentChatResult = {
        content: null,
        reasoning: null,
        toolCalls: [{ id: `c${next}`, name: t.name, arguments: JSON.stringify(t.args) }],
        finishReason: 'tool_calls',
        usage: { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null },
        cost: UNKNOWN_COST,
        apiDurationMs: 0,
        retries: [],
        route: {
          provider: 'scripted',
          profile: 'test',
          baseUrl: null,
          requestedModel: name,
          servedModel: null,
          responseId: null,
          upstreamProvider: null,
          simulated: false,
        },
      };
      return Promise.resolve(result);
    },
  };
}

beforeAll(async () => {
  const loaded = await loadSuiteDir(SUITE);
  expect(loaded.errors).toEqual([]);
  fixtures = loaded.fixtures;
});
afterAll(async () => {
  await server?.close();
});

describe('GitGoodBench suite', () => {
  it('holds at least 20 scenarios of each type, in every band', () => {
    for (const type of ['mcr', 'ir', 'icc']) {
      const of = fixtures.filter((f) => f.domain === type);
      expect(of.length).toBeGreaterThanOrEqual(20);
      expect(new Set(of.map((f) => f.difficulty))).toEqual(new Set(['easy', 'medium', 'hard']));
    }
  });

  it(
    'self-checks a sample of every type in three runs: ' +
      'references solve, nops and wrong answers fail, hashes stable',
    async () => {
      const sample = [
        'mcr/click-m01',
        'mcr/requests-m04',
        'ir/click-ir01',
        'ir/requests-ir04',
        'icc/click-icc01',
        'icc/requests-icc04',
      ].map(pick);
      const summary = await selfcheckSuite(sample, driver, { runs: 3, workers: 2, labels: runLabel });
      expect(
        summary.fixtures.filter((f) => f.status !== 'passed').map((f) => `${f.benchmark}/${f.id}: ${f.reason}`),
      ).toEqual([]);
      expect(summary.stableHashes).toBe(sample.length);
      expect(summary.negativesChecked).toBe(sample.length * 2);
    },
    600_000,
  );

  it('records the MCR diff to the merge commit and both IR verdicts as evidence', async () => {
    const mcr = pick('mcr/click-m01');
    const snap = await buildFixtureRepository(mcr, driver, { labels: runLabel });
    const wrong = await scoreAttempt({
      fixture: mcr,
      snapshot: snap,
      driver,
      outputMode: 'text',
      prompt: renderPrompt(mcr, snap.context, 'text', 30_000),
      output: mcr.negatives![1]!.answer,
      labels: runLabel,
    });
    const m = wrong.family as GgbOutcome;
    expect(m).toMatchObject({ family: 'ggb', scenario: 'mcr', success: true, solved: false, mcr: { unmerged: [] } });
    expect(m.mcr!.diff).toMatch(/^diff --git /);

    const ir = pick('ir/click-ir01');
    const irSnap = await buildFixtureRepository(ir, driver, { labels: runLabel });
    const attempt = await scoreAttempt({
      fixture: ir,
      snapshot: irSnap,
      driver,
      outputMode: 'text',
      prompt: renderPrompt(ir, irSnap.context, 'text', 30_000),
      output: 'git rebase --continue',
      labels: runLabel,
    });
    expect(attempt.outcome).toBe('NEEDS_JUDGE');
    const { attempt: judged } = await judgeGgbAttempt({ attempt, ask: 'scripted' });
    const h = judged.family as GgbOutcome;
    expect(judged.outcome).toBe('FAIL');
    expect(h.judge?.verdicts.map((v) => [v.agentAs, v.result])).toEqual([
      ['HISTORY-1', 'TIE'],
      ['HISTORY-2', 'TIE'],
    ]);
    expect(h.histories!.agent.map((c) => c.message)).toEqual(h.histories!.original.map((c) => c.message));
  }, 300_000);

  it(
    'runs an IR attempt end to end: the judge member is asked ' +
      'twice at temperature 0, and a judge failure leaves it unscored',
    async () => {
      const ir = pick('ir/click-ir01');
      const snapshot = await buildFixtureRepository(ir, driver, { labels: runLabel });
      const model = { name: 'fixed', complete: () => Promise.resolve(completion('git rebase --continue')) };
      const requests: CompletionRequest[] = [];
      const member = (model: string, reply: (r: CompletionRequest) => Promise<CompletionResult>): JudgeMember => ({
        memberId: 'j',
        model,
        identity: { provider: 'mock' },
        provider: { name: 'judge', kind: 'openai', complete: (r) => (requests.push(r), reply(r)) },
      });
      const tie = member('judge-a', () =>
        Promise.resolve(completion('{}', { evaluation_result: 'TIE', evaluation_reason: 'same history' })),
      );
      const run = await executeAttempt({
        fixture: ir,
        snapshot,
        driver,
        model,
        modelName: 'fixed',
        mode: 'text',
        labels: runLabel,
        judge: { panel: () => ({ profile: 'p', members: [tie] }) },
      });
      expect(run.ending).toEqual({ outcome: 'FAIL' });
      expect(requests.map((r) => [r.temperature, r.schemaName])).toEqual([
        [0, 'history_evaluation'],
        [0, 'history_evaluation'],
      ]);
      expect(run.historyJudgeCalls).toHaveLength(2);
      expect((run.attempt!.family as GgbOutcome).judge).toMatchObject({
        status: 'scored',
        verdicts: [{ result: 'TIE' }, { result: 'TIE' }],
      });

      // Judged once: the same histories before the same judge are not asked again.
      const cached = await executeAttempt({
        fixture: ir,
        snapshot,
        driver,
        model,
        modelName: 'fixed',
        mode: 'text',
        labels: runLabel,
        judge: { panel: () => ({ profile: 'p', members: [tie] }) },
      });
      expect(cached.ending).toEqual({ outcome: 'FAIL' });
      expect(requests).toHaveLength(2);

      // A judge profile of a built-in provider plays the scripted judge (no model call).
      const builtin: JudgeMember = {
        ...member('judge-builtin', () => Promise.reject(new Error('not asked'))),
        provider: { name: 'mock', kind: 'mock', complete: () => Promise.reject(new Error('not asked')) },
      };
      const scripted = await executeAttempt({
        fixture: ir,
        snapshot,
        driver,
        model,
        modelName: 'fixed',
        mode: 'text',
        labels: runLabel,
        judge: { panel: () => ({ profile: 'p', members: [builtin] }) },
      });
      expect(scripted.ending).toEqual({ outcome: 'FAIL' });
      expect((scripted.attempt!.family as GgbOutcome).judge?.verdicts.map((v) => v.result)).toEqual(['TIE', 'TIE']);

      const broken = member('judge-b', () => Promise.reject(new Error('judge down')));
      const unscored = await executeAttempt({
        fixture: ir,
        snapshot,
        driver,
        model,
        modelName: 'fixed',
        mode: 'text',
        labels: runLabel,
        judge: { panel: () => ({ profile: 'p', members: [broken] }) },
      });
      expect(unscored.ending).toEqual({ unjudged: 'judge_exhausted' });
      expect(unscored.passed).toBeNull();
      expect(unscored.attempt!.family as GgbOutcome).toMatchObject({ solved: null, judge: { status: 'unscored' } });
    },
    300_000,
  );

  it("stores the history judge's usage and cost in the attempt's evidence, apart from the target model's", async () => {
    const ir = pick('ir/click-ir01');
    const snapshot = await buildFixtureRepository(ir, driver, { labels: runLabel });
    const route = {
      provider: 'fixed',
      profile: 'fixed',
      baseUrl: null,
      requestedModel: 'fixed',
      servedModel: null,
      responseId: null,
      upstreamProvider: null,
      simulated: false,
    };
    const answer = {
      output: 'git rebase --continue',
      reasoning: null,
      qualityFailure: null,
      usage: { inputTokens: 50, outputTokens: 5, reasoningTokens: null, totalTokens: 55 },
      cost: { source: 'provider', usd: 0.00001 },
      apiDurationMs: 1,
      route,
      requestConfig: {},
      retries: [],
      transcript: [],
      flags: [],
    };
    const model = { name: 'fixed', complete: () => Promise.resolve(answer as unknown as CompletionResult) };
    // A judge profile behind a local OpenAI-compatible server that reports each call's tokens and cost.
    server = await startFakeModelServer(() => ({
      json: chatCompletion({
        content: '{"evaluation_result":"TIE","evaluation_reason":"same history"}',
        usage: { prompt: 900, completion: 20, cost: 0.0004 },
      }),
    }));
    const config = {
      models: { judges: { models: ['judge-a'], base_url: `${server.url}/v1`, api_key_env: 'JUDGE_KEY' } },
      judge: { profile: 'judges' },
    };
    const registry = new ProviderRegistry({
      profiles: loadProfiles(JSON.stringify(config), { JUDGE_KEY: 'k' }),
      env: { JUDGE_KEY: 'k' },
    });
    const run = await executeAttempt({
      fixture: ir,
      snapshot,
      driver,
      model,
      modelName: 'fixed',
      mode: 'text',
      labels: runLabel,
      judge: { panel: () => registry.judgePanel(), historyCache: new InMemoryHistoryJudgeCache() },
    });
    expect(run.ending).toEqual({ outcome: 'FAIL' });
    expect(server.requests).toHaveLength(2);

    // What the worker stores as the try's evidence (engine-executor's evidenceOf), read back as the pages read it.
    const evidence = parseAttemptEvidence(
      JSON.parse(JSON.stringify(evidenceOfRun(run, { mode: 'text', expected: ir.expected }))),
    );
    if (evidence.origin !== 'gitbench') throw new Error('expected GitBench evidence');
    expect(evidence.historyJudgeCalls?.map((c) => [c.usage.inputTokens, c.usage.outputTokens, c.cost])).toEqual([
      [900, 20, { source: 'provider', usd: 0.0004 }],
      [900, 20, { source: 'provider', usd: 0.0004 }],
    ]);
    expect(evidence.historyJudgeCalls?.map((c) => c.route.requestedModel)).toEqual(['judge-a', 'judge-a']);
    // The target model's usage is its own call only: the judge's tokens are not in it.
    expect(evidence.calls).toHaveLength(1);
    expect([run.usage.inputTokens, run.usage.costUsd]).toEqual([50, 0.00001]);
    // What the worker puts in the attempt's judge columns, summed on the campaign page.
    const spent = judgeUsageOf(run);
    expect([spent?.calls, spent?.inputTokens, spent?.outputTokens]).toEqual([2, 1800, 40]);
    expect(spent?.costUsd).toBeCloseTo(0.0008, 10);
  }, 300_000);

  it(
    'plugs into the agent loop: the oracle solves MCR through bash, ' +
      'nop fails it, and an agent rewrites IR through the ggb-ir tools',
    async () => {
      const LIMITS = { maxTurns: 12, commandTimeoutMs: 30_000 };
      const mcr = pick('mcr/click-m01');
      const mcrSnap = await buildFixtureRepository(mcr, driver, { labels: runLabel });
      const noText = { name: 'builtin', complete: () => Promise.reject(new Error('agent mode only')) };
      const oracle = await executeAttempt({
        fixture: mcr,
        snapshot: mcrSnap,
        driver,
        model: noText,
        modelName: 'oracle',
        mode: 'agent',
        agent: { config: { toolSet: 'bash+editor', limits: LIMITS } },
        labels: runLabel,
      });
      expect(oracle.ending, String(oracle.errorMessage) + JSON.stringify(oracle.agent?.summary)).toEqual({
        outcome: 'PASS',
      });
      expect(oracle.attempt!.family).toMatchObject({ family: 'ggb', scenario: 'mcr', solved: true });
      const nop = await executeAttempt({
        fixture: mcr,
        snapshot: mcrSnap,
        driver,
        model: noText,
        modelName: 'nop',
        mode: 'agent',
        agent: { config: { limits: LIMITS } },
        labels: runLabel,
      });
      expect(nop.ending).toEqual({ outcome: 'FAIL' });
      expect(nop.agent!.summary.toolSet).toBe('ggb-mcr');

      // The oracle with the paper's tools (the fixtures' default sets): its reference as tool calls.
      const viaTools = await executeAttempt({
        fixture: mcr,
        snapshot: mcrSnap,
        driver,
        model: noText,
        modelName: 'oracle',
        mode: 'agent',
        agent: { config: { limits: LIMITS } },
        labels: runLabel,
      });
      expect(viaTools.agent!.summary.toolSet).toBe('ggb-mcr');
      expect(viaTools.ending, String(viaTools.errorMessage)).toEqual({ outcome: 'PASS' });
      const icc = pick('icc/click-icc01');
      const iccSnap = await buildFixtureRepository(icc, driver, { labels: runLabel });
      const iccRun = await executeAttempt({
        fixture: icc,
        snapshot: iccSnap,
        driver,
        model: noText,
        modelName: 'oracle',
        mode: 'agent',
        agent: { config: { limits: LIMITS } },
        labels: runLabel,
      });
      expect(iccRun.ending).toEqual({ unjudged: 'no_judge_profile' });
      const iccFamily = iccRun.attempt!.family as GgbOutcome;
      expect(iccFamily.histories!.agent.map((c) => [c.message, c.diff])).toEqual(
        iccFamily.histories!.original.map((c) => [c.message, c.diff]),
      );

      const ir = pick('ir/requests-ir01');
      const irSnap = await buildFixtureRepository(ir, driver, { labels: runLabel });
      const n = ir.scoring.chain_length as number;
      const turns = [
        { name: 'view_rebase_todo', args: { reason: 'see the plan' } },
        {
          name: 'update_rebase_todo_list',
          args: {
            reason: 'fold the last commit into the one before',
            rebase_todo_list_items: [...Array(n).keys()].map((i) =>
              i === n - 1
                ? { commit_index: i, command: 'squash', commit_msg: "Combined change: 'quoted' $HOME" }
                : { commit_index: i, command: 'pick' },
            ),
          },
        },
        { name: 'execute_rebase', args: { reason: 'apply it' } },
        { name: 'submit', args: { answer: '' } },
      ];
      const agent = scriptedAgent('scripted-ir', turns);
      const tie = {
        memberId: 'j',
        model: 'judge-agent',
        identity: { provider: 'mock' },
        provider: {
          name: 'j',
          kind: 'openai',
          complete: () => Promise.resolve(completion('{}', { evaluation_result: 'TIE', evaluation_reason: 'x' })),
        },
      };
      const run = await executeAttempt({
        fixture: ir,
        snapshot: irSnap,
        driver,
        model: agent,
        modelName: 'scripted-ir',
        mode: 'agent',
        agent: { config: { limits: LIMITS } },
        labels: runLabel,
        judge: { panel: () => ({ profile: 'p', members: [tie] }) },
      });
      expect(run.agent!.summary.toolSet).toBe('ggb-ir');
      const family = run.attempt!.family as GgbOutcome;
      expect(family.histories!.rebaseInProgress).toBe(false);
      expect(family.histories!.agent).toHaveLength(n - 1);
      expect(family.histories!.agent.at(-1)!.message).toBe("Combined change: 'quoted' $HOME");
      expect(run.ending).toEqual({ outcome: 'FAIL' });
      expect(family.judge?.verdicts).toHaveLength(2);
    },
    300_000,
  );

  /** A scripted agent splits requests-ir01's COMMIT-0 (two hunks) into parts, each holding the hunks given. */
  async function splitFirstCommit(parts: { hunks: number[]; commit_msg: string }[], maxToolOutputBytes?: number) {
    const ir = pick('ir/requests-ir01');
    const snapshot = await buildFixtureRepository(ir, driver, { labels: runLabel });
    const n = ir.scoring.chain_length as number;
    const turns = [
      {
        name: 'update_rebase_todo_list',
        args: {
          reason: 'stop at the first commit to split it',
          rebase_todo_list_items: [...Array(n).keys()].map((i) => ({
            commit_index: i,
            command: i === 0 ? 'edit' : 'pick',
          })),
        },
      },
      { name: 'execute_rebase', args: { reason: 'go to the edit stop' } },
      { name: 'view_hunks_to_split', args: { reason: 'number the hunks' } },
      { name: 'split_commit', args: { reason: 'one change per commit', parts } },
      { name: 'execute_rebase', args: { reason: 'finish' } },
      { name: 'submit', args: { answer: '' } },
    ];
    const limits = { maxTurns: 12, commandTimeoutMs: 30_000, ...(maxToolOutputBytes ? { maxToolOutputBytes } : {}) };
    const run = await executeAttempt({
      fixture: ir,
      snapshot,
      driver,
      model: scriptedAgent('scripted-ir-split', turns),
      modelName: 'scripted-ir-split',
      mode: 'agent',
      agent: { config: { limits } },
      labels: runLabel,
    });
    const outputs = run.agent!.steps.map((s) => s.results[0]!);
    expect(outputs.map((o) => o.isError)).toEqual([false, false, false, false, false, false]);
    expect(run.ending).toEqual({ unjudged: 'no_judge_profile' });
    const { agent, original, rebaseInProgress } = (run.attempt!.family as GgbOutcome).histories!;
    expect(rebaseInProgress).toBe(false);
    expect(agent.map((c) => c.message)).toEqual([
      ...parts.map((p) => p.commit_msg),
      ...original.slice(1).map((c) => c.message),
    ]);
    // The commits after the split one are picked unchanged; the split one's hunks, as Git wrote them.
    expect(agent.slice(2).map((c) => c.diff)).toEqual(original.slice(1).map((c) => c.diff));
    const hunks = original[0]!.diff.split(/(?=^@@ )/m).slice(1);
    return { outputs, agent, hunks };
  }

  it(
    'splits an IR commit in a real sandbox: edit stops the rebase, ' +
      'split_commit makes a commit of each hunk, the rebase finishes',
    async () => {
      const messages = ['Remove the unused timeout argument', "Drop Request's timeout attribute: 'quoted' $HOME"];
      const { outputs, agent, hunks } = await splitFirstCommit(
        messages.map((commit_msg, i) => ({ hunks: [i + 1], commit_msg })),
      );
      expect(outputs[1]!.output).toMatch(/^The rebase stopped after COMMIT-0 \(edit\) so that it can be split/);
      expect(outputs[2]!.output).toMatch(
        /^COMMIT-0 as picked, 2 hunk\(s\):\n[\s\S]*<HUNK-1>\n@@ -156,7[\s\S]*<HUNK-2>\n@@ -168,7/,
      );
      expect(outputs[4]!.output).toContain('The rebase finished');
      expect(agent[0]!.diff.endsWith(hunks[0]!)).toBe(true);
      expect(agent[1]!.diff).toContain(hunks[1]!.split('\n').slice(1).join('\n'));
    },
    300_000,
  );

  it(
    "splits by the whole diff when the attempt's output limit is " +
      'smaller than it (the session keeps 256 bytes of a command)',
    async () => {
      const { agent, hunks } = await splitFirstCommit(
        [
          { hunks: [2], commit_msg: 'The later hunk first' },
          { hunks: [1], commit_msg: 'Then the earlier one' },
        ],
        256,
      );
      expect(agent[0]!.diff).toContain(hunks[1]!.split('\n').slice(1).join('\n'));
      expect(agent[1]!.diff.endsWith(hunks[0]!)).toBe(true);
    },
    300_000,
  );
});
