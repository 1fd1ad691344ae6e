import {
  sumStepUsage,
  type AgentConfig,
  type StepUsage,
  type ToolCallResult,
  type ToolContext,
  type ToolSet,
  type TrajectoryStep,
} from '@gitbench/core';
import type { AgentChatResult, AgentMessage, AgentModel, AgentWireProtocol, RouteMetadata } from '@gitbench/providers';
import type { AgentExit } from './agent-exit';
import { agentSystemPrompt, continueMessage } from './agent-prompt';
import { executeCalls, NOT_RUN_SANDBOX, NOT_RUN_TIME, type ExecutedCalls } from './execute-calls';
import { parseTurn, type ParsedTurn } from './parse-turn';
import { queryModel } from './query-model';
import type { RepoStateReader } from './repo-state-reader';
import {
  completeStep,
  readStateAfter,
  recordStep,
  settlePendingStep,
  stepsSoFar,
  type PendingStep,
  type StepBody,
} from './step-state';

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
  /** The size of the sandbox's /tmp where the driver caps it: the system prompt says so. */
  tmpBytes?: number;
  /** Reads the repository after each step; without it steps record no repository state. */
  repoState?: RepoStateReader;
  /**
   * Called once per finished step, in order: the worker stores it (live). A step is finished once the
   * repository's state after it is in, which is read while the next model call runs: so possibly during
   * that call, and always before the next turn's tool calls run or runAgent returns.
   */
  onStep?: (step: TrajectoryStep, protocol: AgentWireProtocol) => void | Promise<void>;
  signal?: AbortSignal;
  /** Epoch milliseconds; tests fix it. */
  now?: () => number;
}

/** Consecutive turns without a usable tool call that end the loop. */
export const MAX_FORMAT_STRIKES = 3;

/** The agent loop's state between steps. */
export interface AgentLoop {
  input: RunAgentInput;
  now: () => number;
  deadline: number;
  protocol: AgentWireProtocol;
  systemPrompt: string;
  messages: AgentMessage[];
  steps: TrajectoryStep[];
  pending: PendingStep | null;
  closed: boolean;
  strikes: number;
  toolCallCount: number;
  route: RouteMetadata | null;
  submission: string | null;
  throwIfCancelled: () => void;
}

function stepUsage(r: AgentChatResult): StepUsage {
  const { inputTokens, outputTokens, reasoningTokens } = r.usage;
  const totalTokens =
    r.usage.totalTokens ?? (inputTokens !== null && outputTokens !== null ? inputTokens + outputTokens : null);
  return {
    inputTokens,
    outputTokens,
    reasoningTokens,
    totalTokens,
    costUsd: r.cost.usd,
    costEstimated: r.cost.source === 'estimated',
  };
}

/**
 * One step, as mini-swe-agent's step: query the model, parse its calls, execute them, record the
 * step. The repository's state after the previous step is read during the model query, and the calls
 * run once that step is recorded; this step's own read starts at the end (readStateAfter). Returns how
 * the loop ends, or null to take another step.
 */
export async function takeStep(loop: AgentLoop): Promise<AgentExit | null> {
  const { input, now } = loop;
  const limits = input.config.limits;
  loop.throwIfCancelled();
  const index = stepsSoFar(loop).length;
  if (index >= limits.maxTurns) return { status: 'turn_limit', detail: `${limits.maxTurns} turn(s)` };
  if (now() >= loop.deadline) return { status: 'time_limit', detail: `${limits.maxWallMs} ms` };
  const stepStarted = now();
  const queried = await queryModel({
    model: input.model,
    modelName: input.modelName,
    toolSet: input.toolSet,
    messages: loop.messages,
    protocol: loop.protocol,
    configured: input.config.protocol,
    deadline: loop.deadline,
    now,
    maxWallMs: limits.maxWallMs,
    signal: input.signal,
    throwIfCancelled: loop.throwIfCancelled,
  });
  if ('exit' in queried) return queried.exit;
  if ('switchToText' in queried) {
    loop.protocol = 'text';
    loop.systemPrompt = agentSystemPrompt(
      input.toolSet,
      'text',
      input.repoLabel ?? input.ctx.repoDir,
      limits,
      input.tmpBytes,
    );
    loop.messages[0] = { role: 'system', content: loop.systemPrompt };
    return null;
  }
  const { reply } = queried;
  loop.route = reply.route;
  const modelMs = Math.max(0, now() - stepStarted);
  const turn = parseTurn(reply, loop.protocol, index);
  const broken = await settlePendingStep(loop);
  const executed = await executeCalls(
    {
      toolSet: input.toolSet,
      ctx: input.ctx,
      limits,
      deadline: loop.deadline,
      now,
      throwIfCancelled: loop.throwIfCancelled,
    },
    turn.calls,
    reply.finishReason,
    broken ? { exit: broken, why: NOT_RUN_SANDBOX } : null,
  );
  loop.toolCallCount += executed.toolCalls.length;
  if (executed.submission !== null) loop.submission = executed.submission;
  let exit = executed.exit;
  const strike = judgeFormat(loop, reply, turn, executed);
  exit ??= strike.exit ?? null;
  appendTurn(loop.messages, reply, turn, executed.results, strike.runtimeNote);

  const body: StepBody = {
    index,
    startedAt: new Date(stepStarted).toISOString(),
    modelMs,
    toolMs: executed.toolMs,
    channel: turn.channel,
    message: { content: reply.content, reasoning: reply.reasoning },
    toolCalls: executed.toolCalls,
    results: executed.results,
    usage: stepUsage(reply),
    finishReason: reply.finishReason,
    retries: reply.retries.length,
    formatStrike: strike.formatStrike,
    runtimeNote: strike.runtimeNote,
  };
  if (input.repoState && exit?.status !== 'sandbox_error' && exit?.status !== 'tampering')
    readStateAfter(loop, body, input.repoState);
  else await recordStep(loop, completeStep(body, now(), null));
  return exit ?? limitReached(loop, executed.stopCalls === NOT_RUN_TIME);
}

/**
 * A turn in which no call ran: a native turn with neither text nor a call ends the loop; a turn with
 * no usable call is a format strike, and the model is told how to answer. Three in a row end the loop.
 */
function judgeFormat(loop: AgentLoop, reply: AgentChatResult, turn: ParsedTurn, executed: ExecutedCalls) {
  if (executed.ran > 0 || executed.exit) {
    loop.strikes = 0;
    return { formatStrike: false, runtimeNote: null };
  }
  if (turn.calls.length === 0 && (reply.content ?? '').trim() === '' && loop.protocol === 'native') {
    const detail =
      `the model answered with neither text ` + `nor a tool call (finish reason ${reply.finishReason ?? 'none'})`;
    return { formatStrike: false, runtimeNote: null, exit: { status: 'model_stopped', detail } satisfies AgentExit };
  }
  const formatStrike = turn.calls.length === 0;
  loop.strikes = formatStrike ? loop.strikes + 1 : 0;
  const runtimeNote = formatStrike ? continueMessage(loop.protocol, turn.strikeWhy ?? 'no tool call') : null;
  if (loop.strikes < MAX_FORMAT_STRIKES) return { formatStrike, runtimeNote };
  return {
    formatStrike,
    runtimeNote,
    exit: {
      status: 'format_errors',
      detail: `${loop.strikes} turns in a row without a usable tool call`,
    } satisfies AgentExit,
  };
}

/** The conversation goes on with this turn and every call's answer (one answer under the text protocol). */
function appendTurn(
  messages: AgentMessage[],
  reply: AgentChatResult,
  turn: ParsedTurn,
  results: ToolCallResult[],
  runtimeNote: string | null,
) {
  const { channel, calls } = turn;
  messages.push({
    role: 'assistant',
    content: reply.content,
    reasoning: reply.reasoning,
    ...(channel !== 'text' && calls.length > 0 ? { toolCalls: calls } : {}),
  });
  if (channel === 'text' && calls.length > 0)
    messages.push({ role: 'tool', callId: calls[0]!.id, name: calls[0]!.name, content: results[0]!.output });
  else for (const r of results) messages.push({ role: 'tool', callId: r.callId, name: r.name, content: r.output });
  if (runtimeNote) messages.push({ role: 'user', content: runtimeNote });
}

/** The budget limits, checked after every step that did not end the loop otherwise. */
function limitReached(loop: AgentLoop, timeStoppedCalls: boolean): AgentExit | null {
  const limits = loop.input.config.limits;
  const steps = stepsSoFar(loop);
  const totals = sumStepUsage(steps);
  const tokens = totals.totalTokens ?? steps.reduce((t, s) => t + (s.usage.totalTokens ?? 0), 0);
  const cost = steps.reduce((t, s) => t + (s.usage.costUsd ?? 0), 0);
  if (tokens >= limits.maxTokens) return { status: 'token_limit', detail: `${tokens} of ${limits.maxTokens} tokens` };
  if (limits.maxCostUsd !== null && cost >= limits.maxCostUsd)
    return { status: 'cost_limit', detail: `$${cost.toFixed(4)} of $${limits.maxCostUsd}` };
  if (timeStoppedCalls || loop.now() >= loop.deadline)
    return { status: 'time_limit', detail: `${limits.maxWallMs} ms` };
  return null;
}
