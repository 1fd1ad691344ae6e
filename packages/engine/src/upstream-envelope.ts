import type { RetryRecord } from '@gitbench/core';
import type { LlmJudgement, RouteMetadata } from '@gitbench/providers';
import type { AttemptResult } from './attempt-result';
import type { AnswerMode, ProductVersion } from './core-api';
import { agentSection, agentTranscript } from './upstream-envelope-agent';
import { callTotals, usageFields } from './upstream-envelope-usage';
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
    // The prompt as sent (rendered once, by the attempt: its limits, its context, an agent's task text), never the
    // fixture's template, whose placeholders no model saw.
    prompt: attempt.prompt,
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
