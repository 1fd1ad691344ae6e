/** What protects the worker from the agent. Defaults suit real agents (Claude Code sends requests of a few MB). */
export interface GatewayLimits {
  /** A request body past this gets 413 and the connection is closed. */
  maxRequestBytes: number;
  /** An answer that would render past this gets 502 instead (the agent cannot make us buffer more). */
  maxResponseBytes: number;
  /** Calls answered at once; the rest wait in the queue. */
  maxConcurrentCalls: number;
  /** Calls waiting for a slot; past it, 429 with Retry-After. */
  maxQueuedCalls: number;
  /** Open connections; Node drops any beyond. */
  maxConnections: number;
  /** The headers must arrive within this, the whole request within requestTimeoutMs. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export const DEFAULT_GATEWAY_LIMITS: GatewayLimits = {
  maxRequestBytes: 16 * 1024 * 1024,
  maxResponseBytes: 4 * 1024 * 1024,
  maxConcurrentCalls: 4,
  maxQueuedCalls: 32,
  maxConnections: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
};
