import { sumStepUsage, TRAJECTORY_VERSION, type TrajectoryStep, type TrajectorySummary } from '@gitbench/core';
import type { AgentMessage, AgentWireProtocol, RouteMetadata } from '@gitbench/providers';
import { sandboxExit, type AgentExit } from './agent-exit';
import { agentSystemPrompt } from './agent-prompt';
import { takeStep, type AgentLoop, type RunAgentInput } from './agent-step';
import { settlePendingStep } from './step-state';

export { validateCall } from './execute-calls';
export { MAX_FORMAT_STRIKES, type RunAgentInput } from './agent-step';

export interface AgentRunResult {
  summary: TrajectorySummary;
  steps: TrajectoryStep[];
  /** What failed for model_error, sandbox_error and tampering (the attempt's failure class is read from it). */
  error: unknown;
  /** How the last model turn was routed (provider, served model), null when no turn answered. */
  route: RouteMetadata | null;
}

/**
 * The agent loop: steps (a model turn, then its tool calls validated and run one at a time in the
 * attempt's sandbox, every call id answered, the step recorded with the repository's state) until
 * submit, a limit, three format strikes in a row, or a failure of the model's endpoint or the
 * sandbox. Limits end the loop normally (the caller scores the repository anyway). A cancellation
 * (the signal) throws.
 */
export async function runAgent(input: RunAgentInput): Promise<AgentRunResult> {
  const now = input.now ?? Date.now;
  const started = now();
  const protocol: AgentWireProtocol = input.config.protocol === 'text' ? 'text' : 'native';
  const systemPrompt = agentSystemPrompt(
    input.toolSet,
    protocol,
    input.repoLabel ?? input.ctx.repoDir,
    input.config.limits,
    input.tmpBytes,
  );
  const messages: AgentMessage[] = [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: input.taskPrompt },
  ];
  const loop: AgentLoop = {
    input,
    now,
    deadline: started + input.config.limits.maxWallMs,
    protocol,
    systemPrompt,
    messages,
    steps: [],
    pending: null,
    closed: false,
    strikes: 0,
    toolCallCount: 0,
    route: null,
    submission: null,
    throwIfCancelled: () => {
      if (input.signal?.aborted) throw input.signal.reason ?? new Error('cancelled');
    },
  };
  let exit: AgentExit | null;
  try {
    exit = await readBaseline(loop);
    while (!exit) exit = await takeStep(loop);
    // The last step's state, read after the loop ended (submit, a limit, a model error): it is part of the record.
    exit = (await settlePendingStep(loop)) ?? exit;
  } finally {
    loop.closed = true;
    // A step being stored (onStep) while the loop threw is stored before the caller hears of it.
    if (loop.pending?.recorded) await loop.pending.settled;
  }
  return { summary: summaryOf(loop, exit, started), steps: loop.steps, error: exit.error ?? null, route: loop.route };
}

/** The baseline the first step's diff and refs are compared with. */
async function readBaseline(loop: AgentLoop): Promise<AgentExit | null> {
  if (!loop.input.repoState) return null;
  try {
    await loop.input.repoState.read();
    return null;
  } catch (error) {
    loop.throwIfCancelled();
    return sandboxExit(`the repository could not be read before the first turn: ${(error as Error).message}`, error);
  }
}

function summaryOf(loop: AgentLoop, exit: AgentExit, started: number): TrajectorySummary {
  const { input, steps } = loop;
  return {
    version: TRAJECTORY_VERSION,
    agent: input.agent,
    model: input.modelName,
    toolSet: input.toolSet.name,
    protocol: loop.protocol,
    exitStatus: exit.status,
    exitDetail: exit.detail,
    exitStep: steps.length > 0 ? steps.length - 1 : null,
    submission: loop.submission,
    steps: steps.length,
    totals: {
      ...sumStepUsage(steps),
      modelMs: steps.reduce((t, s) => t + s.modelMs, 0),
      toolMs: steps.reduce((t, s) => t + s.toolMs, 0),
      wallMs: Math.max(0, loop.now() - started),
      toolCalls: loop.toolCallCount,
    },
    systemPrompt: loop.systemPrompt,
    taskPrompt: input.taskPrompt,
  };
}
