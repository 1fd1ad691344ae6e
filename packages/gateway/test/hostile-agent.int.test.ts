import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentChatRequest, AgentChatResult } from '@gitbench/providers';
import { startModelGateway, type GatewayLimits, type ModelGateway } from '../src';
import { providerBackend } from './support/backend';
import { completion, startFakeProvider, type FakeProvider } from './support/fake-openai';

/**
 * The agent is an adversary: it may send a huge or malformed body, hold a connection open byte by
 * byte, or fire thousands of calls at once. None of it may make the gateway buffer without bound, ask
 * the provider more than its slots allow, or stop answering the next honest call.
 */

const LIMITS: Partial<GatewayLimits> = {
  maxRequestBytes: 64 * 1024,
  maxResponseBytes: 32 * 1024,
  maxConcurrentCalls: 4,
  maxQueuedCalls: 16,
  maxConnections: 64,
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
};

let dir: string;
let provider: FakeProvider;
let gateway: ModelGateway;
/** The most provider calls seen in flight at once. */
let peak = 0;
let content = 'ok';

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-hostile-'));
  provider = await startFakeProvider(() => ({ json: completion({ content }), delayMs: 30 }));
  const backend = providerBackend(provider.url);
  let inFlight = 0;
  const chat = async (r: AgentChatRequest): Promise<AgentChatResult> => {
    peak = Math.max(peak, ++inFlight);
    try {
      return await backend.chat(r);
    } finally {
      inFlight -= 1;
    }
  };
  peak = 0;
  content = 'ok';
  gateway = await startModelGateway({
    socketPath: path.join(dir, 'model.sock'),
    backend: { ...backend, chat },
    budget: {},
    limits: LIMITS,
  });
});

afterEach(async () => {
  await gateway.close();
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One request over the socket on its own connection; `body` chunks are written one by one. */
function send(pathname: string, body: string | string[], headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: gateway.socketPath,
        path: pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    for (const chunk of Array.isArray(body) ? body : [body]) req.write(chunk);
    req.end();
  });
}

const honest = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

async function stillAnswers(): Promise<void> {
  const reply = await send('/v1/chat/completions', honest);
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body)).toMatchObject({ choices: [{ message: { content } }] });
}

describe('a hostile agent against the gateway', () => {
  it('refuses a body over the cap with 413, from its declared length or as it streams in', async () => {
    const big = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(100 * 1024) }] });
    const declared = await send('/v1/messages', big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('larger than the gateway takes (65536 bytes)') },
    });
    // Chunked, with no length declared: cut off once the count passes the cap.
    const chunked = await send(
      '/v1/chat/completions',
      Array.from({ length: 40 }, () => 'x'.repeat(4096)),
      { 'transfer-encoding': 'chunked' },
    );
    expect(chunked.status).toBe(413);
    expect(gateway.calls().map((c) => [c.status, c.errorKind, c.request])).toEqual([
      [413, 'bad_request', null],
      [413, 'bad_request', null],
    ]);
    expect(provider.requests).toHaveLength(0);
    await stillAnswers();
  });

  it('answers a body that is not JSON, or not the protocol, with 400 naming the problem', async () => {
    const notJson = await send('/v1/chat/completions', '{"model": "m", "messages": [');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toMatchObject({
      error: { code: 'invalid_json', message: expect.stringContaining('not JSON') },
    });
    const wrongRole = await send(
      '/v1/chat/completions',
      JSON.stringify({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'wizard', content: 'b' },
        ],
      }),
    );
    expect(JSON.parse(wrongRole.body)).toMatchObject({
      error: { message: "messages[1].role: 'wizard' is not one of system, developer, user, assistant, tool" },
    });
    const badBlock = await send(
      '/v1/messages',
      JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }),
    );
    expect(JSON.parse(badBlock.body)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages[0].content[0].tool_use_id: must be a string' },
    });
    const notAnObject = await send('/v1/responses', '[1,2,3]');
    expect(JSON.parse(notAnObject.body)).toMatchObject({ error: { message: 'body: must be a JSON object' } });
    expect(provider.requests).toHaveLength(0);
    await stillAnswers();
  });

  it('sends 502 instead of an answer larger than the response cap', async () => {
    content = 'y'.repeat(40 * 1024);
    const reply = await send('/v1/chat/completions', honest);
    expect(reply.status).toBe(502);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'response_too_large' } });
    expect(gateway.calls()[0]).toMatchObject({ errorKind: 'response_too_large', response: null });
  });

  it(
    'closes a connection whose headers never finish, and ' + 'one whose body never finishes, while answering others',
    async () => {
      const hold = (text: string) =>
        new Promise<string>((resolve) => {
          const socket = connect(gateway.socketPath, () => socket.write(text));
          let got = '';
          socket.on('data', (d) => (got += d.toString('utf8')));
          socket.on('close', () => resolve(got));
          socket.on('error', () => undefined);
        });
      const headers = hold('POST /v1/messages HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      const body = hold(
        'POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: ' +
          'application/json\r\nContent-Length: 1000\r\n\r\n{"messages":',
      );
      await stillAnswers();
      // Node answers 408 to a request past its time and closes; either way the connection ends.
      expect(await headers).toMatch(/^$|408/);
      expect(await body).toMatch(/^$|408/);
      await stillAnswers();
    },
  );

  it(
    'holds 2000 parallel calls to its slots and queue: the rest ' +
      'get 429, time out or are dropped, and it answers afterwards',
    async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 2000 }, () =>
          send('/v1/chat/completions', honest).then(
            (r) => String(r.status),
            () => 'dropped',
          ),
        ),
      );
      const count = (k: string) => outcomes.filter((o) => o === k).length;
      // 408: Node's own answer to a request not read within requestTimeoutMs, which a busy machine may reach here.
      expect(outcomes.filter((o) => !['200', '429', '408', 'dropped'].includes(o))).toEqual([]);
      expect(count('200')).toBeGreaterThan(0);
      expect(count('429')).toBeGreaterThan(0);
      // Never more provider calls at once than slots.
      expect(peak).toBeLessThanOrEqual(4);
      expect(provider.requests.length).toBe(count('200'));
      // Every answered or refused call is recorded (a request timed out while its body came in too, as unreadable);
      // dropped connections never reached a handler.
      expect(gateway.calls().length).toBeGreaterThanOrEqual(count('200') + count('429'));
      expect(gateway.calls().length).toBeLessThanOrEqual(count('200') + count('429') + count('408'));
      expect(
        gateway
          .calls()
          .filter((c) => c.status === 429)
          .every((c) => c.errorKind === 'overloaded'),
      ).toBe(true);
      await stillAnswers();
    },
  );
});
