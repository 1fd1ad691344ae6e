import type { IncomingMessage, ServerResponse } from 'node:http';

/** The HTTP plumbing the gateway's routes share: capped bodies, JSON answers, and a bounded queue of calls. */

export class BodyTooLarge extends Error {}

/** The request's body, refused (BodyTooLarge) as soon as it declares or sends more than `max` bytes. */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
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

export function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value));
}

/** A FIFO of waiting calls in front of a fixed number of slots. */
export class Slots {
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
