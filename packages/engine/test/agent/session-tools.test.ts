import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashTool, strReplaceTool, writeFileTool } from '@gitbench/core';
import { LocalSandboxDriver, type Sandbox } from '@gitbench/sandbox';
import { parseRepoState, repoStateScript, type RepoSnapshot } from '../../src/agent/repo-state';
import { sessionToolContext } from '../../src/agent/session-tool-context';

// The local driver runs the same session runner as Docker, without isolation: enough for the tools' plumbing.
describe('tools over a sandbox session', () => {
  let session: Sandbox;
  beforeAll(async () => {
    session = await new LocalSandboxDriver({ warn: () => undefined }).create();
    const r = await session.exec(
      'mkdir repo && cd repo && git init -q -b main && git config user.email a@b && ' +
        'git config user.name A && echo hi > a.txt && git add a.txt && git commit -qm one',
    );
    expect(r.exitCode).toBe(0);
  });
  afterAll(() => session?.cleanup());

  it('runs bash in the repository with the git environment, caps output and kills on timeout', async () => {
    const ctx = sessionToolContext({
      session,
      repoDir: 'repo',
      limits: { commandTimeoutMs: 2_000, maxToolOutputBytes: 256 },
    });
    const r = await bashTool.run(
      { command: 'pwd; echo $GIT_PAGER $GIT_EDITOR $GIT_TERMINAL_PROMPT; git log --format=%s' },
      ctx,
    );
    expect(r.output).toMatch(/\/repo\ncat true 0\none\n\[exit code 0\]$/);
    // stderr where it was written, not after all of stdout; the exit code always.
    const mixed = await bashTool.run({ command: 'echo out1; echo err1 >&2; echo out2; exit 3' }, ctx);
    expect(mixed).toMatchObject({ output: 'out1\nerr1\nout2\n[exit code 3]', exitCode: 3, isError: true });
    expect(mixed.commands?.[0]?.command).toBe('echo out1; echo err1 >&2; echo out2; exit 3');
    const big = await bashTool.run({ command: 'head -c 100000 /dev/zero | tr "\\0" x' }, ctx);
    expect(big.outputBytes).toBe(100000);
    expect(big.output).toMatch(/bytes omitted/);
    const slow = await bashTool.run({ command: 'sleep 10' }, ctx);
    expect(slow.timedOut).toBe(true);
    expect(slow.output).toMatch(/timed out after 2000 ms/);
  }, 20_000);

  it(
    'reads the repository state in one command: counts, ' + 'operations, refs changed and the diff since the last step',
    async () => {
      const ctx = sessionToolContext({
        session,
        repoDir: 'repo',
        limits: { commandTimeoutMs: 5_000, maxToolOutputBytes: 4096 },
      });
      const read = async (prev: RepoSnapshot | null) =>
        parseRepoState((await ctx.exec(repoStateScript(prev?.tree ?? null), { maxOutputBytes: 1 << 20 })).stdout, prev);
      const s0 = (await read(null))!;
      expect(s0.state).toMatchObject({
        branch: 'main',
        staged: 0,
        unstaged: 0,
        untracked: 0,
        operations: [],
        refsChanged: [],
        diff: '',
      });
      await writeFileTool.run({ path: 'new.txt', content: 'new\n' }, ctx);
      await strReplaceTool.run({ path: 'a.txt', old_str: 'hi', new_str: 'hello' }, ctx);
      const s1 = (await read(s0))!;
      expect(s1.state).toMatchObject({ unstaged: 1, untracked: 1, refsChanged: [] });
      expect(s1.state.diff).toMatch(/-hi\n\+hello/);
      expect(s1.state.diff).toMatch(/\+\+\+ b\/new.txt/);
      await bashTool.run({ command: 'git add -A && git commit -qm two && git checkout -q -b topic' }, ctx);
      const s2 = (await read(s1))!;
      expect(s2.state.branch).toBe('topic');
      expect(s2.state.diff).toBe('');
      expect(s2.state.refsChanged.map((r) => r.ref).sort()).toEqual(['HEAD', 'refs/heads/main', 'refs/heads/topic']);
      // The repository gained no objects from the state reads.
      const objects = await ctx.exec('git count-objects -v | grep "^count"');
      const loose = Number(/count: (\d+)/.exec(objects.stdout)![1]);
      expect(loose).toBe(7); // 3 objects per commit made, none from the state reads
    },
    20_000,
  );
});
