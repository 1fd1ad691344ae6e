import type { GatewayCallRecord, GatewayToolResult } from './gateway-call';
import type { RepoStepState, ToolCallRecord, ToolCallResult, TrajectoryStep } from './trajectory';

/**
 * Our trajectory steps, rebuilt from the calls a third-party agent made through the model gateway.
 * The agent runs its own loop, so we never see its tools run; what we see is each answer's tool calls
 * and, in a later request, the results the agent sends back for them. So:
 * - each answered call that offered tools is one step (its tool calls, or its closing text);
 *   calls offering no tools are the agent's side questions (titles, summaries) and are left out;
 * - a tool call's result is the first later request carrying a result with its id;
 * - the step's tool time runs from its answer to that request, and its repository is the state read
 *   just before that request (the gateway's beforeCall; for a request refused unasked, the next state
 *   read), or the final state when none came.
 * The agent is an adversary: a result is only what it chose to send, so each is marked `agentReported`,
 * and nothing about the repository is read from results. The states come from the caller, who reads the
 * repository itself (the engine's observer, beside the running agent).
 */
export interface CallsToTrajectoryOptions {
  /** Repository state read before each call, by the call's seq (null where reading failed). */
  repoBeforeCall?: ReadonlyMap<number, RepoStepState | null>;
  /** The repository when the agent ended: the state after its last step. */
  repoAtEnd?: RepoStepState | null;
}

const utf8 = new TextEncoder();

function parseArguments(raw: string): { arguments: unknown; parseError: string | null } {
  if (raw.trim() === '') return { arguments: {}, parseError: null };
  try {
    return { arguments: JSON.parse(raw) as unknown, parseError: null };
  } catch (error) {
    return {
      arguments: null,
      parseError: `the arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function sumOrNull(...values: (number | null)[]): number | null {
  return values.some((v) => v === null) ? null : values.reduce<number>((t, v) => t + (v ?? 0), 0);
}

/**
 * The repository as the call `seq` found it: the state read before it, else (a call refused before
 * the backend was asked reads none) the next state read after it, else the state at the end. A state
 * recorded as null (reading failed) stays unknown.
 */
function stateFrom(seq: number, options: CallsToTrajectoryOptions): RepoStepState | null {
  const states = options.repoBeforeCall;
  if (states) {
    const next = [...states.keys()].filter((s) => s >= seq).sort((a, b) => a - b)[0];
    if (next !== undefined) return states.get(next) ?? null;
  }
  return options.repoAtEnd ?? null;
}

export function callsToTrajectory(
  calls: readonly GatewayCallRecord[],
  options: CallsToTrajectoryOptions = {},
): TrajectoryStep[] {
  const ordered = [...calls].sort((a, b) => a.seq - b.seq);
  // Where each tool call's result came back: the first request that carried it.
  const resultOf = new Map<string, { result: GatewayToolResult; call: GatewayCallRecord }>();
  for (const call of ordered) {
    for (const result of call.toolResults)
      if (!resultOf.has(result.callId)) resultOf.set(result.callId, { result, call });
  }

  const steps: TrajectoryStep[] = [];
  for (const call of ordered) {
    const answer = call.answer;
    if (answer === null || call.tools.length === 0) continue;
    const toolCalls: ToolCallRecord[] = answer.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      rawArguments: c.arguments,
      ...parseArguments(c.arguments),
    }));
    const answered = answer.toolCalls
      .map((c) => ({ call: c, back: resultOf.get(c.id) }))
      .filter((a) => a.back !== undefined && a.back.call.seq > call.seq);
    const ended = Date.parse(call.endedAt);
    // The request that brought the results back: the earliest one, whose state is the step's outcome.
    const back = answered.map((a) => a.back!.call).sort((a, b) => a.seq - b.seq)[0];
    const finished = back ? Math.max(ended, Date.parse(back.startedAt)) : ended;
    const toolMs = finished - ended;
    const results: ToolCallResult[] = answered.map(({ call: c, back: b }) => {
      const bytes = utf8.encode(b!.result.content).length;
      return {
        callId: c.id,
        name: c.name,
        isError: b!.result.isError,
        // The agent runs its tools itself: only what it sent back is known, not exit codes or timing per call.
        exitCode: null,
        timedOut: false,
        durationMs: Math.max(0, Date.parse(b!.call.startedAt) - ended),
        output: b!.result.content,
        outputBytes: bytes,
        truncatedBytes: 0,
        // What the agent sent back, never seen run: the step's repository below is read by GitBench instead.
        agentReported: true,
      };
    });
    const repo = back ? stateFrom(back.seq, options) : (options.repoAtEnd ?? null);
    steps.push({
      index: steps.length,
      startedAt: call.startedAt,
      finishedAt: new Date(finished).toISOString(),
      modelMs: call.gatewayMs + call.providerMs,
      toolMs,
      channel: 'native',
      message: { content: answer.content, reasoning: answer.reasoning },
      toolCalls,
      results,
      usage: {
        inputTokens: call.inputTokens,
        outputTokens: call.outputTokens,
        reasoningTokens: call.reasoningTokens,
        totalTokens: sumOrNull(call.inputTokens, call.outputTokens),
        costUsd: call.costUsd,
        costEstimated: call.costEstimated,
      },
      finishReason: answer.finishReason,
      retries: call.retries,
      formatStrike: false,
      runtimeNote: null,
      repo,
    });
  }
  return steps;
}

/**
 * How many leading steps of callsToTrajectory(calls, { repoBeforeCall }) are already final while the
 * agent still runs, so they can be stored (and watched) before it ends. A step is final once every
 * earlier call has completed (no call still in flight can come before it or carry its results first),
 * each of its tool calls has its result in a completed request, and the repository was read before
 * that request. A step of text alone, or one whose results never come, takes the repository at the end:
 * it and every step after it wait for the agent to end.
 */
export function settledSteps(
  calls: readonly GatewayCallRecord[],
  repoBeforeCall: ReadonlyMap<number, RepoStepState | null>,
): number {
  const ordered = [...calls].sort((a, b) => a.seq - b.seq);
  // Calls complete in any order: only the run of seqs 1..n with none missing is known in full.
  let done = 0;
  while (ordered[done]?.seq === done + 1) done++;
  const known = ordered.slice(0, done);
  let settled = 0;
  for (const call of known) {
    if (call.answer === null || call.tools.length === 0) continue;
    const ids = call.answer.toolCalls.map((c) => c.id);
    const back = ids.map((id) =>
      known.find((later) => later.seq > call.seq && later.toolResults.some((r) => r.callId === id)),
    );
    if (ids.length === 0 || back.some((b) => b === undefined)) break;
    const first = Math.min(...back.map((b) => b!.seq));
    if (!repoBeforeCall.has(first)) break;
    settled++;
  }
  return settled;
}
