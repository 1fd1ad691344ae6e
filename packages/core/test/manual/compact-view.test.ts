import { describe, expect, it } from 'vitest';
import {
  chatRequestSchema,
  compactView,
  continues,
  previousInConversation,
  toolsHelp,
  type ChatRequest,
} from '../../src';

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'bash',
      description: 'Run a command.',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'submit',
      parameters: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    },
  },
];
const first = chatRequestSchema.parse({
  model: 'manual',
  tools: TOOLS,
  messages: [
    { role: 'system', content: 'You work in a Git repository.' },
    { role: 'user', content: 'Count the logger calls.' },
  ],
});
const second: ChatRequest = {
  ...first,
  messages: [
    ...first.messages,
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"git grep -c logger"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'app/orders.py:3\n[exit code 0]' },
  ],
};

describe('compactView', () => {
  it('shows a new conversation whole: the tools, the system prompt and the task', () => {
    expect(compactView({ request: first, previous: null, label: 'request 1' })).toBe(
      [
        '── request 1 · model manual · 2 message(s) · new conversation ──',
        'tools: bash, submit',
        '[system]',
        '    You work in a Git repository.',
        '[user]',
        '    Count the logger calls.',
        '',
      ].join('\n'),
    );
  });

  it('then only what is new since the request it continues: the calls made and the tool output, named by tool', () => {
    expect(compactView({ request: second, previous: first, label: 'request 2' })).toBe(
      [
        '── request 2 · model manual · 4 message(s), 2 new ──',
        '[assistant] called bash',
        '[tool bash]',
        '    app/orders.py:3',
        '    [exit code 0]',
        '',
      ].join('\n'),
    );
  });

  it('cuts a long message to its head and tail, saying how much it left out', () => {
    const long = {
      ...second,
      messages: [
        ...second.messages.slice(0, 3),
        {
          role: 'tool' as const,
          tool_call_id: 'c1',
          content: Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'),
        },
      ],
    };
    const view = compactView({ request: long, previous: first, label: 'r', maxLines: 10 });
    expect(view).toContain(
      '    line 5\n    … 90 line(s) not shown (the whole request: :full at ' +
        'the terminal, the request field over the side channel) …\n    line 96',
    );
    expect(view).not.toContain('line 6\n');
  });

  it('finds the conversation a request continues among several, and the longest of them', () => {
    const other: ChatRequest = { ...first, messages: [first.messages[0]!, { role: 'user', content: 'Another task.' }] };
    expect(continues(first, second)).toBe(true);
    expect(continues(second, first)).toBe(false);
    expect(continues(other, second)).toBe(false);
    expect(previousInConversation([other, first], second)).toBe(first);
    expect(previousInConversation([other], second)).toBeNull();
  });

  it('lists the tools with their arguments, optional ones marked', () => {
    expect(toolsHelp(first)).toBe('bash(command: string)  Run a command.\nsubmit(answer: string)\n');
    expect(toolsHelp({ ...first, tools: [] })).toMatch(/no tools/);
  });
});
