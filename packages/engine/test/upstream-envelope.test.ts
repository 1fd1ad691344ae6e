import { COMMAND_TIME_LIMIT, legacyEnvelopeSchema, planLegacyImport, renderPrompt } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { agentTaskPrompt, toUpstreamEnvelope, type FixtureSnapshot, type SuiteRunEntry } from '../src';
import { attempt, fixture, replayed, response } from './run-entries';

/** The parts of the envelope these tests read. */
interface Envelope {
  summary: unknown;
  gitbench: { excluded: unknown[]; usage: unknown; judge_usage: unknown };
  results: { benchmark: string; scores: (Record<string, unknown> & { gitbench: { judge?: unknown } })[] }[];
}
const envelope = (entries: SuiteRunEntry[]) => toUpstreamEnvelope(META, entries) as unknown as Envelope;
const scoresOf = (env: Envelope, benchmark: string) => env.results.find((r) => r.benchmark === benchmark)?.scores ?? [];

const META = {
  model: 'org/model#high',
  outputMode: 'text' as const,
  timestamp: '2026-01-02T03:04:05.000Z',
  suiteVersion: '1.0.0',
  product: { version: 'abc', dirty: true, source: 'git' as const },
  profile: 'p',
  reasoningLevel: 'high',
};

describe('toUpstreamEnvelope', () => {
  const pass = replayed(fixture('log', 'f001'), 'PASS', true);
  const fail = replayed(fixture('log', 'f002'), 'FAIL', false);
  const judged = fixture('commit_messages', 'f001', 'llm_judge');
  const unscored = replayed(judged, 'NEEDS_JUDGE', true);
  const notRun: SuiteRunEntry = {
    fixture: fixture('log', 'f003'),
    outputMode: 'text',
    trial: 1,
    attempt: null,
    response: null,
    error: 'Gave up after 3 attempt(s)',
    durationMs: 1,
  };
  const withJudge: SuiteRunEntry = {
    fixture: judged,
    outputMode: 'text',
    trial: 1,
    attempt: attempt(judged, 'PASS'),
    response: response({
      cost: { source: 'unknown', usd: null },
      usage: { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null },
    }),
    judgement: {
      cacheHit: false,
      cacheKey: 'k',
      judgeConfigHash: 'h',
      verdict: {
        status: 'scored',
        method: 'mean',
        score: 0.9,
        threshold: 0.5,
        passed: true,
        scoredMembers: 1,
        members: [
          {
            memberId: 'judge-0',
            model: 'judge-a',
            status: 'scored',
            score: 0.9,
            reason: 'good',
            rawReply: '{}',
            usage: { inputTokens: 200, outputTokens: 20, reasoningTokens: null, totalTokens: 220 },
            cost: { source: 'provider', usd: 0.002 },
            apiDurationMs: 300,
            route: null,
            error: null,
          },
        ],
      },
    },
    durationMs: 5,
  };

  it("names the GitBench that ran in upstream's git_sha, and whether its tree was modified", () => {
    const env = toUpstreamEnvelope(META, []) as unknown as { git_sha: unknown; gitbench: { product_dirty: unknown } };
    expect([env.git_sha, env.gitbench.product_dirty]).toEqual(['abc', true]);
  });

  it('scores quality outcomes only and lists the rest with their reason', () => {
    const env = envelope([pass, fail, unscored, notRun]);
    expect(env.summary).toEqual({ total_benchmarks: 1, total_fixtures: 2, total_passed: 1, overall_pass_at_k: 0.5 });
    expect(env.gitbench.excluded).toEqual([
      {
        benchmark: 'commit_messages',
        fixture_id: 'f001',
        outcome: 'NEEDS_JUDGE',
        reason: 'unscored: an llm_judge fixture and no judge profile (--judge-profile)',
      },
      { benchmark: 'log', fixture_id: 'f003', outcome: 'NOT_RUN', reason: 'not run: Gave up after 3 attempt(s)' },
    ]);
    // Our own importer reads it back as a legacy run: no unscored attempt turns into a failure there.
    const plan = planLegacyImport('run.json', JSON.stringify(env));
    expect(plan.attempts.map((a) => [a.fixtureId, a.status])).toEqual([
      ['f001', 'VALID_PASS'],
      ['f002', 'VALID_FAIL'],
    ]);
    expect(legacyEnvelopeSchema.safeParse(env).success).toBe(true);
  });

  it("records every call's tokens, cost and API time, the judges' apart from the model's", () => {
    const env = envelope([pass, withJudge]);
    const [judgedScore] = scoresOf(env, 'commit_messages');
    expect(judgedScore).toMatchObject({ input_tokens: null, cost_usd: null, reasoning_level: 'high' });
    expect(judgedScore?.gitbench.judge).toMatchObject({
      status: 'scored',
      score: 0.9,
      members: [{ model: 'judge-a', input_tokens: 200, cost_usd: 0.002, api_duration_ms: 300 }],
    });
    const [logScore] = scoresOf(env, 'log');
    expect(logScore).toMatchObject({
      input_tokens: 100,
      output_tokens: 10,
      total_tokens: 110,
      cost_usd: 0.001,
      api_duration_ms: 500,
      request_telemetry: { attempts: 1 },
    });
    expect(env.gitbench.usage).toEqual({
      calls: 2,
      input_tokens: 100,
      output_tokens: 10,
      total_tokens: 110,
      calls_with_tokens: 1,
      cost_usd: 0.001,
      calls_with_cost: 1,
      api_duration_ms: 1000,
    });
    expect(env.gitbench.judge_usage).toEqual({
      calls: 1,
      input_tokens: 200,
      output_tokens: 20,
      total_tokens: 220,
      calls_with_tokens: 1,
      cost_usd: 0.002,
      calls_with_cost: 1,
      api_duration_ms: 300,
    });
  });

  it("counts GitGoodBench's history judge calls among the judges' (both orderings)", () => {
    const ir = fixture('ir', 'click-ir01');
    const judgeCall = response({
      usage: { inputTokens: 900, outputTokens: 20, reasoningTokens: null, totalTokens: 920 },
      cost: { source: 'provider', usd: 0.0004 },
      apiDurationMs: 100,
    });
    const historyJudged: SuiteRunEntry = {
      ...replayed(ir, 'FAIL', false),
      run: { historyJudgeCalls: [judgeCall, judgeCall] } as unknown as SuiteRunEntry['run'],
    };
    type Totals = { calls: number; input_tokens: number; cost_usd: number; api_duration_ms: number };
    const withCalls = envelope([historyJudged]).gitbench;
    const target = withCalls.judge_usage as Totals;
    const alone = envelope([{ ...historyJudged, run: undefined }]).gitbench.judge_usage as Totals;
    expect(withCalls.usage).toEqual(envelope([{ ...historyJudged, run: undefined }]).gitbench.usage);
    expect(target.calls - alone.calls).toBe(2);
    expect(target.input_tokens - alone.input_tokens).toBe(1800);
    expect(Math.round((target.cost_usd - alone.cost_usd) * 1e8) / 1e8).toBe(0.0008);
    expect(target.api_duration_ms - alone.api_duration_ms).toBe(200);
  });

  describe('prompt', () => {
    // A template with a placeholder and context: what is sent differs from the fixture's text in both.
    const templated = {
      ...fixture('log', 'f004'),
      prompt: `Each command is stopped after ${COMMAND_TIME_LIMIT}. What is it?`,
      context: ['git log --oneline'],
    };
    const context = [{ command: 'git log --oneline', stdout: 'abc1234 first\n', exitCode: 0 }];
    const snapshot = { context } as unknown as FixtureSnapshot;

    it('is the prompt a single answer was sent, rendered, not the fixture template', () => {
      const sent = renderPrompt(templated, context, 'text', 30_000);
      const [score] = scoresOf(envelope([replayed(templated, 'PASS', true, { prompt: sent })]), 'log');
      expect(score?.prompt).toBe(sent);
      expect(score?.prompt).not.toContain(COMMAND_TIME_LIMIT);
      expect(score?.prompt).toContain('abc1234 first');
    });

    it("is the agent's task prompt as rendered, the one its transcript holds", () => {
      const sent = agentTaskPrompt(templated, snapshot, 'submit', 30_000);
      const agent = {
        summary: { taskPrompt: sent, submission: 'it', totals: {} },
        steps: [],
        scoredOn: 'answer',
      };
      const entry: SuiteRunEntry = {
        ...replayed(templated, 'PASS', true, { prompt: sent }),
        run: { agent, usage: { calls: 1 } } as unknown as SuiteRunEntry['run'],
      };
      const [score] = scoresOf(envelope([entry]), 'log');
      expect(score?.prompt).toBe(sent);
      expect(score?.prompt).not.toContain(COMMAND_TIME_LIMIT);
      expect((score?.transcript as { content: string }[])[0]?.content).toBe(sent);
    });
  });
});
