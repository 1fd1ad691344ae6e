import { afterEach, describe, expect, it } from 'vitest';
import { callsToTrajectory } from '@gitbench/core';
import { createAnthropicProvider, DEFAULT_RETRY_POLICY, RequestBudget } from '@gitbench/providers';
import {
  anthropicError,
  anthropicMessage,
  startFakeAnthropic,
  type AnthropicReply,
  type FakeAnthropic,
} from '../../providers/test/support/fake-anthropic';
import { failure, startHarness, type GatewayHarness } from './support/harness';

/**
 * The native Anthropic provider behind the gateway, against a local server speaking the Messages API:
 * Claude Code's Messages reach it as Messages again, and an agent speaking Chat Completions is
 * translated both ways.
 */

const KEY = 'sk-ant-secret-0123456789';
let server: FakeAnthropic | undefined;
let h: GatewayHarness | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = server = undefined;
});

async function serve(reply: (i: number) => AnthropicReply): Promise<GatewayHarness> {
  server = await startFakeAnthropic((_r, i) => reply(i));
  const provider = createAnthropicProvider({
    profile: {
      name: 'claude',
      provider: 'anthropic',
      models: [],
      baseUrl: server.url,
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      timeoutMs: 5_000,
      retryCount: 3,
      extraBody: {},
      concurrency: { groups: [] },
    },
    apiKey: KEY,
    budget: new RequestBudget(),
    capacityGroupOf: (m) => `anthropic:${m}`,
    policy: { ...DEFAULT_RETRY_POLICY, backoffBaseMs: 10, backoffMaxMs: 40 },
  });
  h = await startHarness({
    backend: { kind: 'provider', model: 'claude-test-model', chat: provider.chat! },
    budget: {},
  });
  return h;
}

const turns = (i: number): AnthropicReply =>
  i === 0
    ? {
        json: anthropicMessage({
          text: 'Checking.',
          toolUse: [{ id: 'toolu_1', name: 'Bash', input: { command: 'git status' } }],
          usage: [400, 30],
        }),
      }
    : { json: anthropicMessage({ text: 'Clean.', usage: [500, 5] }) };

describe('the Anthropic provider behind the gateway', () => {
  it("carries Claude Code's Messages conversation to Anthropic's Messages API and back, streamed", async () => {
    const g = await serve(turns);
    const tools = [
      {
        name: 'Bash',
        description: 'Run',
        input_schema: { type: 'object' as const, properties: { command: { type: 'string' } } },
      },
    ];
    const first = await g
      .anthropic()
      .messages.stream({
        model: 'claude-x',
        max_tokens: 1000,
        system: 'Agent.',
        messages: [{ role: 'user', content: 'Is it clean?' }],
        tools,
      })
      .finalMessage();
    expect(first.content[1]).toMatchObject({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'Bash',
      input: { command: 'git status' },
    });
    const second = await g.anthropic().messages.create({
      model: 'claude-x',
      max_tokens: 1000,
      system: 'Agent.',
      messages: [
        { role: 'user', content: 'Is it clean?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'nothing to commit' }] },
      ],
      tools,
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Clean.', citations: null }]);
    expect(server!.requests[1]!.body).toMatchObject({
      model: 'claude-test-model',
      system: 'Agent.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Is it clean?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'git status' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'nothing to commit' }] },
      ],
    });
    expect(g.gateway.calls().map((c) => [c.model, c.inputTokens, c.outputTokens])).toEqual([
      ['claude-sonnet-4-5-20250929', 400, 30],
      ['claude-sonnet-4-5-20250929', 500, 5],
    ]);
    expect(callsToTrajectory(g.gateway.calls()).map((s) => s.results.map((r) => r.output))).toEqual([
      ['nothing to commit'],
      [],
    ]);
    expect(JSON.stringify(g.gateway.calls())).not.toContain(KEY);
  });

  it('translates an agent speaking Chat Completions, and surfaces an overloaded Anthropic as 502', async () => {
    const g = await serve((i) => (i === 0 ? turns(0) : anthropicError(529, 'Overloaded')));
    const answer = await g.openai().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Is it clean?' }],
      tools: [{ type: 'function', function: { name: 'Bash', parameters: { type: 'object' } } }],
    });
    expect(answer.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: 'Checking.',
        tool_calls: [{ id: 'toolu_1', function: { name: 'Bash', arguments: '{"command":"git status"}' } }],
      },
    });
    const e = await failure(
      g.openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'again' }] }),
    );
    expect(e.status).toBe(502);
    expect(e.message).toContain('Overloaded');
    expect(g.gateway.calls()[1]).toMatchObject({ errorKind: 'provider_transient', retries: 3 });
  });
});
