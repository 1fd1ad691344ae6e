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
      return Promise.resolve({ command, exitCode: command === 'false' ? 1 : 0, stdout: 'out\n', stderr: command === 'false' ? 'err\n' : '', timedOut: false, truncated: false, durationMs: 3, stdoutBytes: 4, stderrBytes: 0 });
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
    expect(getToolSet('bash+editor').tools.map((t) => t.name)).toEqual(['bash', 'read_file', 'write_file', 'str_replace', 'submit']);
    expect(() => getToolSet('nope')).toThrow(/Unknown tool set 'nope'/);
    expect(() => registerToolSet({ name: 'x', description: '', tools: [bashTool] })).toThrow(/terminal/);
  });

  it('bash runs one command with the git environment and the per-command timeout', async () => {
    const { ctx, calls } = fakeContext();
    const ok = await bashTool.run({ command: 'git status' }, ctx);
    expect(calls[0]).toEqual({ command: 'git status', options: { timeoutMs: 1234, env: AGENT_GIT_ENV } });
    expect(ok).toMatchObject({ output: 'out', isError: false, exitCode: 0 });
    const bad = await bashTool.run({ command: 'false' }, ctx);
    expect(bad).toMatchObject({ output: 'out\nerr\n[exit code 1]', isError: true, exitCode: 1 });
    expect(bashTool.args.safeParse({}).success).toBe(false);
    expect(bashTool.args.safeParse({ command: 'ls', extra: 1 }).success).toBe(false);
  });

  it('editor reads, writes and replaces exactly one occurrence', async () => {
    const { ctx, files } = fakeContext({ 'a.txt': 'one\r\ntwo two\n' });
    expect(await readFileTool.run({ path: 'a.txt' }, ctx)).toEqual({ output: 'one\r\ntwo two\n', isError: false });
    expect((await readFileTool.run({ path: 'missing' }, ctx)).isError).toBe(true);
    expect((await strReplaceTool.run({ path: 'a.txt', old_str: 'two', new_str: '2' }, ctx)).output).toMatch(/occurs 2 times/);
    expect((await strReplaceTool.run({ path: 'a.txt', old_str: 'zzz', new_str: '2' }, ctx)).isError).toBe(true);
    expect((await strReplaceTool.run({ path: 'a.txt', old_str: 'one\r\n', new_str: '1\n' }, ctx)).isError).toBe(false);
    expect(files['a.txt']).toBe('1\ntwo two\n');
    await writeFileTool.run({ path: 'd/b.txt', content: 'x' }, ctx);
    expect(files['d/b.txt']).toBe('x');
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
