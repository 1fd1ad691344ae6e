import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, RetriesExhaustedError } from '@gitbench/core';
import { RequestBudget } from '../src/budget';
import { createAnthropicProvider } from '../src/anthropic';
import {
  anthropicError,
  anthropicMessage,
  startFakeAnthropic,
  type AnthropicReply,
  type FakeAnthropic,
} from './support/fake-anthropic';
import { FAST_POLICY, TEST_KEY, testProfile } from './support/profiles';

/** The native Anthropic provider against a local server speaking the Messages API. */

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function provider(reply: (i: number) => AnthropicReply) {
  server = await startFakeAnthropic((_r, i) => reply(i));
  return createAnthropicProvider({
    profile: testProfile({
      name: 'claude',
      provider: 'anthropic',
      baseUrl: server.url,
      apiKeyEnv: 'ANTHROPIC_API_KEY',
    }),
    apiKey: TEST_KEY,
    budget: new RequestBudget(),
    capacityGroupOf: (m) => `anthropic:${m}`,
    policy: FAST_POLICY,
    random: () => 0.5,
  });
}

describe('the Anthropic provider', () => {
  it(
    'carries an agent turn: system apart, tool calls as tool_use, ' +
      'results as tool_result, one user turn for results and text',
    async () => {
      const p = await provider(() => ({
        json: anthropicMessage({
          text: 'Committing.',
          thinking: 'Staged already.',
          toolUse: [{ id: 'toolu_2', name: 'bash', input: { command: 'git commit -m x' } }],
          usage: [300, 25],
        }),
      }));
      const result = await p.chat!({
        model: 'claude-test-model#high',
        protocol: 'native',
        tools: [
          {
            name: 'bash',
            description: 'Run',
            parameters: { type: 'object', properties: { command: { type: 'string' } } },
          },
        ],
        messages: [
          { role: 'system', content: 'You are an agent.' },
          { role: 'user', content: 'Commit.' },
          {
            role: 'assistant',
            content: null,
            toolCalls: [{ id: 'toolu_1', name: 'bash', arguments: '{"command":"git add -A"}' }],
          },
          { role: 'tool', callId: 'toolu_1', name: 'bash', content: '' },
          { role: 'user', content: 'Go on.' },
        ],
      });
      const sent = server!.requests[0]!;
      expect(sent.url).toBe('/v1/messages');
      // This SDK version sends the key as a bearer token (older ones sent x-api-key); either way it is the stored key.
      expect(sent.headers.authorization ?? sent.headers['x-api-key']).toMatch(new RegExp(`^(Bearer )?${TEST_KEY}$`));
      expect(sent.body).toMatchObject({
        model: 'claude-test-model',
        system: 'You are an agent.',
        max_tokens: 8192 + 24_576,
        thinking: { type: 'enabled', budget_tokens: 24_576 },
        tools: [{ name: 'bash', description: 'Run', input_schema: { type: 'object' } }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Commit.' }] },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'git add -A' } }],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: '' },
              { type: 'text', text: 'Go on.' },
            ],
          },
        ],
      });
      expect(result).toMatchObject({
        content: 'Committing.',
        reasoning: 'Staged already.',
        toolCalls: [{ id: 'toolu_2', name: 'bash', arguments: '{"command":"git commit -m x"}' }],
        finishReason: 'tool_calls',
        usage: { inputTokens: 300, outputTokens: 25, totalTokens: 325 },
        cost: { source: 'unknown', usd: null },
        route: { provider: 'anthropic', servedModel: 'claude-sonnet-4-5-20250929' },
      });
    },
  );

  it('answers a structured question through one forced tool', async () => {
    const p = await provider(() => ({
      json: anthropicMessage({ toolUse: [{ id: 't', name: 'answer', input: { branch: 'main' } }] }),
    }));
    const schema = {
      type: 'object',
      properties: { branch: { type: 'string' } },
      required: ['branch'],
      additionalProperties: false,
    };
    const result = await p.complete({
      model: 'claude-test-small',
      prompt: 'Which branch?',
      outputMode: 'json_schema',
      schema,
      schemaName: 'answer',
    });
    expect(server!.requests[0]!.body).toMatchObject({
      tools: [{ name: 'answer', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'answer' },
    });
    expect(result.output).toBe('{"branch":"main"}');
    expect(result.structuredOutput).toEqual({ branch: 'main' });
    expect(result.qualityFailure).toBeNull();
  });

  it('waits out 429 and 529 with Retry-After, and gives up on a bad key at once', async () => {
    const p = await provider((i) =>
      i === 0
        ? anthropicError(429, 'rate limited', { 'retry-after-ms': '200' })
        : i === 1
          ? anthropicError(529, 'Overloaded')
          : { json: anthropicMessage({ text: 'ok' }) },
    );
    const result = await p.complete({ model: 'claude-test-small', prompt: 'hi', outputMode: 'text' });
    expect(result.output).toBe('ok');
    expect(result.retries.map((r) => [r.status, r.waitSource])).toEqual([
      [429, 'retry_after'],
      [529, 'backoff'],
    ]);
    expect(server!.requests[1]!.receivedAt - server!.requests[0]!.receivedAt).toBeGreaterThanOrEqual(200);
    await server!.close();

    const bad = await provider(() => anthropicError(401, 'invalid x-api-key'));
    const error = await bad
      .complete({ model: 'claude-test-small', prompt: 'hi', outputMode: 'text' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/rejected the key in ANTHROPIC_API_KEY: invalid x-api-key/);
    expect(server!.requests).toHaveLength(1);
  });

  it('gives up after its tries on server errors', async () => {
    const p = await provider(() => anthropicError(500, 'internal'));
    await expect(p.complete({ model: 'claude-test-small', prompt: 'hi', outputMode: 'text' })).rejects.toBeInstanceOf(
      RetriesExhaustedError,
    );
    expect(server!.requests).toHaveLength(3);
  });
});
