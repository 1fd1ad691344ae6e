import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayCallErrorKind, GatewayCallRecord } from '@gitbench/core';
import { askBackend, backendFailure, type GatewayBackend } from './backends';
import type { BudgetTracker } from './budget';
import type { CallTrace } from './call-trace';
import { GatewayRequestError, type BackendAnswer, type GatewayTurn } from './conversation';
import type { GatewayLimits } from './limits';
import { BodyTooLarge, readBody, send, type Slots } from './http';

/** What every call shares: the gateway's limits, budget, slots, backend and shutdown, and where records go. */
export interface CallContext {
  limits: GatewayLimits;
  budget: BudgetTracker;
  slots: Slots;
  backend: GatewayBackend;
  beforeCall?: (seq: number) => Promise<void>;
  shutdown: AbortSignal;
  record: (call: GatewayCallRecord) => void;
}

interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  trace: CallTrace;
}

/** A call that ends in an error answer: each step throws one, and handleCall answers and records it once. */
class CallFailed extends Error {
  constructor(
    readonly status: number,
    readonly kind: GatewayCallErrorKind,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Stop reading: the rest of an oversized body is never buffered, and the connection ends. */
    readonly closeConnection = false,
  ) {
    super(message);
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One model call: read and parse the request, wait for a slot, check the budget, ask the backend, send
 * the answer in the agent's protocol. Every ending, answer or error, is recorded once.
 */
export async function handleCall(ctx: CallContext, call: Call): Promise<void> {
  try {
    const turn = await readTurn(ctx, call);
    const slot = ctx.slots.tryAcquire();
    if (slot === false) {
      const most = ctx.limits.maxConcurrentCalls + ctx.limits.maxQueuedCalls;
      throw new CallFailed(
        429,
        'overloaded',
        'too_many_requests',
        `more than ${most} model calls at once; retry later`,
        {
          'retry-after': '1',
        },
      );
    }
    await slot;
    try {
      const answer = await askWithinBudget(ctx, call.trace, turn, call.res);
      respond(ctx, call, turn, answer);
    } finally {
      ctx.slots.release();
    }
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
    const { res, req, trace } = call;
    send(res, error.status, JSON.stringify(trace.codec.error(error.status, error.code, error.message)), error.headers);
    ctx.record(
      trace.record({
        status: error.status,
        response: null,
        error: error.message,
        errorKind: error.kind,
        answer: null,
        streamed: false,
      }),
    );
    if (error.closeConnection) res.on('finish', () => req.destroy());
  }
}

/** The request's body, its JSON and the turn the agent's protocol makes of it, each kept on the trace. */
async function readTurn(ctx: CallContext, { req, trace }: Call): Promise<GatewayTurn> {
  const max = ctx.limits.maxRequestBytes;
  const body = await readBody(req, max).catch((error: unknown) => {
    if (error instanceof BodyTooLarge) {
      const message = `the request body is larger than the gateway takes (${max} bytes)`;
      throw new CallFailed(413, 'bad_request', 'request_too_large', message, { connection: 'close' }, true);
    }
    throw new CallFailed(400, 'bad_request', 'bad_request', `the request could not be read: ${errorText(error)}`);
  });
  try {
    trace.request = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new CallFailed(400, 'bad_request', 'invalid_json', `the request body is not JSON: ${errorText(error)}`);
  }
  try {
    trace.turn = trace.codec.parse(trace.request);
  } catch (error) {
    if (error instanceof GatewayRequestError)
      throw new CallFailed(error.status, error.kind, 'invalid_request', error.message);
    throw error;
  }
  return trace.turn;
}

/** Asks the backend once the budget admits the call; the agent hanging up, or the gateway closing, aborts it. */
async function askWithinBudget(
  ctx: CallContext,
  trace: CallTrace,
  turn: GatewayTurn,
  res: ServerResponse,
): Promise<BackendAnswer> {
  const limit = ctx.budget.check();
  if (limit) throw new CallFailed(400, 'budget', 'budget_exhausted', limit.message);
  ctx.budget.admit();
  const beforeCall = ctx.beforeCall;
  if (beforeCall) await trace.timeHook(() => beforeCall(trace.seq));
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('the agent closed the connection'));
  });
  const onShutdown = () => abort.abort(ctx.shutdown.reason);
  ctx.shutdown.addEventListener('abort', onShutdown, { once: true });
  const providerStart = performance.now();
  try {
    const answer = await askBackend(ctx.backend, turn, abort.signal);
    trace.providerMs = performance.now() - providerStart;
    trace.retries = answer.retries;
    ctx.budget.spend(answer);
    return answer;
  } catch (error) {
    trace.providerMs = performance.now() - providerStart;
    throw backendCallFailed(error, abort.signal, trace);
  } finally {
    ctx.shutdown.removeEventListener('abort', onShutdown);
  }
}

/** The error answer for a backend call that failed: the request's fault, a cancel, or the provider's answer. */
function backendCallFailed(error: unknown, signal: AbortSignal, trace: CallTrace): CallFailed {
  if (error instanceof GatewayRequestError)
    return new CallFailed(error.status, error.kind, 'invalid_request', error.message);
  if (signal.aborted) {
    // 499 as proxies log it: nobody is left to read the answer.
    const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
    return new CallFailed(499, 'cancelled', 'cancelled', `the call was cancelled: ${reason}`);
  }
  const failure = backendFailure(error);
  trace.retries = failure.retries;
  const headers: Record<string, string> = {};
  if (failure.status === 429) {
    const ms = failure.retryAfterMs ?? 1000;
    headers['retry-after'] = String(Math.max(1, Math.ceil(ms / 1000)));
    headers['retry-after-ms'] = String(Math.round(ms));
  }
  return new CallFailed(failure.status, failure.kind, failure.code, failure.message, headers);
}

/** Sends the answer in the agent's protocol, streamed if it asked, within the response cap. */
function respond(ctx: CallContext, { res, trace }: Call, turn: GatewayTurn, answer: BackendAnswer): void {
  const codec = trace.codec;
  const rendered = turn.stream ? codec.stream(answer, turn) : null;
  const text = rendered ? rendered.events : JSON.stringify(codec.render(answer, turn));
  const max = ctx.limits.maxResponseBytes;
  if (Buffer.byteLength(text) > max) {
    const message = `the model's answer renders larger than the gateway sends (${max} bytes)`;
    throw new CallFailed(502, 'response_too_large', 'response_too_large', message);
  }
  const answered = { status: 200, error: null, errorKind: null, answer };
  if (rendered) {
    if (!res.destroyed) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(text);
    }
    ctx.record(trace.record({ ...answered, response: rendered.assembled, streamed: true }));
  } else {
    send(res, 200, text);
    ctx.record(trace.record({ ...answered, response: JSON.parse(text) as unknown, streamed: false }));
  }
}
