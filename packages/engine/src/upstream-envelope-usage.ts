/** Tokens, cost and API time in upstream's field names: per call, and summed over a run. */
import type { TokenUsage } from '@gitbench/core';
import type { SuiteRunEntry } from './run-suite';

export const usageFields = (u: TokenUsage | null) => ({
  input_tokens: u?.inputTokens ?? null,
  output_tokens: u?.outputTokens ?? null,
  total_tokens: u?.totalTokens ?? null,
  reasoning_tokens: u?.reasoningTokens ?? null,
});

/** Tokens, cost and API time summed over calls; a count or price some call did not report is counted apart. */
function usageTotals() {
  const t = {
    calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    calls_with_tokens: 0,
    cost_usd: 0,
    calls_with_cost: 0,
    api_duration_ms: 0,
  };
  /**
   * `calls` > 1: an agent attempt's calls, summed already (its totals are known only when every call reported them).
   */
  const add = (usage: TokenUsage | null, usd: number | null, ms: number | null, calls = 1) => {
    t.calls += calls;
    if (usage?.totalTokens != null || usage?.inputTokens != null) t.calls_with_tokens += calls;
    t.input_tokens += usage?.inputTokens ?? 0;
    t.output_tokens += usage?.outputTokens ?? 0;
    t.total_tokens += usage?.totalTokens ?? 0;
    if (usd !== null) {
      t.cost_usd += usd;
      t.calls_with_cost += calls;
    }
    t.api_duration_ms += ms ?? 0;
  };
  const result = () => ({
    ...t,
    cost_usd: t.calls_with_cost > 0 ? Math.round(t.cost_usd * 1e8) / 1e8 : null,
    api_duration_ms: Math.round(t.api_duration_ms * 100) / 100,
  });
  return { add, result };
}

/**
 * Tokens, cost and API time of every call the run made, the target model's apart from the judges'
 * (as the worker stores them): an agent attempt counts each of its model calls, not one per attempt.
 */
export function callTotals(entries: readonly SuiteRunEntry[]): {
  usage: Record<string, unknown>;
  judge_usage: Record<string, unknown>;
} {
  const model = usageTotals();
  const judges = usageTotals();
  for (const e of entries) {
    if (e.run?.agent)
      model.add(
        e.response?.usage ?? null,
        e.response?.cost.usd ?? null,
        e.response?.apiDurationMs ?? null,
        e.run.usage.calls,
      );
    else if (e.response) model.add(e.response.usage, e.response.cost.usd, e.response.apiDurationMs);
    for (const m of e.judgement && !e.judgement.cacheHit ? e.judgement.verdict.members : [])
      judges.add(m.usage, m.cost.usd, m.apiDurationMs);
    // GitGoodBench's history judge: only calls actually made (a cached verdict has none).
    for (const c of e.run?.historyJudgeCalls ?? []) judges.add(c.usage, c.cost.usd, c.apiDurationMs);
  }
  return { usage: model.result(), judge_usage: judges.result() };
}
