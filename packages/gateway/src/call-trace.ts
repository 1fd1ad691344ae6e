import type { GatewayCallErrorKind, GatewayCallRecord } from '@gitbench/core';
import type { BackendAnswer, GatewayTurn } from './conversation';
import type { ProtocolCodec } from './protocols/codec';

/** How a call ended, as its record says it. */
export interface CallEnding {
  status: number;
  response: unknown;
  error: string | null;
  errorKind: GatewayCallErrorKind | null;
  answer: BackendAnswer | null;
  streamed: boolean;
}

/**
 * One model call's facts as the gateway learns them (the request, the turn it parsed to, the time spent
 * in the provider and in the engine's hook), turned into its GatewayCallRecord when the call ends.
 */
export class CallTrace {
  request: unknown = null;
  turn: GatewayTurn | null = null;
  providerMs = 0;
  hookMs = 0;
  retries = 0;
  private readonly started = performance.now();
  private readonly startedAt = new Date();

  constructor(
    readonly seq: number,
    readonly codec: ProtocolCodec,
    /** The backend's model, for a call that never reached it. */
    private readonly model: string,
  ) {}

  /** Times the engine's hook, whether it returns or throws. */
  async timeHook(hook: () => Promise<void>): Promise<void> {
    const start = performance.now();
    try {
      await hook();
    } finally {
      this.hookMs = performance.now() - start;
    }
  }

  record(ending: CallEnding): GatewayCallRecord {
    const ended = performance.now();
    const a = ending.answer;
    return {
      seq: this.seq,
      protocol: this.codec.protocol,
      requestedModel: this.turn?.requestedModel ?? null,
      model: a?.model ?? this.model,
      request: this.request,
      response: ending.response,
      status: ending.status,
      error: ending.error,
      errorKind: ending.errorKind,
      tools: this.turn?.tools.map((t) => t.name) ?? [],
      toolResults: this.turn?.toolResults ?? [],
      answer: a
        ? { content: a.content, reasoning: a.reasoning, toolCalls: a.toolCalls, finishReason: a.finishReason }
        : null,
      inputTokens: a?.inputTokens ?? null,
      outputTokens: a?.outputTokens ?? null,
      reasoningTokens: a?.reasoningTokens ?? null,
      costUsd: a?.costUsd ?? null,
      costEstimated: a?.costEstimated ?? false,
      gatewayMs: Math.max(0, ended - this.started - this.providerMs - this.hookMs),
      providerMs: this.providerMs,
      hookMs: this.hookMs,
      retries: this.retries,
      streamed: ending.streamed,
      startedAt: this.startedAt.toISOString(),
      endedAt: new Date(this.startedAt.getTime() + (ended - this.started)).toISOString(),
    };
  }
}
