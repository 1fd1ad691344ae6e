import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callsToTrajectory, gatewayCallRecordSchema } from '@gitbench/core';
import { startModelGateway, type ModelGateway } from '../src';
import { providerBackend, PROVIDER_KEY } from './support/backend';
import { completion, startFakeProvider, type FakeProvider } from './support/fake-openai';
import { forwardToSocket } from './support/forwarder';

/**
 * The gateway driven by the real openai and @anthropic-ai/sdk clients (through a loopback forwarder
 * to its Unix socket, as inside the sandbox), answered by a local server speaking OpenAI Chat
 * Completions as the profile's provider: one tool call, its result, a closing answer, in each protocol,
 * streamed and not; then the recorded calls rebuilt into trajectory steps.
 */

const BASH = {
  name: 'Bash',
  description: 'Run a shell command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};

let dir: string;
let provider: FakeProvider;
let gateway: ModelGateway;
let forwarder: { url: string; close(): Promise<void> };

/** The provider's script: first a call of Bash, then a closing answer. */
function twoTurns() {
  return (_r: unknown, i: number) =>
    i % 2 === 0
      ? {
          json: completion({
            content: 'Looking at the log.',
            toolCalls: [{ id: `call_p${i}`, name: 'Bash', arguments: '{"command":"git log --oneline"}' }],
            usage: [120, 15],
          }),
        }
      : { json: completion({ content: 'The last commit is abc123.', usage: [180, 9] }) };
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-'));
  provider = await startFakeProvider(twoTurns());
  gateway = await startModelGateway({
    socketPath: path.join(dir, 'model.sock'),
    backend: providerBackend(provider.url),
    budget: {},
  });
  forwarder = await forwardToSocket(gateway.socketPath);
});

afterEach(async () => {
  await forwarder.close();
  await gateway.close();
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

function checkRecords(expectedProtocol: string, streamed: boolean) {
  const calls = gateway.calls();
  expect(calls).toHaveLength(2);
  for (const c of calls) {
    expect(gatewayCallRecordSchema.parse(c)).toEqual(c);
    expect(c).toMatchObject({
      protocol: expectedProtocol,
      status: 200,
      error: null,
      streamed,
      model: 'gpt-4o-mini-2024-07-18',
      tools: ['Bash'],
    });
    expect(JSON.stringify(c)).not.toContain(PROVIDER_KEY);
  }
  expect(calls[0]).toMatchObject({
    seq: 1,
    inputTokens: 120,
    outputTokens: 15,
    retries: 0,
    costEstimated: true,
    toolResults: [],
  });
  expect(calls[0]!.costUsd).toBeCloseTo((120 * 0.15 + 15 * 0.6) / 1e6, 12);
  expect(calls[1]).toMatchObject({
    seq: 2,
    inputTokens: 180,
    outputTokens: 9,
    toolResults: [{ callId: 'call_p0', name: 'Bash', content: 'abc123 first commit', isError: false }],
  });
  // The provider got the conversation in its own protocol, with the stored key and the target's model.
  expect(provider.requests[1]!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
  expect(provider.requests[1]!.body).toMatchObject({
    model: 'gpt-4o-mini',
    tools: [{ type: 'function', function: { name: 'Bash', parameters: BASH.parameters } }],
  });
  const sent = provider.requests[1]!.body.messages as Record<string, unknown>[];
  expect(sent.slice(-2)).toEqual([
    {
      role: 'assistant',
      content: 'Looking at the log.',
      tool_calls: [
        { id: 'call_p0', type: 'function', function: { name: 'Bash', arguments: '{"command":"git log --oneline"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_p0', content: 'abc123 first commit' },
  ]);
  const steps = callsToTrajectory(calls);
  expect(steps).toHaveLength(2);
  expect(steps[0]).toMatchObject({
    index: 0,
    message: { content: 'Looking at the log.' },
    toolCalls: [{ id: 'call_p0', name: 'Bash', arguments: { command: 'git log --oneline' }, parseError: null }],
    results: [{ callId: 'call_p0', name: 'Bash', output: 'abc123 first commit', isError: false }],
    usage: { inputTokens: 120, outputTokens: 15, totalTokens: 135 },
  });
  expect(steps[1]).toMatchObject({
    index: 1,
    message: { content: 'The last commit is abc123.' },
    toolCalls: [],
    results: [],
    finishReason: 'stop',
  });
}

describe('OpenAI Chat Completions through the gateway', () => {
  const client = () => new OpenAI({ baseURL: `${forwarder.url}/v1`, apiKey: 'dummy', maxRetries: 0 });
  const tools = [{ type: 'function' as const, function: BASH }];

  it('answers a tool call, takes its result and closes, not streamed', async () => {
    const first = await client().chat.completions.create({
      model: 'agent-asks-this',
      messages: [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: 'What is the last commit?' },
      ],
      tools,
    });
    expect(first.model).toBe('agent-asks-this');
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({
      id: 'call_p0',
      type: 'function',
      function: { name: 'Bash', arguments: '{"command":"git log --oneline"}' },
    });
    expect(first.usage).toMatchObject({ prompt_tokens: 120, completion_tokens: 15, total_tokens: 135 });
    const second = await client().chat.completions.create({
      model: 'agent-asks-this',
      messages: [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: 'What is the last commit?' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: 'abc123 first commit' },
      ],
      tools,
    });
    expect(second.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'The last commit is abc123.' },
    });
    checkRecords('chat_completions', false);
    expect(gateway.calls()[1]!.requestedModel).toBe('agent-asks-this');
  });

  it('streams chunks the SDK assembles into the same tool call, with a usage chunk when asked', async () => {
    const stream = await client().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'What is the last commit?' }],
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const args: string[] = [];
    let id = '';
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? '';
      for (const tc of choice.delta.tool_calls ?? []) {
        if (tc.id) id = tc.id;
        args[tc.index] = (args[tc.index] ?? '') + (tc.function?.arguments ?? '');
      }
      finish = choice.finish_reason ?? finish;
    }
    expect({ text, id, args, finish }).toEqual({
      text: 'Looking at the log.',
      id: 'call_p0',
      args: ['{"command":"git log --oneline"}'],
      finish: 'tool_calls',
    });
    expect(usage).toMatchObject({ prompt_tokens: 120, completion_tokens: 15 });
    // The SDK's own stream helper reads the same events into a whole completion.
    const final = await client()
      .chat.completions.stream({
        model: 'm',
        messages: [
          { role: 'user', content: 'What is the last commit?' },
          {
            role: 'assistant',
            content: 'Looking at the log.',
            tool_calls: [{ id, type: 'function', function: { name: 'Bash', arguments: args[0]! } }],
          },
          { role: 'tool', tool_call_id: id, content: 'abc123 first commit' },
        ],
        tools,
      })
      .finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('The last commit is abc123.');
    checkRecords('chat_completions', true);
    // A streamed call is recorded as the completion it assembles to.
    expect(gateway.calls()[0]!.response).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { tool_calls: [{ id: 'call_p0' }] } }],
    });
  });
});

/** The next input of a Responses conversation: the question, the model's output, and the result of its call. */
const withResult = (first: OpenAI.Responses.Response): OpenAI.Responses.ResponseInputItem[] => [
  { role: 'user', content: 'What is the last commit?' },
  ...(first.output as OpenAI.Responses.ResponseInputItem[]),
  { type: 'function_call_output', call_id: 'call_p0', output: 'abc123 first commit' },
];

describe('OpenAI Responses through the gateway', () => {
  const client = () => new OpenAI({ baseURL: `${forwarder.url}/v1`, apiKey: 'dummy', maxRetries: 0 });
  const tools = [
    {
      type: 'function' as const,
      name: 'Bash',
      description: BASH.description,
      parameters: BASH.parameters,
      strict: false,
    },
  ];

  it('answers function_call items and takes function_call_output back, not streamed', async () => {
    const first = await client().responses.create({
      model: 'codex-model',
      instructions: 'You are an agent.',
      input: 'What is the last commit?',
      tools,
      store: false,
    });
    expect(first.status).toBe('completed');
    expect(first.output_text).toBe('Looking at the log.');
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_p0',
      name: 'Bash',
      arguments: '{"command":"git log --oneline"}',
    });
    const second = await client().responses.create({
      model: 'codex-model',
      instructions: 'You are an agent.',
      input: withResult(first),
      tools,
      store: false,
    });
    expect(second.output_text).toBe('The last commit is abc123.');
    expect(second.usage).toMatchObject({ input_tokens: 180, output_tokens: 9, total_tokens: 189 });
    checkRecords('responses', false);
  });

  it('streams response events the SDK assembles into the same output', async () => {
    const stream = client().responses.stream({
      model: 'codex-model',
      input: [{ role: 'user', content: 'What is the last commit?' }],
      tools,
      store: false,
    });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const first = await stream.finalResponse();
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(first.output.find((o) => o.type === 'function_call')).toMatchObject({
      call_id: 'call_p0',
      arguments: '{"command":"git log --oneline"}',
    });
    const second = await client()
      .responses.stream({
        model: 'codex-model',
        input: withResult(first),
        tools,
        store: false,
      })
      .finalResponse();
    expect(second.output_text).toBe('The last commit is abc123.');
    checkRecords('responses', true);
  });
});

describe('Anthropic Messages through the gateway', () => {
  const client = () => new Anthropic({ baseURL: forwarder.url, apiKey: 'dummy', maxRetries: 0 });
  const tools = [
    { name: 'Bash', description: BASH.description, input_schema: BASH.parameters as Anthropic.Tool.InputSchema },
  ];

  async function conversation(stream: boolean) {
    const ask = (messages: Anthropic.MessageParam[]) =>
      stream
        ? client()
            .messages.stream({ model: 'claude-x', max_tokens: 1024, system: 'You are an agent.', messages, tools })
            .finalMessage()
        : client().messages.create({
            model: 'claude-x',
            max_tokens: 1024,
            system: [{ type: 'text', text: 'You are an agent.' }],
            messages,
            tools,
          });
    const question: Anthropic.MessageParam = { role: 'user', content: 'What is the last commit?' };
    const first = await ask([question]);
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'text', text: 'Looking at the log.', citations: null },
      expect.objectContaining({
        type: 'tool_use',
        id: 'call_p0',
        name: 'Bash',
        input: { command: 'git log --oneline' },
      }),
    ]);
    expect(first.usage).toMatchObject({ input_tokens: 120, output_tokens: 15 });
    const second = await ask([
      question,
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_p0', content: 'abc123 first commit' }] },
    ]);
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toEqual([{ type: 'text', text: 'The last commit is abc123.', citations: null }]);
    expect(second.model).toBe('claude-x');
  }

  it('answers tool_use blocks and takes tool_result blocks back, not streamed', async () => {
    await conversation(false);
    checkRecords('messages', false);
  });

  it('streams message events the SDK assembles into the same message', async () => {
    await conversation(true);
    checkRecords('messages', true);
  });
});

describe('the other routes', () => {
  it('lists the target model, counts tokens roughly, and answers unknown paths with 404', async () => {
    const models = await fetch(`${forwarder.url}/v1/models`).then((r) => r.json());
    expect(models).toMatchObject({ object: 'list', data: [{ id: 'gpt-4o-mini' }] });
    const count = await new Anthropic({ baseURL: forwarder.url, apiKey: 'dummy' }).messages.countTokens({
      model: 'claude-x',
      messages: [{ role: 'user', content: 'x'.repeat(400) }],
    });
    expect(count.input_tokens).toBeGreaterThan(100);
    const missing = await fetch(`${forwarder.url}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      error: { message: expect.stringContaining('/v1/embeddings is not served') },
    });
    // Without the /v1 prefix too.
    const plain = await new OpenAI({ baseURL: forwarder.url, apiKey: 'dummy', maxRetries: 0 }).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(plain.choices[0]!.message.tool_calls?.[0]).toMatchObject({ function: { name: 'Bash' } });
    expect(gateway.calls()).toHaveLength(1);
  });
});
