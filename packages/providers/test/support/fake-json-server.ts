import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server answering JSON, scripted per test: the base of the fakes that speak a hosted
 * model's protocol (Anthropic's Messages here, OpenAI's Chat Completions in the gateway's tests). It
 * records what it was sent, and when.
 */
export interface JsonRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  receivedAt: number;
}

export interface JsonReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  delayMs?: number;
}

export interface FakeJsonServer {
  /** http://127.0.0.1:<port>, no path. */
  origin: string;
  requests: JsonRequest[];
  close(): Promise<void>;
}

export async function startFakeJsonServer(
  reply: (request: JsonRequest, index: number) => JsonReply,
): Promise<FakeJsonServer> {
  const requests: JsonRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
        receivedAt: Date.now(),
      };
      const r = reply(seen, requests.push(seen) - 1);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
        res.end(JSON.stringify(r.json ?? {}));
      }, r.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
