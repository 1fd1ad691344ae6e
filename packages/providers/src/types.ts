import type { AnswerMode, Cost, Difficulty, ModelId, RetryRecord, TokenUsage } from '@gitbench/core';

export type { RetryRecord };

/** Which fixture a request is for. Real models never see it; replay, oracle and simulated answer by it. */
export interface FixtureRef {
  /** Benchmark / domain folder, e.g. `blame_forensics`. */
  domain: string;
  id: string;
  difficulty?: Difficulty;
  /** The fixture's expected answer as text: what the oracle answers in text mode. */
  expected?: string;
  /** The expected answer shaped by the fixture's contract: what the oracle answers in json_schema mode. */
  expectedStructured?: unknown;
  /**
   * The commits of the fixture's repository as built for this attempt (id and subject). Replay maps
   * the commit ids of the recorded run onto them; ids differ between runs built with real clocks.
   */
  commits?: readonly { hash: string; subject: string }[];
  /** The repository's directory inside the sandbox workspace (`<domain>_<id>`, as upstream named it). */
  repoDir?: string;
  /** Whether the answer is run as commands: replay then maps upstream's temporary workspace onto ours. */
  answerIsRun?: boolean;
}

export interface CompletionRequest {
  /** Full model id, effort included: `openai/o3-mini#high`, `qwen3:high`, `llama3.1:8b`. */
  model: string;
  prompt: string;
  outputMode: AnswerMode;
  /** The fixture's structured-output contract (JSON Schema); required in json_schema mode. */
  schema?: Record<string, unknown>;
  /** Name sent with the schema (letters, digits, `_` and `-`). */
  schemaName?: string;
  /** Sampling temperature, sent only when given (GitGoodBench's history judge asks at 0). */
  temperature?: number;
  signal?: AbortSignal;
  fixture?: FixtureRef;
  /** Trial number within a campaign; only the simulated provider uses it (to vary per trial). */
  trial?: number;
}

export interface RouteMetadata {
  /** Provider kind: `openai`, `openrouter`, `ollama`, `mock`, `oracle`, `replay`, `simulated`. */
  provider: string;
  /** Profile the call was made through. */
  profile: string;
  baseUrl: string | null;
  requestedModel: string;
  /** The model the server says answered (routers may serve a different version). */
  servedModel: string | null;
  responseId: string | null;
  /** The upstream host a router chose, e.g. OpenRouter's `provider` field. */
  upstreamProvider: string | null;
  /** True for answers that no model produced: the simulated provider. Shown wherever results appear. */
  simulated: boolean;
  /**
   * For replayed answers: the result file, the original route, and upstream's verdict on the answer
   * (so a replayed run can print its agreement with the recorded verdicts).
   */
  replay?: {
    file: string;
    recordedRoute: Record<string, unknown> | null;
    recordedVerdict: { passed: boolean; similarity: number | null; error: string | null };
  };
}

export interface TranscriptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  reasoning?: string;
}

export interface QualityFailure {
  code: 'malformed_json' | 'schema_violation';
  message: string;
}

export interface CompletionResult {
  model: ModelId;
  /** The answer exactly as the model returned it (in json_schema mode, the JSON text). */
  output: string;
  /** json_schema mode, when the output parsed and satisfied the contract. */
  structuredOutput?: unknown;
  /**
   * Set when the model answered but unusably: a scored quality failure (it counts against the model).
   * Transient and configuration failures are thrown instead, because there is no answer to score.
   */
  qualityFailure: QualityFailure | null;
  reasoning: string | null;
  usage: TokenUsage;
  cost: Cost;
  /** Duration of the HTTP call that produced the answer; failed tries are listed under `retries`. */
  apiDurationMs: number;
  route: RouteMetadata;
  /** What was sent, minus the prompt and any secret: model, effort parameters, response format, extras. */
  requestConfig: Record<string, unknown>;
  retries: RetryRecord[];
  transcript: TranscriptMessage[];
  /**
   * Observations recorded without changing the verdict, e.g. `reasoning_despite_effort_none` when a
   * model asked for no reasoning still returned reasoning (kept, and reported next to the result).
   */
  flags: string[];
}

export interface Provider {
  /** Provider kind plus profile, e.g. `openrouter (profile openrouter)`; `simulated` for the simulated mock. */
  readonly name: string;
  readonly kind: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** One turn of agent mode (tool calling); absent where the provider has no agent side. */
  chat?(request: AgentChatRequest): Promise<AgentChatResult>;
}

/**
 * A model that works through tools over many turns (agent mode). The engine's loop owns the
 * conversation and the protocol; an AgentModel only carries one turn to the model and back. Hosted
 * models (the openai SDK), and the built-in agents (oracle, nop, simulated, replay) implement it, so
 * all of them go through the same loop and the same tools.
 */

/** A tool as the model is told of it (JSON Schema of its arguments). */
export interface AgentToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call as the model sent it: arguments are the raw text (possibly truncated or not JSON). */
export interface AgentToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type AgentMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; reasoning?: string | null; toolCalls?: AgentToolCall[] }
  | { role: 'tool'; callId: string; name: string; content: string };

/** `native`: the endpoint's tool calling (tools sent); `text`: no tools sent, tool results go back as user messages. */
export type AgentWireProtocol = 'native' | 'text';

export interface AgentChatRequest {
  /** Full model id, effort included. */
  model: string;
  messages: readonly AgentMessage[];
  tools: readonly AgentToolSpec[];
  protocol: AgentWireProtocol;
  signal?: AbortSignal;
}

export interface AgentChatResult {
  content: string | null;
  reasoning: string | null;
  /** Native tool calls only; the loop finds text-protocol and leaked calls in `content` itself. */
  toolCalls: AgentToolCall[];
  /** As the endpoint said (`stop`, `tool_calls`, `length`, ...); built-in agents say `stop` or `tool_calls`. */
  finishReason: string | null;
  usage: TokenUsage;
  cost: Cost;
  apiDurationMs: number;
  retries: RetryRecord[];
  route: RouteMetadata;
}

export interface AgentModel {
  /** Provider kind plus profile, or the built-in's name. */
  readonly name: string;
  readonly kind: string;
  /** True when no model answers (simulated agents): every display of their results says so. */
  readonly simulated?: boolean;
  chat(request: AgentChatRequest): Promise<AgentChatResult>;
}
