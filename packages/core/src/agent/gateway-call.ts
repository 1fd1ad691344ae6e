import { z } from 'zod';
import type { AgentExitStatus } from './exit-status';

/**
 * One model call a third-party agent made through the model gateway (packages/gateway), as recorded:
 * the wire request and response in the agent's own protocol, and beside them the few neutral facts
 * (the assistant's answer, the tool results the request carried) that rebuild our trajectory steps
 * without parsing three protocols again (see callsToTrajectory).
 */

export const GATEWAY_PROTOCOLS = ['chat_completions', 'responses', 'messages'] as const;
export type GatewayProtocol = (typeof GATEWAY_PROTOCOLS)[number];

/** The limits a gateway enforces per attempt, each with the exit status an attempt stopped by it gets. */
export const GATEWAY_LIMITS = ['calls', 'input_tokens', 'output_tokens', 'total_tokens', 'cost', 'wall_time'] as const;
export type GatewayLimitName = (typeof GATEWAY_LIMITS)[number];

export const GATEWAY_LIMIT_EXIT_STATUS = {
  calls: 'turn_limit',
  input_tokens: 'token_limit',
  output_tokens: 'token_limit',
  total_tokens: 'token_limit',
  cost: 'cost_limit',
  wall_time: 'time_limit',
} as const satisfies Record<GatewayLimitName, AgentExitStatus>;

/** Why a call got no answer from the backend; null when it did. */
export const GATEWAY_CALL_ERRORS = [
  /** A budget limit was reached: the agent was told which. */
  'budget',
  /** The request was malformed, too large, or asked for what the gateway does not serve. */
  'bad_request',
  /** Too many calls at once: the agent was told to retry later (429). */
  'overloaded',
  /** The provider failed after its retries (5xx, timeout, 429 past Retry-After): infrastructure. */
  'provider_transient',
  /** The provider refused the configuration (key, model, base URL): infrastructure, never the agent's. */
  'provider_configuration',
  /** The built-in model could not play (no shell tool offered). */
  'builtin',
  /** The agent hung up, or the gateway closed, before the answer: the provider's call was aborted. */
  'cancelled',
  /** The answer was larger than the gateway sends back. */
  'response_too_large',
  'internal',
] as const;
export type GatewayCallErrorKind = (typeof GATEWAY_CALL_ERRORS)[number];

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();

export const gatewayToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() }).strict();

export const gatewayToolResultSchema = z
  .object({
    callId: z.string(),
    /** The tool's name where the protocol says it or an earlier call of the conversation does; '' otherwise. */
    name: z.string(),
    content: z.string(),
    isError: z.boolean(),
  })
  .strict();
export type GatewayToolResult = z.infer<typeof gatewayToolResultSchema>;

export const gatewayAnswerSchema = z
  .object({
    content: z.string().nullable(),
    reasoning: z.string().nullable(),
    toolCalls: z.array(gatewayToolCallSchema),
    /** Neutral: `stop`, `tool_calls` or `length` (rendered as each protocol names it). */
    finishReason: z.string().nullable(),
  })
  .strict();
export type GatewayAnswer = z.infer<typeof gatewayAnswerSchema>;

export const gatewayCallRecordSchema = z
  .object({
    /** 1-based, in arrival order. */
    seq: z.number().int().positive(),
    protocol: z.enum(GATEWAY_PROTOCOLS),
    /** The model the agent asked for, and the one that answered (the target's; the agent's name is ignored). */
    requestedModel: z.string().nullable(),
    model: z.string(),
    /** The request body as received (parsed JSON), null when it was not JSON or was refused unread. */
    request: z.unknown(),
    /** The response body as sent; for a stream, the response it assembles to. Null for errors. */
    response: z.unknown(),
    /** The HTTP status the agent got. */
    status: z.number().int(),
    error: z.string().nullable(),
    errorKind: z.enum(GATEWAY_CALL_ERRORS).nullable(),
    /** Names of the tools the request offered (a call without tools is the agent's side question). */
    tools: z.array(z.string()),
    /** The tool results the request carried after its last assistant turn: the previous step's results. */
    toolResults: z.array(gatewayToolResultSchema),
    answer: gatewayAnswerSchema.nullable(),
    inputTokens: count.nullable(),
    outputTokens: count.nullable(),
    reasoningTokens: count.nullable(),
    costUsd: z.number().nonnegative().nullable(),
    costEstimated: z.boolean(),
    /** Time inside the gateway (parsing, rendering, queueing), the backend's time, and the beforeCall hook's. */
    gatewayMs: ms,
    providerMs: ms,
    hookMs: ms,
    /** Failed tries of the provider before its answer (or before it gave up). */
    retries: count,
    streamed: z.boolean(),
    startedAt: z.iso.datetime(),
    endedAt: z.iso.datetime(),
  })
  .strict();
export type GatewayCallRecord = z.infer<typeof gatewayCallRecordSchema>;
