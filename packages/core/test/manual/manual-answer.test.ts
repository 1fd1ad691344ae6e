import { describe, expect, it } from 'vitest';
import { ManualAnswerError, parseManualAnswer, type WireTool } from '../../src';

const tool = (
  name: string,
  properties: Record<string, { type: string; enum?: string[] }>,
  required: string[],
): WireTool => ({
  type: 'function',
  function: {
    name,
    description: `${name} tool`,
    parameters: { type: 'object', properties, required, additionalProperties: false },
  },
});
const TOOLS = [
  tool('bash', { command: { type: 'string' } }, ['command']),
  tool('submit', { answer: { type: 'string' } }, ['answer']),
  tool('str_replace', { path: { type: 'string' }, old_str: { type: 'string' }, new_str: { type: 'string' } }, [
    'path',
    'old_str',
    'new_str',
  ]),
  tool('read_file', { path: { type: 'string' }, start_line: { type: 'integer' } }, ['path']),
];
const args = (text: string) =>
  parseManualAnswer(text, TOOLS).toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown]);
const fails = (text: string) => {
  try {
    parseManualAnswer(text, TOOLS);
  } catch (error) {
    expect(error).toBeInstanceOf(ManualAnswerError);
    return (error as Error).message;
  }
  throw new Error(`parsed: ${text}`);
};

describe('parseManualAnswer', () => {
  it('reads `tool: rest` as the call of a one-string tool, lines included', () => {
    expect(args('bash: git log --oneline')).toEqual([['bash', { command: 'git log --oneline' }]]);
    expect(args("bash: cat > a.txt <<'EOF'\nline one\nEOF")).toEqual([
      ['bash', { command: "cat > a.txt <<'EOF'\nline one\nEOF" }],
    ]);
    expect(args('bash:\ngit status')).toEqual([['bash', { command: 'git status' }]]);
    expect(args('submit: 6')).toEqual([['submit', { answer: '6' }]]);
  });

  it('reads a tool name alone as an empty argument, and JSON arguments after the name', () => {
    expect(args('submit')).toEqual([['submit', { answer: '' }]]);
    expect(args('str_replace {"path": "a", "old_str": "x", "new_str": "y"}')).toEqual([
      ['str_replace', { path: 'a', old_str: 'x', new_str: 'y' }],
    ]);
    expect(args('read_file {"path": "a", "start_line": 3}')).toEqual([['read_file', { path: 'a', start_line: 3 }]]);
  });

  it('reads JSON after a colon as the arguments only where the tool has no single string argument to fill', () => {
    expect(args('str_replace: {"path": "a", "old_str": "x", "new_str": "y"}')).toEqual([
      ['str_replace', { path: 'a', old_str: 'x', new_str: 'y' }],
    ]);
    expect(args('bash: {"command": "ls"}')).toEqual([['bash', { command: '{"command": "ls"}' }]]);
  });

  it('reads JSON calls: one, a list, the wire form with string arguments, a message with content', () => {
    expect(args('{"name": "bash", "arguments": {"command": "ls"}}')).toEqual([['bash', { command: 'ls' }]]);
    expect(
      args(
        '[{"name": "bash", "arguments": {"command": "ls"}}, {"function": ' +
          '{"name": "submit", "arguments": "{\\"answer\\": \\"\\"}"}}]',
      ),
    ).toEqual([
      ['bash', { command: 'ls' }],
      ['submit', { answer: '' }],
    ]);
    expect(
      parseManualAnswer(
        '{"content": "Looking.", "tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]}',
        TOOLS,
      ),
    ).toEqual({
      content: 'Looking.',
      toolCalls: [{ name: 'bash', arguments: '{"command":"ls"}' }],
    });
  });

  it('takes text as text, `text:` forces it, and without tools everything is text', () => {
    expect(parseManualAnswer('The branch is main.', TOOLS)).toEqual({ content: 'The branch is main.', toolCalls: [] });
    expect(parseManualAnswer('text: bash: is a shell', TOOLS)).toEqual({ content: 'bash: is a shell', toolCalls: [] });
    expect(parseManualAnswer('bash: ls', [])).toEqual({ content: 'bash: ls', toolCalls: [] });
    expect(parseManualAnswer('{"a": 1}', [])).toEqual({ content: '{"a": 1}', toolCalls: [] });
    expect(parseManualAnswer('Note: done', TOOLS)).toEqual({ content: 'Note: done', toolCalls: [] });
  });

  it('names what is wrong: an unknown tool, a missing, extra or mistyped argument, bad JSON, nothing', () => {
    expect(fails('bsh: ls')).toBe(
      "There is no tool 'bsh' in this request (it offers bash, submit, " +
        "str_replace, read_file). Start a text answer with 'text:'.",
    );
    expect(fails('{"name": "git", "arguments": {}}')).toMatch(/no tool 'git'/);
    expect(fails('str_replace {"path": "a"}')).toBe(
      "str_replace: argument 'old_str' is missing (str_replace(path: string, old_str: string, new_str: string)).",
    );
    expect(fails('bash {"command": "ls", "cwd": "/"}')).toBe(
      "bash: there is no argument 'cwd' (bash(command: string)).",
    );
    expect(fails('read_file {"path": "a", "start_line": "3"}')).toBe(
      "read_file: argument 'start_line' must be integer, not string.",
    );
    expect(fails('str_replace: a')).toMatch(/^str_replace takes more than one string argument .*write str_replace \{/);
    expect(fails('bash {"command": ')).toMatch(/^The arguments of bash is not valid JSON/);
    expect(fails('[]')).toMatch(/calls no tool/);
    expect(fails('   \n')).toMatch(/empty/);
  });
});
