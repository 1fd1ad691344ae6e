/**
 * `npm run bench:gateway`: the model gateway's own overhead per call, provider excluded (issue #27's
 * target: p50 at most 5 ms).
 *
 * The backend answers at once from memory (a provider whose answer is ready, so the provider's time is
 * ~0 and is subtracted anyway), and a keep-alive client on the Unix socket sends each protocol's request,
 * streamed and not, for two conversation sizes: a first turn (system prompt, task, two tools) and a late
 * turn of 40 tool calls and results of 2 KB each (about what an agent sends after a while; Claude Code's
 * first request alone carries ~60 KB of system prompt and tool schemas). Two figures per case:
 *   - gateway: the record's gatewayMs, the time inside the gateway's handler (read the body, parse,
 *     queue, render, write, record), provider and hooks excluded;
 *   - round trip: what the client waits, socket and HTTP included, minus the provider's time.
 *
 *   npm run bench:gateway -- [--calls N] [--warmup N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UNKNOWN_COST } from '@gitbench/core';
import { startModelGateway, type ModelGateway } from '@gitbench/gateway';
import type { AgentChatResult } from '@gitbench/providers';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const CALLS = Number(flag('calls', '400'));
const WARMUP = Number(flag('warmup', '50'));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const ms = (v: number) => `${v.toFixed(2).padStart(7)} ms`;

/** A provider answering at once: a tool call with usage, as createAgentChat returns it. */
const ANSWER: AgentChatResult = {
  content: 'Running the next command.',
  reasoning: null,
  toolCalls: [
    { id: 'call_bench', name: 'Bash', arguments: JSON.stringify({ command: 'git status --short --branch' }) },
  ],
  finishReason: 'tool_calls',
  usage: { inputTokens: 12_000, outputTokens: 40, reasoningTokens: null, totalTokens: 12_040 },
  cost: UNKNOWN_COST,
  apiDurationMs: 0,
  retries: [],
  route: {
    provider: 'bench',
    profile: 'bench',
    baseUrl: null,
    requestedModel: 'bench',
    servedModel: 'bench',
    responseId: null,
    upstreamProvider: null,
    simulated: false,
  },
};

const SYSTEM = 'You are a coding agent working in a git repository. '.repeat(40);
const BASH_SCHEMA = {
  type: 'object',
  properties: { command: { type: 'string' }, description: { type: 'string' } },
  required: ['command'],
};
const READ_SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const OUTPUT = 'M  src/file.ts\n'.repeat(146); // ~2 KB of tool output

/** One request body per protocol, with `turns` earlier tool calls and their results. */
function body(protocol: 'chat' | 'responses' | 'messages', turns: number, stream: boolean): string {
  const ids = Array.from({ length: turns }, (_, i) => `call_${i}`);
  const args = (i: number) => JSON.stringify({ command: `git log -n ${i}` });
  if (protocol === 'chat') {
    return JSON.stringify({
      model: 'agent-model',
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: 'Rebase topic onto main and resolve the conflicts.' },
        ...ids.flatMap((id, i) => [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id, type: 'function', function: { name: 'Bash', arguments: args(i) } }],
          },
          { role: 'tool', tool_call_id: id, content: OUTPUT },
        ]),
      ],
      tools: [
        { type: 'function', function: { name: 'Bash', description: 'Run a command', parameters: BASH_SCHEMA } },
        { type: 'function', function: { name: 'Read', description: 'Read a file', parameters: READ_SCHEMA } },
      ],
    });
  }
  if (protocol === 'responses') {
    return JSON.stringify({
      model: 'agent-model',
      stream,
      store: false,
      instructions: SYSTEM,
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Rebase topic onto main and resolve the conflicts.' }] },
        ...ids.flatMap((id, i) => [
          { type: 'function_call', call_id: id, name: 'Bash', arguments: args(i) },
          { type: 'function_call_output', call_id: id, output: OUTPUT },
        ]),
      ],
      tools: [
        { type: 'function', name: 'Bash', description: 'Run a command', parameters: BASH_SCHEMA, strict: false },
        { type: 'function', name: 'Read', description: 'Read a file', parameters: READ_SCHEMA, strict: false },
      ],
    });
  }
  return JSON.stringify({
    model: 'agent-model',
    max_tokens: 4096,
    stream,
    system: [{ type: 'text', text: SYSTEM }],
    messages: [
      { role: 'user', content: 'Rebase topic onto main and resolve the conflicts.' },
      ...ids.flatMap((id, i) => [
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: JSON.parse(args(i)) as unknown }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: OUTPUT }] },
      ]),
    ],
    tools: [
      { name: 'Bash', description: 'Run a command', input_schema: BASH_SCHEMA },
      { name: 'Read', description: 'Read a file', input_schema: READ_SCHEMA },
    ],
  });
}

const ROUTES = { chat: '/v1/chat/completions', responses: '/v1/responses', messages: '/v1/messages' } as const;

function call(gateway: ModelGateway, agent: Agent, route: string, payload: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        socketPath: gateway.socketPath,
        path: route,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${route} answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-gateway-'));
  const gateway = await startModelGateway({
    socketPath: path.join(dir, 'model.sock'),
    backend: { kind: 'provider', model: 'bench', chat: () => Promise.resolve(ANSWER) },
    budget: {},
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  console.log(
    `Model gateway overhead per call, provider excluded (${CALLS} calls per case ` +
      `after ${WARMUP} warm-up, one keep-alive connection, Node ${process.version})`,
  );
  console.log(
    `${'case'.padEnd(36)} ${'request'.padStart(9)}   ${'gateway p50'.padStart(10)} ${'p95'.padStart(10)}   ` +
      `${'round trip p50'.padStart(10)} ${'p95'.padStart(10)}`,
  );
  const allGateway: number[] = [];
  try {
    for (const turns of [0, 40]) {
      for (const protocol of ['chat', 'responses', 'messages'] as const) {
        for (const stream of [false, true]) {
          const payload = body(protocol, turns, stream);
          for (let i = 0; i < WARMUP; i++) await call(gateway, agent, ROUTES[protocol], payload);
          const before = gateway.calls().length;
          const trips: number[] = [];
          for (let i = 0; i < CALLS; i++) trips.push(await call(gateway, agent, ROUTES[protocol], payload));
          const records = gateway.calls().slice(before);
          const inside = records.map((r) => r.gatewayMs);
          const roundTrip = trips.map((t, i) => t - records[i]!.providerMs);
          allGateway.push(...inside);
          const name = `${protocol}${stream ? ' stream' : ''}, ${turns === 0 ? 'first turn' : `${turns} turns`}`;
          console.log(
            `${name.padEnd(36)} ${`${(Buffer.byteLength(payload) / 1024).toFixed(0)} KB`.padStart(9)}   ` +
              `${ms(percentile(inside, 50))} ${ms(percentile(inside, 95))}   ` +
              `${ms(percentile(roundTrip, 50))} ${ms(percentile(roundTrip, 95))}`,
          );
        }
      }
    }
    console.log(
      `all cases: gateway p50 ${ms(percentile(allGateway, 50))}, ` +
        `p95 ${ms(percentile(allGateway, 95))} (target: p50 <= 5 ms)`,
    );
  } finally {
    agent.destroy();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
