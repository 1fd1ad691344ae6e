import { ConfigurationError, ModelCallError, RetriesExhaustedError, TransientError } from '@gitbench/core';
import type { AgentChatRequest, AgentChatResult } from '@gitbench/providers';
import { GatewayRequestError, newId, type BackendAnswer, type GatewayTurn } from './conversation';

/**
 * Who answers the agent's calls. `provider`: a hosted model through the providers package's agent
 * chat (retries, 429 with Retry-After, cost from the price table), with the key held in this process.
 * `builtin`: the oracle or nop, which answer without any model in the agent's own shell tool.
 */
export type GatewayBackend = ProviderBackend | BuiltinBackend;

export interface ProviderBackend {
  kind: 'provider';
  /** The target's model id (effort included); every call is answered by it, whatever name the agent asks for. */
  model: string;
  /**
   * One turn to the model: a Provider's `chat` from ProviderRegistry (createAgentChat for OpenAI-compatible profiles).
   */
  chat(request: AgentChatRequest): Promise<AgentChatResult>;
}

/** How an agent's shell tool is named and how one command becomes its arguments (per agent). */
export interface ShellTool {
  name: string;
  toArguments(command: string): Record<string, unknown>;
}

export type BuiltinBackend =
  | {
      kind: 'builtin';
      model: 'oracle';
      /** The fixture's reference solution as shell commands, played one per call in order. */
      commands: readonly string[];
      /** The closing answer once every command has run (the expected answer where one is scored). */
      finalText: string;
      shellTool: ShellTool;
    }
  | { kind: 'builtin'; model: 'nop'; finalText?: string };

/** The model name the records and the responses carry. */
export function backendModel(backend: GatewayBackend): string {
  return backend.model;
}

/** The prefix of the oracle's call ids: how it finds, in the conversation alone, how far it has played. */
const ORACLE_CALL = 'call_gboracle_';

function builtinAnswer(model: string, content: string | null, toolCalls: BackendAnswer['toolCalls']): BackendAnswer {
  return {
    model,
    content,
    reasoning: null,
    toolCalls,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    // No model answered: nothing was counted, so nothing is claimed (unknown, not zero).
    inputTokens: null,
    outputTokens: null,
    reasoningTokens: null,
    costUsd: null,
    costEstimated: false,
    retries: 0,
  };
}

/**
 * The oracle's next turn, read from the conversation rather than kept in memory: the number of its
 * own shell calls already in the request is the index of the next command. So an agent that retries
 * a call, or asks a side question in between, gets the same next step.
 */
function oracleTurn(backend: Extract<BuiltinBackend, { model: 'oracle' }>, turn: GatewayTurn): BackendAnswer {
  // A request offering no tools is the agent's side question (a title, a summary): answered in words.
  if (turn.tools.length === 0) return builtinAnswer('oracle', backend.finalText, []);
  if (!turn.tools.some((t) => t.name === backend.shellTool.name)) {
    throw new GatewayRequestError(
      400,
      `the oracle plays through the shell tool '${backend.shellTool.name}', which this ` +
        `request does not offer (it offers ${turn.tools.map((t) => t.name).join(', ')})`,
      'builtin',
    );
  }
  let played = 0;
  for (const m of turn.messages)
    if (m.role === 'assistant') played += (m.toolCalls ?? []).filter((c) => c.id.startsWith(ORACLE_CALL)).length;
  const command = backend.commands[played];
  if (command === undefined) return builtinAnswer('oracle', backend.finalText, []);
  const id = `${ORACLE_CALL}${played}_${newId('')}`;
  return builtinAnswer('oracle', null, [
    { id, name: backend.shellTool.name, arguments: JSON.stringify(backend.shellTool.toArguments(command)) },
  ]);
}

/** A failure of the backend, as the gateway answers it: HTTP status, error kind, message, and the retries spent. */
export interface BackendFailure {
  status: number;
  kind: 'provider_transient' | 'provider_configuration' | 'internal';
  code: string;
  message: string;
  retryAfterMs?: number;
  retries: number;
}

/**
 * What the agent is told when the provider fails. Rate limits stay 429 (with Retry-After) so the
 * agent's own client waits; other transient failures are 502/504, which every SDK retries; a
 * configuration failure (key, model, base URL) is a 400 so the agent stops instead of retrying what
 * can never work, and the record says it was the provider's configuration, never the agent.
 */
export function backendFailure(error: unknown): BackendFailure {
  const retries = error instanceof RetriesExhaustedError ? error.retries.length : 0;
  const cause = error instanceof RetriesExhaustedError && error.cause instanceof ModelCallError ? error.cause : error;
  // The outer message says how many tries were made; the wait the server asked for may sit deeper in the chain.
  const said = error instanceof Error ? error.message : String(error);
  if (cause instanceof TransientError) {
    const status = cause.code === 'rate_limited' ? 429 : cause.code === 'timeout' ? 504 : 502;
    return {
      status,
      kind: 'provider_transient',
      code: cause.code,
      message: `the model provider failed: ${said}`,
      retryAfterMs: retryAfterIn(cause),
      retries,
    };
  }
  if (cause instanceof ConfigurationError) {
    return {
      status: 400,
      kind: 'provider_configuration',
      code: cause.code,
      message: `the model provider refused the configuration: ${said}`,
      retries,
    };
  }
  if (cause instanceof ModelCallError)
    return {
      status: 502,
      kind: 'provider_transient',
      code: cause.code,
      message: `the model provider failed: ${said}`,
      retries,
    };
  return { status: 500, kind: 'internal', code: 'internal', message: `the gateway failed: ${said}`, retries };
}

function retryAfterIn(error: unknown): number | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof TransientError && e.retryAfterMs !== undefined) return e.retryAfterMs;
  }
  return undefined;
}

export async function askBackend(
  backend: GatewayBackend,
  turn: GatewayTurn,
  signal: AbortSignal,
): Promise<BackendAnswer> {
  if (backend.kind === 'builtin') {
    if (backend.model === 'nop') return builtinAnswer('nop', backend.finalText ?? '', []);
    return oracleTurn(backend, turn);
  }
  const result = await backend.chat({
    model: backend.model,
    messages: turn.messages,
    tools: turn.tools,
    protocol: 'native',
    signal,
  });
  return {
    model: result.route.servedModel ?? backend.model,
    content: result.content,
    reasoning: result.reasoning,
    toolCalls: result.toolCalls,
    finishReason:
      result.finishReason === 'tool_calls' || result.finishReason === 'length'
        ? result.finishReason
        : result.toolCalls.length > 0
          ? 'tool_calls'
          : 'stop',
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    reasoningTokens: result.usage.reasoningTokens,
    costUsd: result.cost.usd,
    costEstimated: result.cost.source === 'estimated',
    retries: result.retries.length,
  };
}
