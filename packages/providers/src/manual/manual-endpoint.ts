import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chatRequestSchema,
  compactView,
  ManualAnswerError,
  previousInConversation,
  type ChatRequest,
  type ManualAnswer,
} from '@gitbench/core';
import { completionOf, parseGiven, streamCompletion, type MessageAnswer } from './manual-completion';
import { parseJsonBody, readBody, RequestError, send, sendError } from './manual-http';

export type { MessageAnswer } from './manual-completion';

/**
 * The manual model: an OpenAI-compatible Chat Completions endpoint where a person answers every
 * request. Each request waits, pending, until an answer is given, from the terminal (`gitbench
 * manual`) or over the side channel on the same port, for a program playing the model:
 *
 *   GET  /manual/requests              the pending requests (id, compact view, tools)
 *   GET  /manual/requests/next?wait=S  the oldest pending request, waiting up to S seconds (204 if none)
 *   GET  /manual/requests/<id>         one request: its compact view and the request body as received
 *   POST /manual/requests/<id>/answer  {"answer": "<text or call, as typed>"} or {"message": {"content", "tool_calls"}}
 *
 * The endpoint sees exactly what a model would, since it is where the model would be: the request
 * body is the whole of it. No usage is reported (no tokens were counted), so pages show "—".
 */

export interface PendingRequest {
  id: string;
  /** 1, 2, ... in the order requests arrived. */
  seq: number;
  receivedAt: string;
  request: ChatRequest;
  /** What the terminal prints: the system prompt once per conversation, then only what is new. */
  view: string;
}

export interface ManualEndpointOptions {
  port?: number;
  host?: string;
  /** Called as each request arrives (the terminal shows it). */
  onRequest?: (pending: PendingRequest) => void;
  /** Called when a request is answered, or given up by its client (answer null). */
  onSettled?: (pending: PendingRequest, answer: ManualAnswer | null) => void;
}

export interface ManualEndpoint {
  /** The base URL a profile names: `http://host:port/v1`. */
  readonly url: string;
  readonly port: number;
  pending(): PendingRequest[];
  get(id: string): PendingRequest | undefined;
  /** Checks and gives the answer; throws ManualAnswerError (with why) or an Error for an unknown id. */
  answer(id: string, answer: string | MessageAnswer): ManualAnswer;
  close(): Promise<void>;
}

/** Requests remembered to tell a continued conversation from a new one. */
const REMEMBERED = 64;
interface Waiting extends PendingRequest {
  settle: (answer: ManualAnswer) => void;
}

export async function startManualEndpoint(options: ManualEndpointOptions = {}): Promise<ManualEndpoint> {
  const waiting = new Map<string, Waiting>();
  const remembered: ChatRequest[] = [];
  const nextWaiters = new Set<(p: PendingRequest) => void>();
  let seq = 0;

  const publicOf = ({ settle: _settle, ...p }: Waiting): PendingRequest => p;
  const oldest = (): Waiting | undefined => [...waiting.values()].sort((a, b) => a.seq - b.seq)[0];

  function answer(id: string, given: string | MessageAnswer): ManualAnswer {
    const entry = waiting.get(id);
    if (!entry) throw new RequestError(404, `no pending request '${id}' (answered already, or its client gave up)`);
    const parsed = parseGiven(given, entry.request);
    waiting.delete(id);
    entry.settle(parsed);
    options.onSettled?.(publicOf(entry), parsed);
    return parsed;
  }

  async function completions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = chatRequestSchema.safeParse(parseJsonBody(await readBody(req)));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RequestError(400, `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    const request = parsed.data;
    const id = `req_${++seq}`;
    const previous = previousInConversation(remembered, request);
    const pending: PendingRequest = {
      id,
      seq,
      receivedAt: new Date().toISOString(),
      request,
      view: compactView({ request, previous, label: `request ${seq} (${id})` }),
    };
    remembered.push(request);
    if (remembered.length > REMEMBERED) remembered.shift();
    const answered = new Promise<ManualAnswer>((resolve) => waiting.set(id, { ...pending, settle: resolve }));
    // A client that gives up (its timeout, a cancelled attempt) takes its request off the list.
    res.on('close', () => {
      const entry = waiting.get(id);
      if (entry && !res.writableEnded) {
        waiting.delete(id);
        options.onSettled?.(publicOf(entry), null);
      }
    });
    options.onRequest?.(pending);
    for (const wake of nextWaiters) wake(pending);
    nextWaiters.clear();
    const given = await answered;
    const completion = completionOf(request, given);
    if (request.stream) streamCompletion(res, completion);
    else send(res, 200, completion);
  }

  function nextPending(waitSeconds: number, res: ServerResponse): Promise<PendingRequest | undefined> {
    const now = oldest();
    if (now || waitSeconds <= 0) return Promise.resolve(now ? publicOf(now) : undefined);
    return new Promise((resolve) => {
      const wake = (p: PendingRequest) => {
        clearTimeout(timer);
        resolve(p);
      };
      const timer = setTimeout(() => {
        nextWaiters.delete(wake);
        resolve(undefined);
      }, waitSeconds * 1000);
      nextWaiters.add(wake);
      res.on('close', () => {
        clearTimeout(timer);
        nextWaiters.delete(wake);
      });
    });
  }

  async function sideChannel(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const parts = url.pathname.split('/').filter(Boolean); // manual, requests, [id], [answer]
    if (parts[1] !== 'requests') throw new RequestError(404, `no such path ${url.pathname}`);
    if (parts.length === 2 && req.method === 'GET')
      return send(res, 200, { pending: [...waiting.values()].sort((a, b) => a.seq - b.seq).map(publicOf) });
    if (parts.length === 3 && parts[2] === 'next' && req.method === 'GET') {
      const wait = Math.min(Math.max(Number(url.searchParams.get('wait') ?? '0') || 0, 0), 300);
      const next = await nextPending(wait, res);
      if (!next) {
        res.writeHead(204).end();
        return;
      }
      return send(res, 200, next);
    }
    if (parts.length === 3 && req.method === 'GET') {
      const entry = waiting.get(parts[2]!);
      if (!entry) throw new RequestError(404, `no pending request '${parts[2]}'`);
      return send(res, 200, publicOf(entry));
    }
    if (parts.length === 4 && parts[3] === 'answer' && req.method === 'POST') {
      const body = parseJsonBody(await readBody(req)) as { answer?: unknown; message?: unknown };
      let given: string | MessageAnswer;
      if (typeof body.answer === 'string') given = body.answer;
      else if (typeof body.message === 'object' && body.message !== null) given = body.message as MessageAnswer;
      else
        throw new RequestError(
          400,
          'send {"answer": "<text or a call as typed in the ' +
            'terminal>"} or {"message": {"content": …, "tool_calls": […]}}',
        );
      const parsed = answer(parts[2]!, given);
      return send(res, 200, { answered: parts[2], ...parsed });
    }
    throw new RequestError(405, `${req.method} ${url.pathname} is not served`);
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://manual');
    const route = async () => {
      if (url.pathname.startsWith('/manual/')) return sideChannel(req, res, url);
      if (url.pathname === '/v1/chat/completions' && req.method === 'POST') return completions(req, res);
      if (url.pathname === '/v1/models' && req.method === 'GET')
        return send(res, 200, { object: 'list', data: [{ id: 'manual', object: 'model', owned_by: 'a person' }] });
      throw new RequestError(
        404,
        `no such path ${req.method} ${url.pathname} (this endpoint ` +
          `serves POST /v1/chat/completions and /manual/requests)`,
      );
    };
    route().catch((error: unknown) => {
      if (error instanceof RequestError) sendError(res, error.status, error.message);
      else if (error instanceof ManualAnswerError) sendError(res, 400, error.message);
      else sendError(res, 500, (error as Error).message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/v1`,
    port: address.port,
    pending: () => [...waiting.values()].sort((a, b) => a.seq - b.seq).map(publicOf),
    get: (id) => {
      const entry = waiting.get(id);
      return entry ? publicOf(entry) : undefined;
    },
    answer: (id, given) => {
      try {
        return answer(id, given);
      } catch (error) {
        if (error instanceof RequestError) throw new Error(error.message);
        throw error;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
