import {
  capHeadTail,
  ConfigurationError,
  findTool,
  parseTextProtocol,
  sumStepUsage,
  ToolRefusal,
  TRAJECTORY_VERSION,
  type AgentConfig,
  type AgentExitStatus,
  type StepUsage,
  type Tool,
  type ToolCallRecord,
  type ToolCallResult,
  type ToolCallChannel,
  type ToolContext,
  type ToolSet,
  type TrajectoryStep,
  type TrajectorySummary,
} from '@gitbench/core';
import { TOOLS_UNSUPPORTED, type AgentChatResult, type AgentMessage, type AgentModel, type AgentToolCall, type AgentWireProtocol, type RouteMetadata } from '@gitbench/providers';
import { agentSystemPrompt, continueMessage } from './agent-prompt';
import { parseLeakedToolCalls } from './parse-calls';
import type { RepoStateReader } from './repo-state-reader';

export interface RunAgentInput {
  model: AgentModel;
  /** The model id put in every request (effort included). */
  modelName: string;
  /** What the trajectory names as the agent: the model id, or a built-in (`oracle`, `simulated:3`). */
  agent: string;
  toolSet: ToolSet;
  config: AgentConfig;
  taskPrompt: string;
  ctx: ToolContext;
  /** Shown to the model as where the repository is. */
  repoLabel?: string;
  /** Reads the repository after each step; without it steps record no repository state. */
  repoState?: RepoStateReader;
  /** Called once per finished step, in order, before the next model call: the worker stores it (live). */
  onStep?: (step: TrajectoryStep, protocol: AgentWireProtocol) => void | Promise<void>;
  signal?: AbortSignal;
  /** Epoch milliseconds; tests fix it. */
  now?: () => number;
}

export interface AgentRunResult {
  summary: TrajectorySummary;
  steps: TrajectoryStep[];
  /** What failed for model_error and sandbox_error (the attempt's failure class is read from it). */
  error: unknown;
  /** How the last model turn was routed (provider, served model), null when no turn answered. */
  route: RouteMetadata | null;
}

/** Consecutive turns without a usable tool call that end the loop. */
export const MAX_FORMAT_STRIKES = 3;

class SandboxBroke extends Error {
  override name = 'SandboxBroke';
}

const NOT_RUN_SUBMITTED = 'Not run: the task was already submitted in this turn.';
const NOT_RUN_TIME = 'Not run: the time limit was reached.';

function stepUsage(r: AgentChatResult): StepUsage {
  const { inputTokens, outputTokens, reasoningTokens } = r.usage;
  const totalTokens = r.usage.totalTokens ?? (inputTokens !== null && outputTokens !== null ? inputTokens + outputTokens : null);
  return { inputTokens, outputTokens, reasoningTokens, totalTokens, costUsd: r.cost.usd, costEstimated: r.cost.source === 'estimated' };
}

function describeIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
}

/** The arguments of one call, validated against its tool, or why not (sent back to the model, never `{}`). */
export function validateCall(toolSet: ToolSet, call: AgentToolCall, finishReason: string | null): { tool: Tool; args: unknown } | { error: string } {
  const tool = findTool(toolSet, call.name);
  if (!tool) return { error: `unknown tool '${call.name}'; the tools are ${toolSet.tools.map((t) => t.name).join(', ')}` };
  const cut = finishReason === 'length' ? ' (your reply was cut at the output token limit)' : '';
  let parsed: unknown;
  if (call.arguments.trim() === '') return { error: `no arguments given for ${tool.name}; send a JSON object${cut}` };
  try {
    parsed = JSON.parse(call.arguments);
  } catch (e) {
    return { error: `the arguments of ${tool.name} are not valid JSON: ${(e as Error).message}${cut}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: `the arguments of ${tool.name} must be a JSON object` };
  const checked = tool.args.safeParse(parsed);
  if (!checked.success) return { error: `invalid arguments for ${tool.name}: ${describeIssues(checked.error)}` };
  return { tool, args: checked.data };
}

/**
 * The agent loop: a model turn, then its tool calls validated and run one at a time in the attempt's
 * sandbox, every call id answered, the step recorded with the repository's state; until submit, a
 * limit, three format strikes in a row, or a failure of the model's endpoint or the sandbox. Limits
 * end the loop normally (the caller scores the repository anyway). A cancellation (the signal) throws.
 */
export async function runAgent(input: RunAgentInput): Promise<AgentRunResult> {
  const now = input.now ?? Date.now;
  const { config, toolSet, ctx } = input;
  const limits = config.limits;
  const started = now();
  const deadline = started + limits.maxWallMs;
  let protocol: AgentWireProtocol = config.protocol === 'text' ? 'text' : 'native';
  const repoLabel = input.repoLabel ?? ctx.repoDir;
  let systemPrompt = agentSystemPrompt(toolSet, protocol, repoLabel);
  const messages: AgentMessage[] = [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: input.taskPrompt },
  ];
  const steps: TrajectoryStep[] = [];
  let exit: { status: AgentExitStatus; detail: string | null; error?: unknown } | null = null;
  let submission: string | null = null;
  let strikes = 0;
  let toolCallCount = 0;
  let route: RouteMetadata | null = null;
  const throwIfCancelled = () => {
    if (input.signal?.aborted) throw input.signal.reason ?? new Error('cancelled');
  };

  // The baseline the first step's diff and refs are compared with.
  if (input.repoState) {
    try {
      await input.repoState.read();
    } catch (error) {
      throwIfCancelled();
      exit = { status: 'sandbox_error', detail: `the repository could not be read before the first turn: ${(error as Error).message}`, error };
    }
  }

  while (!exit) {
    throwIfCancelled();
    if (steps.length >= limits.maxTurns) {
      exit = { status: 'turn_limit', detail: `${limits.maxTurns} turn(s)` };
      break;
    }
    if (now() >= deadline) {
      exit = { status: 'time_limit', detail: `${limits.maxWallMs} ms` };
      break;
    }
    const stepStarted = now();
    const wall = new AbortController();
    const timer = setTimeout(() => wall.abort(new Error('time limit')), Math.max(0, deadline - now()));
    const signal = input.signal ? AbortSignal.any([input.signal, wall.signal]) : wall.signal;
    let reply: AgentChatResult;
    try {
      reply = await input.model.chat({
        model: input.modelName,
        messages,
        tools: protocol === 'native' ? toolSet.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) : [],
        protocol,
        signal,
      });
    } catch (error) {
      throwIfCancelled();
      if (wall.signal.aborted) {
        exit = { status: 'time_limit', detail: `${limits.maxWallMs} ms (during a model call)` };
        break;
      }
      if (error instanceof ConfigurationError && error.code === TOOLS_UNSUPPORTED && config.protocol === 'auto' && protocol === 'native') {
        // The endpoint refuses tools: the same turn again under the text protocol.
        protocol = 'text';
        systemPrompt = agentSystemPrompt(toolSet, protocol, repoLabel);
        messages[0] = { role: 'system', content: systemPrompt };
        continue;
      }
      exit = { status: 'model_error', detail: (error as Error)?.message ?? String(error), error };
      break;
    } finally {
      clearTimeout(timer);
    }
    route = reply.route;
    const modelEnded = now();
    const modelMs = Math.max(0, modelEnded - stepStarted);
    const content = reply.content;

    // Which calls this turn makes, and through which channel.
    let channel: ToolCallChannel = 'native';
    let calls: AgentToolCall[] = reply.toolCalls;
    let strikeWhy: string | null = null;
    if (calls.length === 0 && content && content.includes('<tool_call>')) {
      calls = parseLeakedToolCalls(content, `leaked_${steps.length}`);
      channel = 'leaked';
    }
    if (calls.length === 0 && protocol === 'text' && content) {
      const parsed = parseTextProtocol(content);
      channel = 'text';
      if (parsed.ok) {
        const id = `text_${steps.length}_0`;
        const name = parsed.kind === 'bash' ? 'bash' : 'submit';
        calls = [{ id, name, arguments: JSON.stringify(parsed.kind === 'bash' ? { command: parsed.command } : { answer: parsed.answer }) }];
      } else strikeWhy = parsed.error;
    }
    if (calls.length === 0 && protocol === 'text') channel = 'text';

    const toolCalls: ToolCallRecord[] = [];
    const results: ToolCallResult[] = [];
    let toolMs = 0;
    let ran = 0;
    let stopCalls: string | null = null;
    for (const call of calls) {
      const record: ToolCallRecord = { id: call.id, name: call.name, rawArguments: call.arguments, arguments: null, parseError: null };
      toolCalls.push(record);
      const answer = (output: string, isError: boolean, extra: Partial<ToolCallResult> = {}): void => {
        const capped = capHeadTail(output, limits.maxToolOutputBytes);
        results.push({ callId: call.id, name: call.name, isError, exitCode: null, timedOut: false, durationMs: 0, output: capped.text, outputBytes: capped.bytes, truncatedBytes: capped.truncatedBytes, ...extra });
      };
      if (stopCalls) {
        answer(stopCalls, true);
        continue;
      }
      if (now() >= deadline) {
        stopCalls = NOT_RUN_TIME;
        answer(stopCalls, true);
        continue;
      }
      const checked = validateCall(toolSet, call, reply.finishReason);
      if ('error' in checked) {
        record.parseError = checked.error;
        answer(`Error: ${checked.error}`, true);
        continue;
      }
      record.arguments = checked.args;
      const t0 = now();
      let res;
      try {
        res = await checked.tool.run(checked.args, ctx);
      } catch (error) {
        throwIfCancelled();
        if (error instanceof ToolRefusal) {
          // The call asked for something the sandbox refuses (a file too large to read): the model is told.
          answer(`Error: ${error.message}`, true, { durationMs: Math.max(0, now() - t0) });
          continue;
        }
        const detail = `the sandbox failed while ${call.name} ran: ${(error as Error).message}`;
        answer(`Error: ${detail}`, true, { durationMs: Math.max(0, now() - t0) });
        exit = { status: 'sandbox_error', detail, error: new SandboxBroke(detail, { cause: error }) };
        stopCalls = 'Not run: the sandbox failed.';
        continue;
      }
      const durationMs = Math.max(0, now() - t0);
      toolMs += durationMs;
      ran++;
      const capped = capHeadTail(res.output, limits.maxToolOutputBytes);
      const fullBytes = res.outputBytes ?? capped.bytes;
      results.push({
        callId: call.id,
        name: call.name,
        isError: res.isError,
        exitCode: res.exitCode ?? null,
        timedOut: res.timedOut ?? false,
        durationMs,
        output: capped.text,
        outputBytes: fullBytes,
        // What the sandbox already left out of the streams, plus what the cap cut here.
        truncatedBytes: capped.truncatedBytes + Math.max(0, fullBytes - capped.bytes),
      });
      if (res.submission) {
        submission = res.submission.answer;
        exit = { status: 'submitted', detail: null };
        stopCalls = NOT_RUN_SUBMITTED;
      }
    }
    toolCallCount += toolCalls.length;

    let formatStrike = false;
    let runtimeNote: string | null = null;
    if (ran === 0 && !exit) {
      if (calls.length === 0 && (content ?? '').trim() === '' && protocol === 'native') {
        exit = { status: 'model_stopped', detail: `the model answered with neither text nor a tool call (finish reason ${reply.finishReason ?? 'none'})` };
      } else {
        formatStrike = calls.length === 0;
        strikes = formatStrike ? strikes + 1 : 0;
        if (formatStrike) runtimeNote = continueMessage(protocol, strikeWhy ?? 'no tool call');
        if (strikes >= MAX_FORMAT_STRIKES) exit = { status: 'format_errors', detail: `${strikes} turns in a row without a usable tool call` };
      }
    } else strikes = 0;

    // The conversation goes on with this turn and every call's answer.
    messages.push({ role: 'assistant', content, reasoning: reply.reasoning, ...(channel !== 'text' && calls.length > 0 ? { toolCalls: calls } : {}) });
    if (channel === 'text' && calls.length > 0) {
      messages.push({ role: 'tool', callId: calls[0]!.id, name: calls[0]!.name, content: results[0]!.output });
    } else {
      for (const r of results) messages.push({ role: 'tool', callId: r.callId, name: r.name, content: r.output });
    }
    if (runtimeNote) messages.push({ role: 'user', content: runtimeNote });

    let repo: TrajectoryStep['repo'] = null;
    if (input.repoState && exit?.status !== 'sandbox_error') {
      try {
        repo = await input.repoState.read();
      } catch (error) {
        throwIfCancelled();
        exit = { status: 'sandbox_error', detail: `the repository could not be read after the step: ${(error as Error).message}`, error };
      }
    }
    const step: TrajectoryStep = {
      index: steps.length,
      startedAt: new Date(stepStarted).toISOString(),
      finishedAt: new Date(Math.max(now(), stepStarted)).toISOString(),
      modelMs,
      toolMs,
      channel,
      message: { content, reasoning: reply.reasoning },
      toolCalls,
      results,
      usage: stepUsage(reply),
      finishReason: reply.finishReason,
      retries: reply.retries.length,
      formatStrike,
      runtimeNote,
      repo,
    };
    steps.push(step);
    await input.onStep?.(step, protocol);

    if (!exit) {
      const totals = sumStepUsage(steps);
      const tokens = totals.totalTokens ?? steps.reduce((t, s) => t + (s.usage.totalTokens ?? 0), 0);
      const cost = steps.reduce((t, s) => t + (s.usage.costUsd ?? 0), 0);
      if (tokens >= limits.maxTokens) exit = { status: 'token_limit', detail: `${tokens} of ${limits.maxTokens} tokens` };
      else if (limits.maxCostUsd !== null && cost >= limits.maxCostUsd) exit = { status: 'cost_limit', detail: `$${cost.toFixed(4)} of $${limits.maxCostUsd}` };
      else if (stopCalls === NOT_RUN_TIME || now() >= deadline) exit = { status: 'time_limit', detail: `${limits.maxWallMs} ms` };
    }
  }

  const totals = sumStepUsage(steps);
  const summary: TrajectorySummary = {
    version: TRAJECTORY_VERSION,
    agent: input.agent,
    model: input.modelName,
    toolSet: toolSet.name,
    protocol,
    exitStatus: exit.status,
    exitDetail: exit.detail,
    exitStep: steps.length > 0 ? steps.length - 1 : null,
    submission,
    steps: steps.length,
    totals: {
      ...totals,
      modelMs: steps.reduce((t, s) => t + s.modelMs, 0),
      toolMs: steps.reduce((t, s) => t + s.toolMs, 0),
      wallMs: Math.max(0, now() - started),
      toolCalls: toolCallCount,
    },
    systemPrompt,
    taskPrompt: input.taskPrompt,
  };
  return { summary, steps, error: exit.error ?? null, route };
}
