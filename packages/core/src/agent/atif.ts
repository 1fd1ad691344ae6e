import type { TrajectoryStep, TrajectorySummary } from './trajectory';

/**
 * ATIF v1.4, the trajectory format of Harbor and Terminal-Bench (RFC 0001, "Agent Trajectory
 * Interchange Format"), so a GitBench trajectory opens in their tools. The shapes below are the
 * RFC's field names; optional fields are left out rather than written as null, as Harbor's own
 * writer does. What ATIF has no field for (timing apart, exit codes, the repository after each step)
 * goes under `extra.gitbench`, which ATIF reserves for producers.
 */
export const ATIF_SCHEMA_VERSION = 'ATIF-v1.4' as const;

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
}

export interface AtifObservationResult {
  source_call_id: string;
  content: string;
}

export interface AtifMetrics {
  prompt_tokens?: number;
  completion_tokens?: number;
  cost_usd?: number;
  extra?: Record<string, unknown>;
}

export interface AtifStep {
  /** 1-based and dense. */
  step_id: number;
  timestamp?: string;
  source: 'system' | 'user' | 'agent';
  model_name?: string;
  message: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifObservationResult[] };
  metrics?: AtifMetrics;
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_SCHEMA_VERSION;
  session_id: string;
  agent: { name: string; version: string; model_name: string; extra?: Record<string, unknown> };
  steps: AtifStep[];
  notes?: string;
  final_metrics: {
    total_prompt_tokens?: number;
    total_completion_tokens?: number;
    total_cost_usd?: number;
    total_steps: number;
    extra?: Record<string, unknown>;
  };
  extra?: Record<string, unknown>;
}

export interface AtifInput {
  /** The trajectory's id: ATIF's session_id. */
  sessionId: string;
  /** The producer's version (GitBench's), ATIF's agent.version. */
  version: string;
  agent: string;
  model: string;
  toolSet: string;
  /** Null while the loop runs: the export then holds the steps so far and no prompts. */
  summary: TrajectorySummary | null;
  steps: readonly TrajectoryStep[];
}

/** Drops keys whose value is null or undefined (ATIF's optional fields are absent, not null). */
function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}

function nonEmpty<T extends Record<string, unknown>>(o: T): T | undefined {
  return Object.keys(o).length ? o : undefined;
}

function toolArguments(parsed: unknown, raw: string): Record<string, unknown> {
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  // ATIF wants an object; refused or non-object arguments keep their raw text beside the call in extra.
  return parsed === null || parsed === undefined ? {} : { value: parsed, raw };
}

function agentStep(step: TrajectoryStep, stepId: number, model: string): AtifStep {
  const calls = step.toolCalls;
  const failedCalls = calls.filter((c) => c.parseError !== null);
  return defined({
    step_id: stepId,
    timestamp: step.startedAt,
    source: 'agent' as const,
    model_name: model,
    message: step.message.content ?? '',
    reasoning_content: step.message.reasoning ?? undefined,
    tool_calls: calls.length
      ? calls.map((c) => ({
          tool_call_id: c.id,
          function_name: c.name,
          arguments: toolArguments(c.arguments, c.rawArguments),
        }))
      : undefined,
    observation: step.results.length
      ? { results: step.results.map((r) => ({ source_call_id: r.callId, content: r.output })) }
      : undefined,
    metrics: defined({
      prompt_tokens: step.usage.inputTokens ?? undefined,
      completion_tokens: step.usage.outputTokens ?? undefined,
      cost_usd: step.usage.costUsd ?? undefined,
      extra: nonEmpty(
        defined({
          reasoning_tokens: step.usage.reasoningTokens ?? undefined,
          cost_estimated: step.usage.costEstimated || undefined,
        }),
      ),
    }),
    extra: {
      gitbench: defined({
        index: step.index,
        finished_at: step.finishedAt,
        model_ms: step.modelMs,
        tool_ms: step.toolMs,
        channel: step.channel,
        finish_reason: step.finishReason ?? undefined,
        retries: step.retries,
        format_strike: step.formatStrike,
        runtime_note: step.runtimeNote ?? undefined,
        refused_arguments: failedCalls.length
          ? failedCalls.map((c) => ({ tool_call_id: c.id, raw: c.rawArguments, error: c.parseError }))
          : undefined,
        results: step.results.map((r) => ({
          source_call_id: r.callId,
          is_error: r.isError,
          exit_code: r.exitCode,
          timed_out: r.timedOut,
          duration_ms: r.durationMs,
          output_bytes: r.outputBytes,
          truncated_bytes: r.truncatedBytes,
          // A third-party agent's own report of its tool's result, never seen run by GitBench.
          ...(r.agentReported ? { agent_reported: true } : {}),
          ...(r.sandboxError !== undefined ? { sandbox_error: r.sandboxError } : {}),
        })),
        repo: step.repo ?? undefined,
      }),
    },
  });
}

/** The sum of a count over steps, or undefined when any step did not report it (unknown, not zero). */
function total(values: (number | null)[]): number | undefined {
  if (values.length === 0 || values.some((v) => v === null)) return undefined;
  return values.reduce<number>((t, v) => t + (v ?? 0), 0);
}

export function toAtif(input: AtifInput): AtifTrajectory {
  const { summary } = input;
  const steps: AtifStep[] = [];
  if (summary) {
    if (summary.systemPrompt)
      steps.push({ step_id: steps.length + 1, source: 'system', message: summary.systemPrompt });
    steps.push({ step_id: steps.length + 1, source: 'user', message: summary.taskPrompt });
  }
  const firstAgentStep = steps.length + 1;
  for (const s of input.steps) steps.push(agentStep(s, steps.length + 1, input.model));
  // A finished loop's totals are the summary's (they count every call, retries included); a running one sums its steps.
  const usage = summary?.totals ?? {
    inputTokens: total(input.steps.map((s) => s.usage.inputTokens)) ?? null,
    outputTokens: total(input.steps.map((s) => s.usage.outputTokens)) ?? null,
    costUsd: total(input.steps.map((s) => s.usage.costUsd)) ?? null,
  };
  return defined({
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: input.sessionId,
    agent: {
      name: 'gitbench',
      version: input.version,
      model_name: input.model,
      extra: defined({ agent: input.agent, tool_set: input.toolSet, protocol: summary?.protocol }),
    },
    steps,
    final_metrics: defined({
      total_prompt_tokens: usage.inputTokens ?? undefined,
      total_completion_tokens: usage.outputTokens ?? undefined,
      total_cost_usd: usage.costUsd ?? undefined,
      total_steps: steps.length,
    }),
    extra: {
      gitbench: defined({
        status: summary ? 'finished' : 'running',
        first_agent_step_id: firstAgentStep,
        exit_status: summary?.exitStatus,
        exit_detail: summary?.exitDetail ?? undefined,
        exit_step_id:
          summary?.exitStep !== null && summary?.exitStep !== undefined ? firstAgentStep + summary.exitStep : undefined,
        submission: summary?.submission ?? undefined,
        wall_ms: summary?.totals.wallMs,
      }),
    },
  });
}
