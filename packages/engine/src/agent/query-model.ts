import { ConfigurationError, type ToolSet } from '@gitbench/core';
import {
  TOOLS_UNSUPPORTED,
  type AgentChatResult,
  type AgentMessage,
  type AgentModel,
  type AgentWireProtocol,
} from '@gitbench/providers';
import type { AgentExit } from './agent-exit';

export interface QueryInput {
  model: AgentModel;
  modelName: string;
  toolSet: ToolSet;
  messages: AgentMessage[];
  protocol: AgentWireProtocol;
  /** The configured protocol: under `auto`, an endpoint that refuses tools is asked again in text. */
  configured: 'auto' | 'native' | 'text';
  deadline: number;
  now: () => number;
  maxWallMs: number;
  signal?: AbortSignal | undefined;
  throwIfCancelled: () => void;
}

/** A model turn's answer; the loop's end (a model error, the time limit); or the same turn again in text. */
export type QueryOutcome = { reply: AgentChatResult } | { exit: AgentExit } | { switchToText: true };

/**
 * One model call, as mini-swe-agent's query: bounded by what is left of the wall limit, after which
 * it ends the loop as time_limit (a graded exit). A cancellation (the caller's signal) throws.
 */
export async function queryModel(q: QueryInput): Promise<QueryOutcome> {
  const wall = new AbortController();
  const timer = setTimeout(() => wall.abort(new Error('time limit')), Math.max(0, q.deadline - q.now()));
  const signal = q.signal ? AbortSignal.any([q.signal, wall.signal]) : wall.signal;
  try {
    const tools =
      q.protocol === 'native'
        ? q.toolSet.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))
        : [];
    return {
      reply: await q.model.chat({ model: q.modelName, messages: q.messages, tools, protocol: q.protocol, signal }),
    };
  } catch (error) {
    q.throwIfCancelled();
    if (wall.signal.aborted)
      return { exit: { status: 'time_limit', detail: `${q.maxWallMs} ms (during a model call)` } };
    // The endpoint refuses tools: the same turn again under the text protocol.
    if (
      error instanceof ConfigurationError &&
      error.code === TOOLS_UNSUPPORTED &&
      q.configured === 'auto' &&
      q.protocol === 'native'
    )
      return { switchToText: true };
    return { exit: { status: 'model_error', detail: (error as Error)?.message ?? String(error), error } };
  } finally {
    clearTimeout(timer);
  }
}
