import { chmodSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { GatewayCallRecord } from '@gitbench/core';
import { backendModel, type GatewayBackend } from './backends';
import { BudgetTracker, type BudgetLimit, type GatewayBudget } from './budget';
import { CallTrace } from './call-trace';
import { handleCall, type CallContext } from './handle-call';
import { Slots } from './http';
import { DEFAULT_GATEWAY_LIMITS, type GatewayLimits } from './limits';
import { chatCompletions } from './protocols/chat-completions';
import type { ProtocolCodec } from './protocols/codec';
import { anthropicMessages } from './protocols/messages';
import { responses } from './protocols/responses';
import { countTokens, gatewayFailed, listModels, notServed } from './routes';

export { DEFAULT_GATEWAY_LIMITS, type GatewayLimits } from './limits';

/**
 * The model gateway: an HTTP/1.1 server on a Unix socket that the agent in the sandbox reaches (the
 * container has no network), speaking the agent's protocol, answering through one backend, recording
 * every call, and refusing calls past the attempt's budget. The agent is an adversary: every body is
 * size-capped, slow connections time out, and parallel calls wait in a bounded queue or get a 429.
 */

export interface ModelGatewayOptions {
  socketPath: string;
  backend: GatewayBackend;
  budget: GatewayBudget;
  /** Every call, as it completes, in order of completion; awaited one after another, never in the answer's path. */
  onCall?: (call: GatewayCallRecord) => void | Promise<void>;
  /** Awaited before the backend is asked (the engine reads the repository's state for call `seq` here). */
  beforeCall?: (seq: number) => Promise<void>;
  limits?: Partial<GatewayLimits>;
}

export interface GatewaySpent {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Answered calls whose cost nobody knows (built-in models, models without a price). */
  costUnknownCalls: number;
}

export interface ModelGateway {
  readonly socketPath: string;
  /** Stops listening, ends open connections, aborts calls in flight, and waits for every onCall. */
  close(): Promise<void>;
  calls(): GatewayCallRecord[];
  /** The budget limit that refused a call, or null. */
  exhausted(): BudgetLimit | null;
  spent(): GatewaySpent;
}

const CODECS: Record<string, ProtocolCodec> = {
  '/chat/completions': chatCompletions,
  '/responses': responses,
  '/messages': anthropicMessages,
};

/**
 * The calls' records, kept in order of completion and handed to onCall one after another, never in an
 * answer's path. The first onCall error is kept and thrown by drain (at close).
 */
class CallLog {
  readonly records: GatewayCallRecord[] = [];
  private delivered: Promise<void> = Promise.resolve();
  private deliveryError: unknown = null;

  constructor(private readonly onCall?: (call: GatewayCallRecord) => void | Promise<void>) {}

  add(call: GatewayCallRecord): void {
    this.records.push(call);
    const onCall = this.onCall;
    if (!onCall) return;
    this.delivered = this.delivered.then(async () => {
      try {
        await onCall(call);
      } catch (error) {
        this.deliveryError ??= error;
      }
    });
  }

  async drain(): Promise<void> {
    await this.delivered;
    if (this.deliveryError) throw this.deliveryError;
  }
}

/** The routes by path (a trailing slash, a query and a leading /v1 make no difference). */
function route(ctx: CallContext, model: string, nextSeq: () => number) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/')
      .split('?')[0]!
      .replace(/\/+$/, '')
      .replace(/^\/v1(?=\/)/, '');
    const codec = CODECS[path];
    const handled = (async () => {
      if (req.method === 'POST' && codec)
        return handleCall(ctx, { req, res, trace: new CallTrace(nextSeq(), codec, model) });
      if (req.method === 'POST' && path === '/messages/count_tokens')
        return countTokens(req, res, ctx.limits.maxRequestBytes);
      if (req.method === 'GET' && path === '/models') return listModels(res, model);
      notServed(req, res);
    })();
    handled.catch((error: unknown) => gatewayFailed(res, error));
  };
}

function gatewayServer(limits: GatewayLimits, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often Node looks for connections past those timeouts (30 s by default).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersTimeoutMs / 2)),
      // Longer than an agent's tool runs between calls: a client reusing a connection the server has just
      // closed gets a reset, which an agent with its own retries off (Codex here) reports as a failure.
      // Clients close idle connections before this (undici reads the Keep-Alive hint); maxConnections bounds the idle.
      keepAliveTimeout: 65_000,
      maxHeaderSize: 64 * 1024,
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}

async function listen(server: ReturnType<typeof createServer>, socketPath: string): Promise<void> {
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The agent runs under another uid inside the container: the socket is the only way in, and all it reaches is this
  // server.
  chmodSync(socketPath, 0o666);
}

export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const limits = { ...DEFAULT_GATEWAY_LIMITS, ...options.limits };
  const budget = new BudgetTracker(options.budget, performance.now());
  const log = new CallLog(options.onCall);
  const shutdown = new AbortController();
  const ctx: CallContext = {
    limits,
    budget,
    slots: new Slots(limits.maxConcurrentCalls, limits.maxQueuedCalls),
    backend: options.backend,
    ...(options.beforeCall ? { beforeCall: options.beforeCall } : {}),
    shutdown: shutdown.signal,
    record: (call) => log.add(call),
  };
  let seq = 0;
  const server = gatewayServer(
    limits,
    route(ctx, backendModel(options.backend), () => ++seq),
  );
  await listen(server, options.socketPath);

  let closing: Promise<void> | null = null;
  return {
    socketPath: options.socketPath,
    calls: () => [...log.records],
    exhausted: () => budget.exhausted(),
    spent: () => ({
      calls: budget.calls,
      inputTokens: budget.inputTokens,
      outputTokens: budget.outputTokens,
      costUsd: budget.costUsd,
      costUnknownCalls: budget.costUnknownCalls,
    }),
    close() {
      closing ??= (async () => {
        shutdown.abort(new Error('the gateway closed'));
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        rmSync(options.socketPath, { force: true });
        await log.drain();
      })();
      return closing;
    },
  };
}
