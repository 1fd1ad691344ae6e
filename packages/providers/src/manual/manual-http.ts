import type { IncomingMessage, ServerResponse } from 'node:http';

/** The HTTP plumbing of the manual endpoint: bounded bodies, JSON replies and errors in OpenAI's shape. */

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) reject(new RequestError(413, `request body over ${MAX_BODY_BYTES} bytes`));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RequestError(400, `the body is not JSON: ${(error as Error).message}`);
  }
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body)}\n`);
}

/** OpenAI's error shape, so the SDK on the other side reports the message. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  send(res, status, { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error' } });
}
