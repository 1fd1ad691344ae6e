import { describe, expect, it } from 'vitest';
import {
  InMemoryJudgeCache,
  aggregateJudgeVerdicts,
  aggregatePairwise,
  buildJudgePrompt,
  judgeCacheKey,
  judgeConfigHash,
  judgeReplySchema,
  outputHash,
  type JudgeMemberVerdict,
} from '../../src/judging';

function member(id: string, score: number | null): JudgeMemberVerdict {
  return {
    memberId: id,
    model: `m-${id}`,
    status: score === null ? 'failed' : 'scored',
    score,
    reason: score === null ? null : 'because',
    rawReply: score === null ? null : JSON.stringify({ score, reason: 'because' }),
    usage: null,
    cost: { source: 'unknown', usd: null },
    apiDurationMs: null,
    route: null,
    error: score === null ? { kind: 'transient', code: 'server_error', message: 'HTTP 500' } : null,
  };
}

describe('aggregateJudgeVerdicts', () => {
  it('compares the mean of scoring members with the threshold (pass at or above)', () => {
    const verdict = aggregateJudgeVerdicts([member('0', 0.9), member('1', 1), member('2', 0.9)], 0.9);
    expect(verdict).toMatchObject({ status: 'scored', passed: true, scoredMembers: 3, method: 'mean' });
    if (verdict.status === 'scored') expect(verdict.score).toBeCloseTo(0.9333, 4);
    expect(aggregateJudgeVerdicts([member('0', 0.4), member('1', 0.5)], 0.5)).toMatchObject({
      status: 'scored',
      passed: false,
      score: 0.45,
    });
  });

  it('leaves failed members out of the mean but keeps them in the record', () => {
    const verdict = aggregateJudgeVerdicts([member('0', 1), member('1', null)], 0.8);
    expect(verdict).toMatchObject({ status: 'scored', score: 1, scoredMembers: 1 });
    expect(verdict.members).toHaveLength(2);
  });

  it('is unscored when every member failed, naming each failure', () => {
    const verdict = aggregateJudgeVerdicts([member('0', null), member('1', null)], 0.5);
    expect(verdict.status).toBe('unscored');
    if (verdict.status === 'unscored') expect(verdict.reason).toMatch(/0: HTTP 500; 1: HTTP 500/);
    expect(aggregateJudgeVerdicts([], 0.5).status).toBe('unscored');
  });
});

describe('judge reply contract', () => {
  it('accepts a score in 0..1 with a reason and nothing else', () => {
    expect(judgeReplySchema.safeParse({ score: 0.7, reason: 'ok' }).success).toBe(true);
    expect(judgeReplySchema.safeParse({ score: 7, reason: 'out of 10' }).success).toBe(false);
    expect(judgeReplySchema.safeParse({ score: '0.7', reason: 'ok' }).success).toBe(false);
    expect(judgeReplySchema.safeParse({ score: 0.7 }).success).toBe(false);
  });

  it('puts task, reference and answer in the prompt', () => {
    const prompt = buildJudgePrompt({ task: 'T', reference: 'R', answer: 'A' });
    expect(prompt).toContain('<task>\nT\n</task>');
    expect(prompt).toContain('<reference>\nR\n</reference>');
    expect(prompt).toContain('<answer>\nA\n</answer>');
  });
});

describe('judge cache key', () => {
  const config = {
    kind: 'llm_judge' as const,
    promptVersion: 'v1',
    members: [{ model: 'a', provider: 'openrouter', extraBody: { b: 1, a: 2 } }],
  };

  it('depends on fixture input, output and judge configuration, not on key order', () => {
    const hash = judgeConfigHash(config);
    expect(
      judgeConfigHash({ ...config, members: [{ provider: 'openrouter', model: 'a', extraBody: { a: 2, b: 1 } }] }),
    ).toBe(hash);
    expect(judgeConfigHash({ ...config, promptVersion: 'v2' })).not.toBe(hash);
    const key = judgeCacheKey({ fixtureInputHash: 'f', outputHash: outputHash('answer'), judgeConfigHash: hash });
    expect(key).not.toBe(
      judgeCacheKey({ fixtureInputHash: 'f', outputHash: outputHash('answer '), judgeConfigHash: hash }),
    );
    expect(key).not.toBe(
      judgeCacheKey({ fixtureInputHash: 'g', outputHash: outputHash('answer'), judgeConfigHash: hash }),
    );
    expect(key).toMatch(/^judge:f:[0-9a-f]{64}:[0-9a-f]{64}$/);
  });

  it('has an in-memory store behind the cache interface', async () => {
    const cache = new InMemoryJudgeCache();
    const verdict = aggregateJudgeVerdicts([member('0', 1)], 0.5);
    await cache.set('k', verdict);
    expect(await cache.get('k')).toBe(verdict);
    expect(await cache.get('other')).toBeUndefined();
  });
});

describe('aggregatePairwise', () => {
  it('declares a winner only when both orderings agree', () => {
    // A-first said "first" (A); B-first said "second" (A again).
    expect(aggregatePairwise('first', 'second')).toMatchObject({ status: 'scored', winner: 'A', consistent: true });
    expect(aggregatePairwise('second', 'first')).toMatchObject({ status: 'scored', winner: 'B', consistent: true });
    expect(aggregatePairwise('tie', 'tie')).toMatchObject({ winner: 'tie', consistent: true });
  });

  it('turns position bias and half-ties into a tie, flagged inconsistent', () => {
    expect(aggregatePairwise('first', 'first')).toMatchObject({
      winner: 'tie',
      consistent: false,
      orderings: { aFirst: 'A', bFirst: 'B' },
    });
    expect(aggregatePairwise('first', 'tie')).toMatchObject({ winner: 'tie', consistent: false });
  });

  it('is unscored when an ordering has no reply', () => {
    expect(aggregatePairwise(null, 'first')).toMatchObject({
      status: 'unscored',
      reason: expect.stringMatching(/A-first/),
    });
    expect(aggregatePairwise(null, null).status).toBe('unscored');
  });
});
