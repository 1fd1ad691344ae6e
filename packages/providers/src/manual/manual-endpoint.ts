import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatRequestSchema, ManualAnswerError, type ManualAnswer } from '@gitbench/core';
import { completionOf, streamCompletion, type MessageAnswer } from './manual-completion';
import { parseJsonBody, readBody, RequestError, send, sendError } from './manual-http';
import { PendingRequests, type PendingRequest, type PendingRequestEvents } from './manual-requests';

export type { MessageAnswer } from './manual-completion';
export type { PendingRequest } from './manual-requests';

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

export interface ManualEndpointOptions extends PendingRequestEvents {
  port?: number;
  host?: string;
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

/** POST /v1/chat/completions: the request waits on the list until a person answers it. */
async function completions(requests: PendingRequests, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const parsed = chatRequestSchema.safeParse(parseJsonBody(await readBody(req)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RequestError(400, `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const request = parsed.data;
  const given = await requests.admit(request, res);
  const completion = completionOf(request, given);
  if (request.stream) streamCompletion(res, completion);
  else send(res, 200, completion);
}

/** The answer a side-channel POST gives: typed text or a call, or an assistant message. */
function givenAnswerOf(body: { answer?: unknown; message?: unknown }): string | MessageAnswer {
  if (typeof body.answer === 'string') return body.answer;
  if (typeof body.message === 'object' && body.message !== null) return body.message as MessageAnswer;
  throw new RequestError(
    400,
    'send {"answer": "<text or a call as typed in the ' +
      'terminal>"} or {"message": {"content": …, "tool_calls": […]}}',
  );
}

/** GET /manual/requests/next?wait=S: 204 when nothing arrives within S seconds (at most 300). */
async function sendNext(requests: PendingRequests, res: ServerResponse, url: URL): Promise<void> {
  const wait = Math.min(Math.max(Number(url.searchParams.get('wait') ?? '0') || 0, 0), 300);
  const next = await requests.next(wait, res);
  if (!next) {
    res.writeHead(204).end();
    return;
  }
  send(res, 200, next);
}

/** The side channel under /manual/requests, for a program playing the model. */
async function sideChannel(
  requests: PendingRequests,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const parts = url.pathname.split('/').filter(Boolean); // manual, requests, [id], [answer]
  if (parts[1] !== 'requests') throw new RequestError(404, `no such path ${url.pathname}`);
  if (parts.length === 2 && req.method === 'GET') return send(res, 200, { pending: requests.list() });
  if (parts.length === 3 && parts[2] === 'next' && req.method === 'GET') return sendNext(requests, res, url);
  if (parts.length === 3 && req.method === 'GET') {
    const entry = requests.get(parts[2]!);
    if (!entry) throw new RequestError(404, `no pending request '${parts[2]}'`);
    return send(res, 200, entry);
  }
  if (parts.length === 4 && parts[3] === 'answer' && req.method === 'POST') {
    const body = parseJsonBody(await readBody(req)) as { answer?: unknown; message?: unknown };
    const parsed = requests.answer(parts[2]!, givenAnswerOf(body));
    return send(res, 200, { answered: parts[2], ...parsed });
  }
  throw new RequestError(405, `${req.method} ${url.pathname} is not served`);
}

/** Every path the endpoint serves; what it refuses goes back as an error in OpenAI's shape. */
function serve(requests: PendingRequests, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://manual');
  const route = async () => {
    if (url.pathname.startsWith('/manual/')) return sideChannel(requests, req, res, url);
    if (url.pathname === '/v1/chat/completions' && req.method === 'POST') return completions(requests, req, res);
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
}

/** Listens as asked (any free port on 127.0.0.1 by default) and says where. */
async function listen(server: Server, options: ManualEndpointOptions): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  return server.address() as AddressInfo;
}

export async function startManualEndpoint(options: ManualEndpointOptions = {}): Promise<ManualEndpoint> {
  const requests = new PendingRequests(options);
  const server: Server = createServer((req, res) => serve(requests, req, res));
  const address = await listen(server, options);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/v1`,
    port: address.port,
    pending: () => requests.list(),
    get: (id) => requests.get(id),
    answer: (id, given) => {
      // Outside HTTP an unknown id is a plain Error: its status code belongs to the side channel.
      try {
        return requests.answer(id, given);
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
