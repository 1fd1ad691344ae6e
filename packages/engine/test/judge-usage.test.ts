import { describe, expect, it } from 'vitest';
import type { JudgeMemberVerdict } from '@gitbench/core';
import type { CompletionResult, LlmJudgement } from '@gitbench/providers';
import { judgeUsageOf } from '../src/judge-usage';

const member = (id: string, usd: number | null, tokens: number | null): JudgeMemberVerdict => ({
  memberId: id,
  model: 'judge',
  status: 'scored',
  score: 0.8,
  reason: 'ok',
  rawReply: '{}',
  usage:
    tokens === null ? null : { inputTokens: tokens - 10, outputTokens: 10, reasoningTokens: null, totalTokens: tokens },
  cost: usd === null ? { source: 'unknown', usd: null } : { source: 'provider', usd },
  apiDurationMs: 100,
  route: null,
  error: null,
});
const judgement = (cacheHit: boolean, members: JudgeMemberVerdict[]): LlmJudgement => ({
  verdict: {
    status: 'scored',
    method: 'mean',
    score: 0.8,
    threshold: 0.5,
    passed: true,
    scoredMembers: members.length,
    members,
  },
  cacheKey: 'k',
  judgeConfigHash: 'h',
  cacheHit,
});

describe('what judging an attempt spent', () => {
  it('sums the judge members asked for this attempt, and the history judge calls', () => {
    expect(
      judgeUsageOf({ judgement: judgement(false, [member('judge-0', 0.002, 500), member('judge-1', 0.001, 300)]) }),
    ).toMatchObject({
      calls: 2,
      totalTokens: 800,
      costUsd: 0.003,
      apiDurationMs: 200,
    });
    const history = [
      {
        usage: { inputTokens: 900, outputTokens: 20, reasoningTokens: null, totalTokens: 920 },
        cost: { source: 'provider', usd: 0.0004 },
        apiDurationMs: 5,
      },
    ] as CompletionResult[];
    expect(judgeUsageOf({ historyJudgeCalls: [...history, ...history] })).toMatchObject({
      calls: 2,
      totalTokens: 1840,
      costUsd: 0.0008,
    });
  });

  it(
    'is nothing for a verdict from the campaign cache (the ' +
      'attempt that asked first paid), and null when nothing judged',
    () => {
      expect(judgeUsageOf({ judgement: judgement(true, [member('judge-0', 0.002, 500)]) })).toMatchObject({
        calls: 0,
        costUsd: null,
        totalTokens: null,
      });
      expect(judgeUsageOf({ historyJudgeCalls: [] })).toMatchObject({ calls: 0 });
      expect(judgeUsageOf({})).toBeNull();
    },
  );

  it('keeps a cost no member reported unknown rather than zero', () => {
    expect(judgeUsageOf({ judgement: judgement(false, [member('judge-0', null, null)]) })).toMatchObject({
      calls: 1,
      costUsd: null,
      totalTokens: null,
    });
  });
});
