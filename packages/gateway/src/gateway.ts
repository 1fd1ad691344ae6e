import { chmodSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { GatewayCallErrorKind, GatewayCallRecord } from '@gitbench/core';
import { askBackend, backendFailure, backendModel, type GatewayBackend } from './backends';
import { BudgetTracker, type BudgetLimit, type GatewayBudget } from './budget';
import { GatewayRequestError, type BackendAnswer, type GatewayTurn } from './conversation';
import { chatCompletions, openAIError } from './protocols/chat-completions';
import type { ProtocolCodec } from './protocols/codec';
import { anthropicMessages, estimateInputTokens } from './protocols/messages';
import { responses } from './protocols/responses';

/**
 * The model gateway: an HTTP/1.1 server on a Unix socket that the agent in the sandbox reaches (the
 * container has no network), speaking the agent's protocol, answering through one backend, recording
 * every call, and refusing calls past the attempt's budget. The agent is an adversary: every body is
 * size-capped, slow connections time out, and parallel calls wait in a bounded queue or get a 429.
 */

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

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('the client closed the request')));
  });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

/** A FIFO of waiting calls in front of a fixed number of slots. */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    private readonly size: number,
    private readonly queue: number,
  ) {}
  /** False when the queue is full (the caller answers 429). */
  tryAcquire(): Promise<void> | false {
    if (this.active < this.size) {
      this.active += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queue) return false;
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}

export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const limits = { ...DEFAULT_GATEWAY_LIMITS, ...options.limits };
  const budget = new BudgetTracker(options.budget, performance.now());
  const records: GatewayCallRecord[] = [];
  const shutdown = new AbortController();
  const slots = new Slots(limits.maxConcurrentCalls, limits.maxQueuedCalls);
  const model = backendModel(options.backend);
  let seq = 0;
  let delivered: Promise<void> = Promise.resolve();
  let deliveryError: unknown = null;

  const record = (call: GatewayCallRecord) => {
    records.push(call);
    const onCall = options.onCall;
    if (onCall) {
      delivered = delivered.then(async () => {
        try {
          await onCall(call);
        } catch (error) {
          deliveryError ??= error;
        }
      });
    }
  };

  async function handleCall(
    req: IncomingMessage,
    res: ServerResponse,
    codec: ProtocolCodec,
    started: number,
    startedAt: Date,
  ): Promise<void> {
    const n = ++seq;
    let request: unknown = null;
    let turn: GatewayTurn | null = null;
    let providerMs = 0;
    let hookMs = 0;
    let retries = 0;
    const finish = (fields: {
      status: number;
      response: unknown;
      error: string | null;
      errorKind: GatewayCallErrorKind | null;
      answer: BackendAnswer | null;
      streamed: boolean;
    }) => {
      const ended = performance.now();
      const a = fields.answer;
      record({
        seq: n,
        protocol: codec.protocol,
        requestedModel: turn?.requestedModel ?? null,
        model: a?.model ?? model,
        request,
        response: fields.response,
        status: fields.status,
        error: fields.error,
        errorKind: fields.errorKind,
        tools: turn?.tools.map((t) => t.name) ?? [],
        toolResults: turn?.toolResults ?? [],
        answer: a
          ? { content: a.content, reasoning: a.reasoning, toolCalls: a.toolCalls, finishReason: a.finishReason }
          : null,
        inputTokens: a?.inputTokens ?? null,
        outputTokens: a?.outputTokens ?? null,
        reasoningTokens: a?.reasoningTokens ?? null,
        costUsd: a?.costUsd ?? null,
        costEstimated: a?.costEstimated ?? false,
        gatewayMs: Math.max(0, ended - started - providerMs - hookMs),
        providerMs,
        hookMs,
        retries,
        streamed: fields.streamed,
        startedAt: startedAt.toISOString(),
        endedAt: new Date(startedAt.getTime() + (ended - started)).toISOString(),
      });
    };
    const fail = (
      status: number,
      kind: GatewayCallErrorKind,
      code: string,
      message: string,
      headers: Record<string, string> = {},
    ) => {
      send(res, status, JSON.stringify(codec.error(status, code, message)), headers);
      finish({ status, response: null, error: message, errorKind: kind, answer: null, streamed: false });
    };

    let body: Buffer;
    try {
      body = await readBody(req, limits.maxRequestBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        // Stop reading: the rest of an oversized body is never buffered, and the connection ends.
        fail(
          413,
          'bad_request',
          'request_too_large',
          `the request body is larger than the gateway takes (${limits.maxRequestBytes} bytes)`,
          { connection: 'close' },
        );
        res.on('finish', () => req.destroy());
        return;
      }
      fail(
        400,
        'bad_request',
        'bad_request',
        `the request could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    try {
      request = JSON.parse(body.toString('utf8'));
    } catch (error) {
      fail(
        400,
        'bad_request',
        'invalid_json',
        `the request body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    try {
      turn = codec.parse(request);
    } catch (error) {
      if (error instanceof GatewayRequestError) return fail(error.status, error.kind, 'invalid_request', error.message);
      throw error;
    }

    const slot = slots.tryAcquire();
    if (slot === false) {
      fail(
        429,
        'overloaded',
        'too_many_requests',
        `more than ${limits.maxConcurrentCalls + limits.maxQueuedCalls} model calls at once; retry later`,
        { 'retry-after': '1' },
      );
      return;
    }
    await slot;
    try {
      const limit = budget.check();
      if (limit) return fail(400, 'budget', 'budget_exhausted', limit.message);
      budget.admit();
      if (options.beforeCall) {
        const hookStart = performance.now();
        try {
          await options.beforeCall(n);
        } finally {
          hookMs = performance.now() - hookStart;
        }
      }
      // The agent hanging up, or the gateway closing, aborts the provider call.
      const abort = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) abort.abort(new Error('the agent closed the connection'));
      };
      res.on('close', onClose);
      const onShutdown = () => abort.abort(shutdown.signal.reason);
      shutdown.signal.addEventListener('abort', onShutdown, { once: true });
      let answer: BackendAnswer;
      const providerStart = performance.now();
      try {
        answer = await askBackend(options.backend, turn, abort.signal);
      } catch (error) {
        providerMs = performance.now() - providerStart;
        if (error instanceof GatewayRequestError)
          return fail(error.status, error.kind, 'invalid_request', error.message);
        if (abort.signal.aborted) {
          // 499 as proxies log it: nobody is left to read the answer.
          const reason = abort.signal.reason instanceof Error ? abort.signal.reason.message : 'aborted';
          return fail(499, 'cancelled', 'cancelled', `the call was cancelled: ${reason}`);
        }
        const failure = backendFailure(error);
        retries = failure.retries;
        const headers: Record<string, string> = {};
        if (failure.status === 429) {
          const ms = failure.retryAfterMs ?? 1000;
          headers['retry-after'] = String(Math.max(1, Math.ceil(ms / 1000)));
          headers['retry-after-ms'] = String(Math.round(ms));
        }
        return fail(failure.status, failure.kind, failure.code, failure.message, headers);
      } finally {
        shutdown.signal.removeEventListener('abort', onShutdown);
      }
      providerMs = performance.now() - providerStart;
      retries = answer.retries;
      budget.spend(answer);

      const rendered = turn.stream ? codec.stream(answer, turn) : null;
      const text = rendered ? rendered.events : JSON.stringify(codec.render(answer, turn));
      if (Buffer.byteLength(text) > limits.maxResponseBytes) {
        return fail(
          502,
          'response_too_large',
          'response_too_large',
          `the model's answer renders larger than the gateway sends (${limits.maxResponseBytes} bytes)`,
        );
      }
      if (rendered) {
        if (!res.destroyed) {
          res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
          res.end(text);
        }
        finish({ status: 200, response: rendered.assembled, error: null, errorKind: null, answer, streamed: true });
      } else {
        send(res, 200, text);
        finish({
          status: 200,
          response: JSON.parse(text) as unknown,
          error: null,
          errorKind: null,
          answer,
          streamed: false,
        });
      }
    } finally {
      slots.release();
    }
  }

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
    (req, res) => {
      const started = performance.now();
      const startedAt = new Date();
      const path = (req.url ?? '/')
        .split('?')[0]!
        .replace(/\/+$/, '')
        .replace(/^\/v1(?=\/)/, '');
      const codec = CODECS[path];
      const handled = (async () => {
        if (req.method === 'POST' && codec) return handleCall(req, res, codec, started, startedAt);
        if (req.method === 'POST' && path === '/messages/count_tokens') {
          const body = await readBody(req, limits.maxRequestBytes).catch(() => null);
          if (body === null)
            return send(
              res,
              413,
              JSON.stringify(anthropicMessages.error(413, 'request_too_large', 'the request body is too large')),
            );
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch {
            return send(
              res,
              400,
              JSON.stringify(anthropicMessages.error(400, 'invalid_json', 'the request body is not JSON')),
            );
          }
          return send(res, 200, JSON.stringify({ input_tokens: estimateInputTokens(parsed) }));
        }
        if (req.method === 'GET' && path === '/models') {
          const created = Math.floor(Date.now() / 1000);
          return send(
            res,
            200,
            JSON.stringify({
              object: 'list',
              data: [
                {
                  id: model,
                  object: 'model',
                  created,
                  owned_by: 'gitbench',
                  type: 'model',
                  display_name: model,
                  created_at: new Date(created * 1000).toISOString(),
                },
              ],
            }),
          );
        }
        req.resume();
        send(
          res,
          404,
          JSON.stringify(
            openAIError(
              404,
              'not_found',
              `${req.method ?? ''} ${req.url ?? ''} is not served (POST /v1/chat/completions, /v1/responses, /v1/messages; GET /v1/models)`,
            ),
          ),
        );
      })();
      handled.catch((error: unknown) => {
        send(
          res,
          500,
          JSON.stringify(
            openAIError(
              500,
              'internal',
              `the gateway failed: ${error instanceof Error ? error.message : String(error)}`,
            ),
          ),
        );
      });
    },
  );
  server.maxConnections = limits.maxConnections;

  rmSync(options.socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The agent runs under another uid inside the container: the socket is the only way in, and all it reaches is this server.
  chmodSync(options.socketPath, 0o666);

  let closing: Promise<void> | null = null;
  return {
    socketPath: options.socketPath,
    calls: () => [...records],
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
        await delivered;
        if (deliveryError) throw deliveryError;
      })();
      return closing;
    },
  };
}
