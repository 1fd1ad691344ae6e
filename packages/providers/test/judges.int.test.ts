import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryJudgeCache } from '@gitbench/core';
import { runLlmJudge, runPairwiseJudge, type JudgePanel } from '../src/judges';
import { loadProfiles } from '../src/profiles';
import { ProviderRegistry } from '../src/registry';
import {
  chatCompletion,
  openAIError,
  startFakeModelServer,
  type FakeModelServer,
  type Handler,
} from './support/fake-model-server';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A judge profile of three models behind one local OpenAI-compatible server, built the way the CLI does. */
async function panelFor(handler: Handler): Promise<{ panel: JudgePanel; server: FakeModelServer }> {
  server = await startFakeModelServer(handler);
  const config = {
    models: {
      judges: {
        models: ['judge-a', 'judge-b', 'judge-c'],
        base_url: `${server.url}/v1`,
        api_key_env: 'JUDGE_KEY',
        retry_count: 2,
      },
    },
    judge: { profile: 'judges' },
  };
  const registry = new ProviderRegistry({
    profiles: loadProfiles(JSON.stringify(config), { JUDGE_KEY: 'k' }),
    env: { JUDGE_KEY: 'k' },
    policy: { backoffBaseMs: 5, backoffMaxMs: 10 },
  });
  return { panel: registry.judgePanel(), server };
}

const TASK = {
  task: 'Write a commit message for adding hello.txt',
  reference: 'Add hello.txt with greeting message',
  threshold: 0.5,
  fixtureInputHash: 'fx123',
};

describe('llm_judge against a local server', () => {
  it('keeps every member, averages the members that scored, and records the one that failed', async () => {
    const { panel, server: s } = await panelFor((req) => {
      if (req.body.model === 'judge-a')
        return {
          json: chatCompletion({
            content: '{"score":1,"reason":"correct"}',
            usage: { prompt: 200, completion: 12, cost: 0.0001 },
          }),
        };
      if (req.body.model === 'judge-b') return { json: chatCompletion({ content: '{"score":0.5,"reason":"vague"}' }) };
      return openAIError(500, 'judge-c is down');
    });
    const cache = new InMemoryJudgeCache();
    const first = await runLlmJudge({ panel, ...TASK, answer: 'Add hello.txt', cache });

    expect(first.cacheHit).toBe(false);
    expect(first.verdict).toMatchObject({
      status: 'scored',
      score: 0.75,
      passed: true,
      scoredMembers: 2,
      method: 'mean',
    });
    const [a, b, c] = first.verdict.members;
    expect(a).toMatchObject({
      memberId: 'judge-0',
      model: 'judge-a',
      status: 'scored',
      score: 1,
      reason: 'correct',
      rawReply: '{"score":1,"reason":"correct"}',
    });
    expect(a?.cost).toEqual({ source: 'provider', usd: 0.0001 });
    expect(a?.usage?.inputTokens).toBe(200);
    expect(b).toMatchObject({ status: 'scored', score: 0.5 });
    expect(c).toMatchObject({ status: 'failed', score: null, error: { kind: 'transient', code: 'server_error' } });
    // Structured output is requested from every member.
    expect(s.requests[0]?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { strict: true, name: 'judge_score' },
    });

    const callsBefore = s.requests.length;
    const second = await runLlmJudge({ panel, ...TASK, answer: 'Add hello.txt', cache });
    expect(second.cacheHit).toBe(true);
    expect(second.cacheKey).toBe(first.cacheKey);
    expect(s.requests.length).toBe(callsBefore);
    const otherAnswer = await runLlmJudge({ panel, ...TASK, answer: 'Add hello.txt file', cache });
    expect(otherAnswer.cacheHit).toBe(false);
  });

  it('never takes a score from free text: a reply outside the contract is a failed member', async () => {
    const { panel } = await panelFor(() => ({ json: chatCompletion({ content: 'Score: 0.9 — looks right' }) }));
    const { verdict } = await runLlmJudge({ panel, ...TASK, answer: 'Add hello.txt' });
    expect(verdict.status).toBe('unscored');
    expect(
      verdict.members.every(
        (m) => m.status === 'failed' && m.error?.kind === 'quality' && m.rawReply === 'Score: 0.9 — looks right',
      ),
    ).toBe(true);
  });

  it('is unscored when every member fails, and does not cache that', async () => {
    const { panel } = await panelFor((req) =>
      req.body.model === 'judge-a'
        ? { json: chatCompletion({ content: '{"score": 7, "reason": "out of ten"}' }) }
        : openAIError(503, 'down'),
    );
    const cache = new InMemoryJudgeCache();
    const { verdict } = await runLlmJudge({ panel, ...TASK, answer: 'x', cache });
    expect(verdict.status).toBe('unscored');
    if (verdict.status === 'unscored') expect(verdict.reason).toMatch(/Every judge member failed/);
    expect(cache.size).toBe(0);
  });
});

describe('pairwise judge against a local server', () => {
  it('asks twice with positions swapped and reports position bias as a tie', async () => {
    // A judge that always prefers whatever is shown first.
    const biased = await panelFor(() => ({
      json: chatCompletion({ content: '{"preferred":"first","reason":"first looks fine"}' }),
    }));
    const member = biased.panel.members[0]!;
    const judgement = await runPairwiseJudge({
      member,
      task: 'Summarise history',
      outputA: 'A text',
      outputB: 'B text',
    });
    expect(judgement.verdict).toMatchObject({
      status: 'scored',
      winner: 'tie',
      consistent: false,
      orderings: { aFirst: 'A', bFirst: 'B' },
    });
    const prompts = biased.server.requests.map((r) => JSON.stringify(r.body.messages));
    expect(prompts.some((p) => p.indexOf('A text') < p.indexOf('B text'))).toBe(true);
    expect(prompts.some((p) => p.indexOf('B text') < p.indexOf('A text'))).toBe(true);
  });

  it('declares a winner when both orderings agree on content', async () => {
    const { panel } = await panelFor((req) => {
      const prompt = JSON.stringify(req.body.messages);
      const bFirst = prompt.indexOf('B text') < prompt.indexOf('A text');
      return {
        json: chatCompletion({
          content: JSON.stringify({ preferred: bFirst ? 'first' : 'second', reason: 'B is complete' }),
        }),
      };
    });
    const judgement = await runPairwiseJudge({
      member: panel.members[0]!,
      task: 't',
      outputA: 'A text',
      outputB: 'B text',
    });
    expect(judgement.verdict).toMatchObject({ status: 'scored', winner: 'B', consistent: true });
  });
});
