import type { RetryRecord, TokenUsage } from '@gitbench/core';
import type { LlmJudgement, RouteMetadata } from '@gitbench/providers';
import type { AgentAttemptRecord } from './agent/agent-attempt-input';
import type { AttemptResult } from './attempt-result';
import type { AnswerMode, ProductVersion } from './core-api';
import type { ModelResponse } from './model-client';
import { isScoredEntry, whyNotScored, type SuiteRunEntry } from './run-suite';

export interface EnvelopeMeta {
  model: string;
  outputMode: AnswerMode;
  timestamp: string;
  suiteVersion: string;
  /** The GitBench that ran: upstream's `git_sha` holds its commit, our section says if its tree was modified. */
  product: ProductVersion;
  profile: string;
  reasoningLevel: string | null;
}

/** Why a failed attempt failed, in one line: the first check that did not hold. */
function errorLine(a: AttemptResult): string | null {
  if (a.passed) return null;
  if (a.error) return a.error;
  const failing = a.checks.find((c) => !c.ok);
  return failing ? `${failing.check}: ${failing.detail}` : 'failed';
}

/** Upstream's per-call telemetry: how many tries, how long they waited, and why they retried. */
function telemetry(retries: readonly RetryRecord[]): Record<string, unknown> {
  const reasons: Record<string, number> = {};
  for (const r of retries) reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
  return {
    attempts: retries.length + 1,
    local_retry_wait_ms: retries.reduce((t, r) => t + r.waitMs, 0),
    capacity_cooldown_wait_ms: 0,
    retry_reasons: reasons,
  };
}

function routeMetadata(route: RouteMetadata): Record<string, unknown> {
  return {
    adapter: route.provider,
    model_id: route.servedModel ?? route.requestedModel,
    base_url: route.baseUrl,
    profile: route.profile,
    upstream_provider: route.upstreamProvider,
    response_id: route.responseId,
    simulated: route.simulated,
  };
}

const usageFields = (u: TokenUsage | null) => ({
  input_tokens: u?.inputTokens ?? null,
  output_tokens: u?.outputTokens ?? null,
  total_tokens: u?.totalTokens ?? null,
  reasoning_tokens: u?.reasoningTokens ?? null,
});

function judgeSummary(j: LlmJudgement): Record<string, unknown> {
  const v = j.verdict;
  return {
    status: v.status,
    score: v.status === 'scored' ? v.score : null,
    passed: v.status === 'scored' ? v.passed : null,
    threshold: v.threshold,
    cache_hit: j.cacheHit,
    config_hash: j.judgeConfigHash,
    members: v.members.map((m) => ({
      model: m.model,
      status: m.status,
      score: m.score,
      ...usageFields(m.usage),
      cost_usd: m.cost.usd,
      api_duration_ms: m.apiDurationMs,
      error: m.error?.message ?? null,
    })),
  };
}

type Scored = SuiteRunEntry & { attempt: AttemptResult; response: ModelResponse };

function isScored(e: SuiteRunEntry): e is Scored {
  return e.response !== null && isScoredEntry(e);
}

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
function callTotals(entries: readonly SuiteRunEntry[]): {
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

/**
 * An agent's conversation as it happened, in the chat shape upstream's transcripts use: the system and
 * user prompts actually sent, then every step's message with its tool calls, each call's output
 * (with its exit code) and whatever the runtime said besides.
 */
export function agentTranscript(record: AgentAttemptRecord): Record<string, unknown>[] {
  const s = record.summary;
  const messages: Record<string, unknown>[] = [
    ...(s.systemPrompt ? [{ role: 'system', content: s.systemPrompt }] : []),
    { role: 'user', content: s.taskPrompt },
  ];
  for (const step of record.steps) {
    messages.push({
      role: 'assistant',
      content: step.message.content ?? '',
      ...(step.message.reasoning ? { reasoning: step.message.reasoning } : {}),
      ...(step.toolCalls.length
        ? { tool_calls: step.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.rawArguments })) }
        : {}),
    });
    for (const r of step.results) {
      // A third-party agent's result is its own report (never seen run): the result file says so.
      messages.push({
        role: 'tool',
        tool_call_id: r.callId,
        name: r.name,
        content: r.output,
        exit_code: r.exitCode,
        is_error: r.isError,
        truncated_bytes: r.truncatedBytes,
        ...(r.agentReported ? { agent_reported: true } : {}),
      });
    }
    if (step.runtimeNote) messages.push({ role: 'user', content: step.runtimeNote });
  }
  return messages;
}

/** What an agent attempt did, beside upstream's fields: the loop's ending, its size and its prompts' tool set. */
function agentSection(record: AgentAttemptRecord): Record<string, unknown> {
  const s = record.summary;
  return {
    tool_set: s.toolSet,
    protocol: s.protocol,
    exit_status: s.exitStatus,
    exit_detail: s.exitDetail,
    steps: s.steps,
    tool_calls: s.totals.toolCalls,
    scored_on: record.scoredOn,
    model_ms: s.totals.modelMs,
    tool_ms: s.totals.toolMs,
    wall_ms: s.totals.wallMs,
  };
}

function scoreOf(
  meta: EnvelopeMeta,
  { fixture, attempt, response, judgement, durationMs, run }: Scored,
): Record<string, unknown> {
  const agent = run?.agent;
  return {
    fixture_id: fixture.id,
    passed: attempt.passed,
    similarity: attempt.score,
    // An agent's output is what it submitted, whatever the scorer read (the files it left, say).
    model_output: agent ? (agent.summary.submission ?? '') : attempt.scoredText || attempt.output,
    ...(meta.outputMode === 'json_schema' ? { raw_structured_output: attempt.output } : {}),
    error: errorLine(attempt),
    ...usageFields(response.usage),
    cost_usd: response.cost.usd,
    api_duration_ms: response.apiDurationMs,
    reasoning_level: meta.reasoningLevel,
    transcript: agent
      ? agentTranscript(agent)
      : [
          { role: 'user', content: attempt.prompt },
          {
            role: 'assistant',
            content: attempt.output,
            ...(response.reasoning ? { reasoning: response.reasoning } : {}),
          },
        ],
    purpose: fixture.purpose ?? '',
    difficulty: fixture.difficulty,
    tags: fixture.tags,
    // The task as this attempt was given it: an agent gets the fixture's agent prompt, when it has one.
    prompt: agent ? (fixture.agent?.prompt ?? fixture.prompt) : fixture.prompt,
    expected: fixture.expected,
    description: fixture.description,
    duration_ms: Math.round(durationMs * 100) / 100,
    request_telemetry: telemetry(response.retries),
    provider_route_metadata: routeMetadata(response.route),
    request_config: { output_mode: meta.outputMode, ...response.requestConfig },
    output_mode: meta.outputMode,
    gitbench: {
      outcome: attempt.outcome,
      hashes: attempt.hashes,
      checks: attempt.checks,
      sandbox: summarizeSandbox(attempt),
      cost: response.cost,
      flags: response.flags,
      ...(judgement ? { judge: judgeSummary(judgement) } : {}),
      ...(agent ? { agent: agentSection(agent) } : {}),
    },
  };
}

/**
 * A run in the upstream GitBench result-file format (schema_version 1), so upstream's tools and our
 * legacy importer read it. Only quality outcomes become scores: unscored judge fixtures and
 * infrastructure failures are listed under `gitbench.excluded` with their reason, so that nothing
 * reading the file mistakes them for failures. Our own fields ride along under `gitbench`.
 */
export function toUpstreamEnvelope(meta: EnvelopeMeta, entries: readonly SuiteRunEntry[]): Record<string, unknown> {
  const scored = entries.filter(isScored);
  const domains = [...new Set(scored.map((e) => e.fixture.domain))].sort();
  const results = domains.map((domain) => {
    const mine = scored
      .filter((e) => e.fixture.domain === domain)
      .sort((a, b) => (a.fixture.id < b.fixture.id ? -1 : 1));
    const scores = mine.map((e) => scoreOf(meta, e));
    const passed = mine.filter((e) => e.attempt.passed).length;
    return {
      benchmark: domain,
      total: scores.length,
      passed,
      errors: scores.filter((s) => s.error !== null).length,
      pass_at_k: scores.length ? Math.round((passed / scores.length) * 10000) / 10000 : 0,
      total_duration_ms: Math.round(mine.reduce((t, e) => t + e.durationMs, 0) * 100) / 100,
      scores,
    };
  });
  const totalPassed = results.reduce((t, r) => t + r.passed, 0);
  const totalFixtures = results.reduce((t, r) => t + r.total, 0);
  const excluded = entries
    .filter((e) => !isScored(e))
    .map((e) => ({
      benchmark: e.fixture.domain,
      fixture_id: e.fixture.id,
      outcome: e.attempt?.outcome ?? 'NOT_RUN',
      reason: whyNotScored(e),
    }));
  return {
    version: 1,
    schema_version: 1,
    benchmark_suite_version: meta.suiteVersion,
    timestamp: meta.timestamp,
    git_sha: meta.product.version,
    model: meta.model,
    profile: meta.profile,
    output_mode: meta.outputMode,
    results,
    summary: {
      total_benchmarks: results.length,
      total_fixtures: totalFixtures,
      total_passed: totalPassed,
      overall_pass_at_k: totalFixtures ? Math.round((totalPassed / totalFixtures) * 10000) / 10000 : 0,
    },
    gitbench: { excluded, ...callTotals(entries), product_dirty: meta.product.dirty },
  };
}

/** The evidence without the bulk: enough to see what ran where. */
function summarizeSandbox(a: AttemptResult): Record<string, unknown> {
  if (a.sandbox.kind === 'none') return { kind: 'none', reason: a.sandbox.reason };
  return {
    kind: a.sandbox.kind,
    image: a.sandbox.image,
    imageId: a.sandbox.imageId,
    isolated: a.sandbox.isolated,
    durationMs: a.sandbox.durationMs,
    answer: a.sandbox.evidence.answer.map((r) => ({ command: r.command, exitCode: r.exitCode, timedOut: r.timedOut })),
    ...(a.sandbox.aborted ? { aborted: a.sandbox.aborted } : {}),
  };
}
