import { sumCallUsage, type UsageTotals } from '@gitbench/core';
import type { CompletionResult, LlmJudgement } from '@gitbench/providers';

const NO_TOKENS = { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null };

/**
 * What judging one attempt spent: the LLM judge's members that were asked for it (none when its verdict
 * came from the campaign's cache: the attempt that first asked paid) and the history judge's calls.
 * Null when nothing judged the attempt. Never part of the target model's usage, which ranks models;
 * this is the campaign's operational cost of judging.
 */
export function judgeUsageOf(run: {
  judgement?: LlmJudgement;
  historyJudgeCalls?: CompletionResult[];
}): UsageTotals | null {
  if (!run.judgement && !run.historyJudgeCalls) return null;
  const members = run.judgement && !run.judgement.cacheHit ? run.judgement.verdict.members : [];
  return sumCallUsage([
    ...members.map((m) => ({ usage: m.usage ?? NO_TOKENS, cost: m.cost, apiDurationMs: m.apiDurationMs ?? 0 })),
    ...(run.historyJudgeCalls ?? []),
  ]);
}
