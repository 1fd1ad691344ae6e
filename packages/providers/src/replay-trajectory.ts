import { callAsTextBlock, ConfigurationError, textProtocolReply, UNKNOWN_COST, type Cost } from '@gitbench/core';
import { z } from 'zod';
import type { AgentChatRequest, AgentChatResult, AgentToolCall } from './types';

/**
 * Replay in agent mode: an ATIF trajectory (as `gitbench trajectory export --format atif` writes it,
 * or any ATIF v1.x producer's) played back turn by turn through the same loop and the same tools, so
 * a recorded agent run can be re-executed on a rebuilt repository and re-scored. Each agent step of
 * the file is one turn; its tool calls go out as recorded (arguments re-serialised from ATIF's
 * object, or the raw text a producer kept when the model sent something that was not JSON).
 */

const atifToolCall = z.looseObject({
  tool_call_id: z.string().optional(),
  function_name: z.string(),
  arguments: z.unknown().optional(),
});

/** Arguments the model sent that were not a JSON object: ATIF keeps an object, our export keeps the raw text here. */
const refusedArguments = z.array(z.looseObject({ tool_call_id: z.string(), raw: z.string() }));

const atifStep = z.looseObject({
  source: z.string(),
  message: z.unknown().optional(),
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(atifToolCall).nullish(),
  metrics: z
    .looseObject({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      cost_usd: z.number().nullish(),
    })
    .nullish(),
  extra: z
    .looseObject({ gitbench: z.looseObject({ refused_arguments: refusedArguments.optional() }).optional() })
    .nullish(),
});

const atifTrajectory = z.looseObject({
  schema_version: z.string().regex(/^ATIF-v1\./),
  agent: z.looseObject({ model_name: z.string().optional() }).optional(),
  steps: z.array(atifStep),
});

export interface RecordedTurn {
  content: string | null;
  reasoning: string | null;
  calls: { name: string; arguments: string }[];
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

export interface RecordedTrajectory {
  file: string;
  model: string;
  turns: RecordedTurn[];
}

/** True when a parsed JSON document says it is an ATIF trajectory (then it must parse as one). */
export function looksLikeAtif(json: unknown): boolean {
  return (
    typeof json === 'object' &&
    json !== null &&
    typeof (json as { schema_version?: unknown }).schema_version === 'string' &&
    (json as { schema_version: string }).schema_version.startsWith('ATIF-')
  );
}

/** The agent turns of an ATIF document; `label` names the source in messages (never its content). */
export function parseAtifTrajectory(json: unknown, label: string): RecordedTrajectory {
  const parsed = atifTrajectory.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigurationError(
      'bad_replay_file',
      `Replay file ${label} is not an ATIF v1 trajectory ` +
        `(${issue ? `${issue.path.join('.') || 'document'}: ${issue.message}` : 'unreadable'}).`,
    );
  }
  const turns = parsed.data.steps
    .filter((s) => s.source === 'agent')
    .map((s): RecordedTurn => ({
      content: typeof s.message === 'string' && s.message.length > 0 ? s.message : null,
      reasoning: s.reasoning_content ?? null,
      calls: (s.tool_calls ?? []).map((c) => ({
        name: c.function_name,
        // A call the model sent broken goes out broken again, so the replay meets the same refusal.
        arguments:
          s.extra?.gitbench?.refused_arguments?.find((r) => r.tool_call_id === c.tool_call_id)?.raw ??
          JSON.stringify(c.arguments ?? {}),
      })),
      inputTokens: s.metrics?.prompt_tokens ?? null,
      outputTokens: s.metrics?.completion_tokens ?? null,
      costUsd: s.metrics?.cost_usd ?? null,
    }));
  if (turns.length === 0)
    throw new ConfigurationError('bad_replay_file', `Replay file ${label} holds no agent step to replay.`);
  return { file: label, model: parsed.data.agent?.model_name ?? 'replay', turns };
}

/** A recorded call as the text protocol sends it, or null for one it cannot express (its arguments unreadable). */
function asTextBlock(call: { name: string; arguments: string }): string | null {
  try {
    return callAsTextBlock(call.name, JSON.parse(call.arguments) as Record<string, unknown>);
  } catch {
    return null;
  }
}

/**
 * One turn of the recorded run. The turn is the number of assistant messages already in the
 * conversation, so the chat is stateless and one provider can serve any number of attempts at once.
 * Past the end of the recording the replay stops the way the recording did not: with no call, which
 * the loop counts as a format strike (a recording that never submitted ends as format_errors).
 */
export function replayTrajectoryChat(trajectory: RecordedTrajectory, request: AgentChatRequest): AgentChatResult {
  const n = request.messages.filter((m) => m.role === 'assistant').length;
  const turn = trajectory.turns[n];
  const route = {
    provider: 'replay',
    profile: 'replay',
    baseUrl: null,
    requestedModel: request.model,
    servedModel: trajectory.model,
    responseId: null,
    upstreamProvider: null,
    simulated: false,
  };
  if (!turn) {
    return {
      content: 'The recorded trajectory ends here.',
      reasoning: null,
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null },
      cost: UNKNOWN_COST,
      apiDurationMs: 0,
      retries: [],
      route,
    };
  }
  let content = turn.content;
  let toolCalls: AgentToolCall[] = turn.calls.map((c, i) => ({
    id: `replay_${n}_${i}`,
    name: c.name,
    arguments: c.arguments,
  }));
  if (request.protocol === 'text' && turn.calls.length > 0) {
    const block = asTextBlock(turn.calls[0]!);
    content = block === null ? content : textProtocolReply(content, block);
    toolCalls = [];
  }
  const cost: Cost = turn.costUsd === null ? UNKNOWN_COST : { source: 'provider', usd: turn.costUsd };
  const total = turn.inputTokens !== null && turn.outputTokens !== null ? turn.inputTokens + turn.outputTokens : null;
  return {
    content,
    reasoning: turn.reasoning,
    toolCalls,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage: {
      inputTokens: turn.inputTokens,
      outputTokens: turn.outputTokens,
      reasoningTokens: null,
      totalTokens: total,
    },
    cost,
    apiDurationMs: 0,
    retries: [],
    route,
  };
}
