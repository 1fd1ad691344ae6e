import { describe, expect, it } from 'vitest';
import { anthropicMessages, chatCompletions, GatewayRequestError, responses, type BackendAnswer } from '../src';

/** Each protocol's request read into the neutral turn, and the edges an agent's requests reach. */

const answer: BackendAnswer = {
  model: 'gpt-4o-mini',
  content: 'Done.',
  reasoning: null,
  toolCalls: [{ id: 'c1', name: 'Bash', arguments: 'not json' }],
  finishReason: 'length',
  inputTokens: null,
  outputTokens: 7,
  reasoningTokens: null,
  costUsd: null,
  costEstimated: false,
  retries: 0,
};

function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayRequestError);
    return (error as Error).message;
  }
  throw new Error('parsed what it should have refused');
}

describe('Chat Completions', () => {
  it(
    'reads developer messages as system, content parts as text, ' +
      'an image as a placeholder, and tool names from earlier calls',
    () => {
      const turn = chatCompletions.parse({
        model: 'x',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'developer', content: 'Rules.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look: ' },
              { type: 'image_url', image_url: { url: 'data:' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Bash', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'out' }] },
        ],
        tools: [
          { type: 'function', function: { name: 'Bash', parameters: { type: 'object' } } },
          { type: 'custom', custom: { name: 'apply_patch' } },
        ],
      });
      expect(turn.messages).toEqual([
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'Look: [image omitted by the gateway]' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{}' }] },
        { role: 'tool', callId: 'c1', name: 'Bash', content: 'out' },
      ]);
      // Custom (free-form) tools have no neutral form and are not offered.
      expect(turn.tools.map((t) => t.name)).toEqual(['Bash']);
      expect(turn).toMatchObject({
        stream: true,
        streamUsage: true,
        toolResults: [{ callId: 'c1', name: 'Bash', content: 'out', isError: false }],
      });
    },
  );

  it('renders length as finish_reason length and unknown usage as 0 in the wire (the record keeps null)', () => {
    const turn = chatCompletions.parse({ messages: [] });
    expect(chatCompletions.render(answer, turn)).toMatchObject({
      model: 'gpt-4o-mini',
      choices: [{ finish_reason: 'length' }],
      usage: { prompt_tokens: 0, completion_tokens: 7 },
    });
    const { events } = chatCompletions.stream(answer, turn);
    expect(events.endsWith('data: [DONE]\n\n')).toBe(true);
    // No usage chunk unless asked.
    expect(events).not.toContain('"usage"');
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(refusal(() => chatCompletions.parse({ messages: 'hi' }))).toBe('messages: must be an array');
    expect(refusal(() => chatCompletions.parse({ messages: [{ role: 'tool', content: 'x' }] }))).toBe(
      'messages[0].tool_call_id: must be a string',
    );
    expect(refusal(() => chatCompletions.parse({ messages: [{ role: 'assistant', tool_calls: [{ id: 'a' }] }] }))).toBe(
      'messages[0].tool_calls[0]: must be {id, type: "function", function: {name, arguments}}',
    );
    expect(refusal(() => chatCompletions.parse({ messages: [], tools: [{ type: 'function' }] }))).toBe(
      'tools[0].function: must be an object',
    );
  });
});

describe('Responses', () => {
  it(
    'reads instructions, merges consecutive calls into one assistant ' +
      'turn, skips reasoning items, marks incomplete outputs as errors',
    () => {
      const turn = responses.parse({
        instructions: 'Rules.',
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go.' }] },
          { type: 'reasoning', id: 'rs_1', encrypted_content: 'xxx' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Two things.' }] },
          { type: 'function_call', call_id: 'a', name: 'shell', arguments: '{"command":["ls"]}' },
          { type: 'function_call', call_id: 'b', name: 'shell', arguments: '{"command":["pwd"]}' },
          { type: 'function_call_output', call_id: 'a', output: 'x' },
          { type: 'function_call_output', call_id: 'b', output: 'boom', status: 'incomplete' },
        ],
      });
      expect(turn.messages).toEqual([
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: 'Two things.',
          toolCalls: [
            { id: 'a', name: 'shell', arguments: '{"command":["ls"]}' },
            { id: 'b', name: 'shell', arguments: '{"command":["pwd"]}' },
          ],
        },
        { role: 'tool', callId: 'a', name: 'shell', content: 'x' },
        { role: 'tool', callId: 'b', name: 'shell', content: 'boom' },
      ]);
      expect(turn.toolResults.map((r) => r.isError)).toEqual([false, true]);
    },
  );

  it('renders length as an incomplete response', () => {
    expect(responses.render(answer, responses.parse({ input: 'hi' }))).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(responses.stream(answer, responses.parse({ input: 'hi' })).events).toContain('event: response.incomplete');
  });

  it('refuses previous_response_id (no stored conversations) and unknown item types', () => {
    expect(refusal(() => responses.parse({ input: [], previous_response_id: 'resp_1' }))).toMatch(
      /^previous_response_id: is not supported/,
    );
    expect(refusal(() => responses.parse({ input: [{ type: 'item_reference', id: 'x' }] }))).toBe(
      "input[0].type: 'item_reference' is not served (message, function_call, function_call_output, reasoning are)",
    );
  });
});

describe('Messages', () => {
  it('reads system blocks, drops thinking, puts tool results before the text of their turn, and keeps is_error', () => {
    const turn = anthropicMessages.parse({
      system: [{ type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 's' },
            { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'false' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'exit 1' }], is_error: true },
            { type: 'text', text: 'Try again.' },
          ],
        },
      ],
      tools: [
        { name: 'Bash', input_schema: { type: 'object' } },
        { type: 'web_search_20250305', name: 'web_search' },
      ],
    });
    expect(turn.messages).toEqual([
      { role: 'system', content: 'Rules.' },
      { role: 'user', content: 'Go.' },
      { role: 'assistant', content: null, toolCalls: [{ id: 't1', name: 'Bash', arguments: '{"command":"false"}' }] },
      { role: 'tool', callId: 't1', name: 'Bash', content: 'exit 1' },
      { role: 'user', content: 'Try again.' },
    ]);
    expect(turn.tools.map((t) => t.name)).toEqual(['Bash']);
    // Text after the results ends the trailing results: nothing follows the last assistant turn but them and it.
    expect(turn.toolResults).toEqual([{ callId: 't1', name: 'Bash', content: 'exit 1', isError: true }]);
  });

  it('renders arguments that are not a JSON object under raw, and length as max_tokens', () => {
    const message = anthropicMessages.render(answer, anthropicMessages.parse({ messages: [] }));
    expect(message).toMatchObject({
      stop_reason: 'max_tokens',
      content: [
        { type: 'text', text: 'Done.' },
        { type: 'tool_use', id: 'c1', input: { raw: 'not json' } },
      ],
    });
  });

  it('refuses blocks in the wrong turn and unknown block types', () => {
    expect(
      refusal(() =>
        anthropicMessages.parse({ messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b' }] }] }),
      ),
    ).toBe('messages[0].content[0].type: tool_use belongs in an assistant message');
    expect(
      refusal(() => anthropicMessages.parse({ messages: [{ role: 'user', content: [{ type: 'mystery' }] }] })),
    ).toMatch(/^messages\[0\]\.content\[0\]\.type: 'mystery' is not served/);
    expect(refusal(() => anthropicMessages.parse({ messages: [{ role: 'system', content: 'x' }] }))).toBe(
      "messages[0].role: 'system' is not user or assistant",
    );
  });
});
