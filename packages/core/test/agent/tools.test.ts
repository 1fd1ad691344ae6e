import { describe, expect, it } from 'vitest';
import {
  AGENT_GIT_ENV,
  bashTool,
  capHeadTail,
  getToolSet,
  readFileTool,
  registerToolSet,
  strReplaceTool,
  submitTool,
  toolSetNames,
  writeFileTool,
  type ToolContext,
  type ToolExecOptions,
} from '../../src';

function fakeContext(files: Record<string, string> = {}) {
  const calls: { command: string; options: ToolExecOptions | undefined }[] = [];
  const ctx: ToolContext = {
    repoDir: '/work/repo',
    limits: { commandTimeoutMs: 1234, maxToolOutputBytes: 1000 },
    signal: new AbortController().signal,
    exec(command, options) {
      calls.push({ command, options });
      return Promise.resolve({
        command,
        exitCode: command === 'false' ? 1 : 0,
        stdout: 'out\n',
        stderr: command === 'false' ? 'err\n' : '',
        timedOut: false,
        truncated: false,
        durationMs: 3,
        stdoutBytes: 4,
        stderrBytes: 0,
      });
    },
    readFile(path) {
      return Promise.resolve(path in files ? new TextEncoder().encode(files[path]) : null);
    },
    writeFile(path, content) {
      files[path] = typeof content === 'string' ? content : new TextDecoder().decode(content);
      return Promise.resolve();
    },
  };
  return { ctx, calls, files };
}

describe('tool sets', () => {
  it('registers bash, editor and bash+editor, each ending with submit', () => {
    expect(toolSetNames()).toEqual(expect.arrayContaining(['bash', 'editor', 'bash+editor']));
    expect(getToolSet('bash+editor').tools.map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'str_replace',
      'submit',
    ]);
    expect(() => getToolSet('nope')).toThrow(/Unknown tool set 'nope'/);
    expect(() => registerToolSet({ name: 'x', description: '', tools: [bashTool] })).toThrow(/terminal/);
  });

  it('bash runs one command with the git environment and the per-command timeout', async () => {
    const { ctx, calls } = fakeContext();
    const ok = await bashTool.run({ command: 'git status' }, ctx);
    expect(calls[0]).toEqual({
      command: 'git status',
      options: { timeoutMs: 1234, env: AGENT_GIT_ENV, mergeStderr: true },
    });
    expect(ok).toMatchObject({ output: 'out\n[exit code 0]', isError: false, exitCode: 0 });
    const bad = await bashTool.run({ command: 'false' }, ctx);
    expect(bad).toMatchObject({ output: 'out\nerr\n[exit code 1]', isError: true, exitCode: 1 });
    expect(bashTool.args.safeParse({}).success).toBe(false);
    expect(bashTool.args.safeParse({ command: 'ls', extra: 1 }).success).toBe(false);
  });

  it('editor reads, writes and replaces exactly one occurrence', async () => {
    const { ctx, files } = fakeContext({ 'a.txt': 'one\r\ntwo two\n' });
    expect(await readFileTool.run({ path: 'a.txt' }, ctx)).toEqual({ output: 'one\r\ntwo two\n', isError: false });
    expect((await readFileTool.run({ path: 'missing' }, ctx)).isError).toBe(true);
    expect((await strReplaceTool.run({ path: 'a.txt', old_str: 'two', new_str: '2' }, ctx)).output).toMatch(
      /occurs 2 times/,
    );
    expect((await strReplaceTool.run({ path: 'a.txt', old_str: 'zzz', new_str: '2' }, ctx)).isError).toBe(true);
    expect((await strReplaceTool.run({ path: 'a.txt', old_str: 'one\r\n', new_str: '1\n' }, ctx)).isError).toBe(false);
    expect(files['a.txt']).toBe('1\ntwo two\n');
    await writeFileTool.run({ path: 'd/b.txt', content: 'x' }, ctx);
    expect(files['d/b.txt']).toBe('x');
  });

  it('read_file reads a part by lines, saying which lines of how many and where the next part starts', async () => {
    const { ctx } = fakeContext({ 'big.txt': 'l1\nl2\r\nl3\nl4\nl5' });
    const read = async (range: { offset?: number; limit?: number }) =>
      (await readFileTool.run({ path: 'big.txt', ...range }, ctx)).output;
    expect(await read({ offset: 2, limit: 2 })).toBe('l2\r\nl3\n[lines 2-3 of 5; the next part starts at offset 4]');
    expect(await read({ offset: 4 })).toBe('l4\nl5\n[lines 4-5 of 5]');
    expect(await read({ limit: 10 })).toBe('l1\nl2\r\nl3\nl4\nl5');
    expect(await read({ offset: 9 })).toBe('[the file has 5 line(s); offset 9 is past its end]');
    expect(readFileTool.args.safeParse({ path: 'a', offset: 0 }).success).toBe(false);
    // What the cap cuts, and how to read the rest, is in the description and in the cut's marker.
    expect(readFileTool.description).toMatch(/cut in the middle[\s\S]*offset \(first line\) and limit/);
    expect(capHeadTail('x'.repeat(100), 20, readFileTool.truncationHint).text).toContain(
      '[... 80 of 100 bytes omitted: read the file in parts with offset (first line) and limit (number of lines) ...]',
    );
    expect(bashTool.description).toMatch(/in the order they were written.*exit code, always shown/);
  });

  it('submit is terminal and carries the answer', async () => {
    const { ctx } = fakeContext();
    expect(submitTool.terminal).toBe(true);
    expect((await submitTool.run({ answer: 'abc' }, ctx)).submission).toEqual({ answer: 'abc' });
  });

  it('caps output keeping head and tail and counting what was left out', () => {
    expect(capHeadTail('short', 10)).toEqual({ text: 'short', bytes: 5, truncatedBytes: 0 });
    const c = capHeadTail('a'.repeat(50) + 'b'.repeat(50), 20);
    expect(c.bytes).toBe(100);
    expect(c.truncatedBytes).toBe(80);
    expect(c.text).toBe(`${'a'.repeat(10)}\n[... 80 bytes omitted ...]\n${'b'.repeat(10)}`);
  });
});
