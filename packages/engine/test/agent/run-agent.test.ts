import { describe, expect, it } from 'vitest';
import { toolsUnsupported } from '@gitbench/providers';
import { parseTextProtocol, SandboxFailure, TamperingError, toAtif, trajectoryStepSchema } from '@gitbench/core';
import { NOT_RUN_SANDBOX } from '../../src/agent/execute-calls';
import { parseLeakedToolCalls } from '../../src/agent/parse-calls';
import { agentTranscript } from '../../src/upstream-envelope-agent';
import { bash, fakeRepo, openAIError, runScripted, submit, toolReply } from './support/agent-server';

describe('agent loop against a scripted OpenAI-compatible server', () => {
  it('runs parallel calls one at a time, in order, and answers every call id', async () => {
    const repo = fakeRepo({}, (c) => ({ stdout: `out of ${c}\n`, delayMs: 30 }));
    const run = await runScripted(
      [
        toolReply({
          calls: [bash('git status', 'a'), bash('git log', 'b'), { name: 'read_file', args: { path: 'x' }, id: 'c' }],
        }),
        toolReply({ calls: [submit('done')] }),
      ],
      {
        repo,
      },
    );
    expect(run.result.summary).toMatchObject({
      exitStatus: 'submitted',
      submission: 'done',
      protocol: 'native',
      steps: 2,
    });
    expect(repo.maxRunning()).toBe(1);
    expect(repo.log.map((l) => l.command)).toEqual(['git status', 'git log']);
    const second = run.sent(1);
    expect(second.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['a', 'b', 'c']);
    expect(second.find((m) => m.tool_call_id === 'c')?.content).toMatch(/No such file: x/);
    // Tools were offered natively with their JSON Schemas.
    const tools = run.server.requests[0]!.body.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(['bash', 'read_file', 'write_file', 'str_replace', 'submit']);
    expect(run.streamed.map((s) => s.index)).toEqual([0, 1]);
    expect(run.result.steps[0]!.results.map((r) => r.callId)).toEqual(['a', 'b', 'c']);
  });

  it('sends bad and truncated arguments back as errors, never as {}', async () => {
    const run = await runScripted([
      toolReply({ calls: [{ name: 'bash', args: '{"command": "git sta', id: 'cut' }], finish: 'length' }),
      toolReply({
        calls: [
          { name: 'bash', args: {}, id: 'empty' },
          { name: 'nope', args: {}, id: 'unknown' },
        ],
      }),
      toolReply({ calls: [submit('')] }),
    ]);
    const [s0, s1] = run.result.steps;
    expect(s0!.toolCalls[0]).toMatchObject({ rawArguments: '{"command": "git sta', arguments: null });
    expect(s0!.toolCalls[0]!.parseError).toMatch(/not valid JSON.*cut at the output token limit/);
    expect(s1!.toolCalls[0]!.parseError).toMatch(/invalid arguments for bash: command/);
    expect(s1!.toolCalls[1]!.parseError).toMatch(/unknown tool 'nope'/);
    expect(run.repo.log).toEqual([]);
    expect(run.sent(1).find((m) => m.tool_call_id === 'cut')?.content).toMatch(
      /^Error: the arguments of bash are not valid JSON/,
    );
    expect(run.result.summary.exitStatus).toBe('submitted');
  });

  it('runs tool calls leaked into the content as <tool_call> text', async () => {
    const run = await runScripted([
      toolReply({
        content: 'Let me look.\n<tool_call>\n{"name": "bash", "arguments": {"command": "git branch"}}\n</tool_call>',
      }),
      toolReply({ content: '<tool_call>{"name": "submit", "arguments": {"answer": "main"}}</tool_call>' }),
    ]);
    expect(run.result.steps[0]).toMatchObject({ channel: 'leaked', formatStrike: false });
    expect(run.repo.log.map((l) => l.command)).toEqual(['git branch']);
    expect(run.result.summary).toMatchObject({ exitStatus: 'submitted', submission: 'main' });
  });

  it('falls back to the text protocol when the endpoint refuses tools', async () => {
    const run = await runScripted((i) =>
      i === 0
        ? openAIError(400, 'registry.ollama.ai/library/gemma:2b does not support tools')
        : i === 1
          ? toolReply({ content: 'I will check.\n```bash\ngit log --oneline\n```' })
          : toolReply({ content: '```bash\nsubmit\nabc123\n```' }),
    );
    expect(run.result.summary).toMatchObject({
      protocol: 'text',
      exitStatus: 'submitted',
      submission: 'abc123',
      steps: 2,
    });
    expect(run.server.requests[1]!.body.tools).toBeUndefined();
    expect(run.result.summary.systemPrompt).toMatch(/exactly one fenced code block/);
    expect(run.sent(2).at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^Output of bash:\nran: git log --oneline/),
    });
    expect(run.result.steps[0]!.channel).toBe('text');
  });

  it('recognises the tools-unsupported answers of Ollama, OpenRouter and vLLM', () => {
    expect(toolsUnsupported(400, 'gemma does not support tools')).toBe(true);
    expect(toolsUnsupported(404, 'No endpoints found that support tool use. Try disabling "tools".')).toBe(true);
    expect(
      toolsUnsupported(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'),
    ).toBe(true);
    expect(toolsUnsupported(404, 'model not found')).toBe(false);
    expect(toolsUnsupported(400, 'context length exceeded')).toBe(false);
  });

  it('answers a turn without a tool call with a continue message and stops after three in a row', async () => {
    const run = await runScripted([toolReply({ content: 'Thinking...' })]);
    expect(run.result.summary).toMatchObject({ exitStatus: 'format_errors', steps: 3 });
    expect(run.result.steps.every((s) => s.formatStrike && s.runtimeNote !== null)).toBe(true);
    expect(run.sent(1).at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/no tool call/) });
  });

  it('a strike streak is broken by a usable call', async () => {
    const run = await runScripted([
      toolReply({ content: 'hm' }),
      toolReply({ content: 'hm' }),
      toolReply({ calls: [bash('ls')] }),
      toolReply({ content: 'hm' }),
      toolReply({ content: 'hm' }),
      toolReply({ calls: [submit('x')] }),
    ]);
    expect(run.result.summary.exitStatus).toBe('submitted');
    expect(run.result.steps.map((s) => s.formatStrike)).toEqual([true, true, false, true, true, false]);
  });

  it('waits out a 429 Retry-After and records the retry on the step', async () => {
    const run = await runScripted((i) =>
      i === 0 ? openAIError(429, 'slow down', { 'retry-after-ms': '50' }) : toolReply({ calls: [submit('ok')] }),
    );
    expect(run.result.summary.exitStatus).toBe('submitted');
    expect(run.result.steps[0]!.retries).toBe(1);
    expect(run.server.requests[1]!.receivedAt - run.server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(45);
  });

  it('ends with model_error when the endpoint keeps failing (500)', async () => {
    const run = await runScripted([toolReply({ calls: [bash('ls')] }), openAIError(500, 'boom')]);
    expect(run.result.summary).toMatchObject({ exitStatus: 'model_error', steps: 1 });
    expect(run.result.summary.exitDetail).toMatch(/Gave up after 2 attempt\(s\).*500/);
    expect(run.result.error).toBeTruthy();
  });

  it('stops a slow answer at the wall-clock limit', async () => {
    const run = await runScripted([{ ...toolReply({ calls: [bash('ls')] }), delayMs: 2_500 }], {
      config: { limits: { maxWallMs: 1_000 } },
    });
    expect(run.result.summary).toMatchObject({ exitStatus: 'time_limit', steps: 0 });
  });

  it('stops at the turn, token and cost limits, and records usage per step', async () => {
    const turns = await runScripted([toolReply({ calls: [bash('ls')] })], { config: { limits: { maxTurns: 2 } } });
    expect(turns.result.summary).toMatchObject({ exitStatus: 'turn_limit', steps: 2, exitStep: 1 });
    const tokens = await runScripted([toolReply({ calls: [bash('ls')], usage: { prompt: 900, completion: 200 } })], {
      config: { limits: { maxTokens: 2_000 } },
    });
    expect(tokens.result.summary).toMatchObject({ exitStatus: 'token_limit', steps: 2 });
    expect(tokens.result.summary.totals).toMatchObject({ inputTokens: 1800, outputTokens: 400, totalTokens: 2200 });
    const cost = await runScripted(
      [toolReply({ calls: [bash('ls')], usage: { prompt: 10, completion: 10, cost: 0.6 } })],
      { config: { limits: { maxCostUsd: 1 } } },
    );
    expect(cost.result.summary).toMatchObject({ exitStatus: 'cost_limit', steps: 2 });
    expect(cost.result.steps[0]!.usage.costUsd).toBe(0.6);
  });

  it('ends with model_stopped when the model answers with nothing at all', async () => {
    const run = await runScripted([toolReply({ content: '' })]);
    expect(run.result.summary).toMatchObject({ exitStatus: 'model_stopped', steps: 1 });
  });

  it(
    'ends with tampering when the session broke its protocol ' +
      'under a tool call, with sandbox_error when the sandbox failed',
    async () => {
      const failing = (error: Error) => {
        const repo = fakeRepo();
        repo.ctx.exec = (command) =>
          command === 'break'
            ? Promise.reject(error)
            : Promise.resolve({
                command,
                exitCode: 0,
                stdout: '',
                stderr: '',
                timedOut: false,
                truncated: false,
                durationMs: 1,
                stdoutBytes: 0,
                stderrBytes: 0,
              });
        return runScripted(
          [toolReply({ calls: [bash('break'), bash('git status', 'b')] }), toolReply({ calls: [submit('x')] })],
          { repo },
        );
      };
      const tampered = await failing(new TamperingError('a reply to no request'));
      expect(tampered.result.summary).toMatchObject({ exitStatus: 'tampering', steps: 1 });
      expect(tampered.result.summary.exitDetail).toMatch(/tampered with the sandbox: a reply to no request/);
      expect(tampered.result.steps[0]!.results[1]!.output).toMatch(/^Not run/);
      const broken = await failing(new SandboxFailure('the container was removed'));
      expect(broken.result.summary).toMatchObject({ exitStatus: 'sandbox_error', steps: 1 });
    },
  );

  it("records a sandbox that failed under a call as the step's error, never as what the command printed", async () => {
    // What Docker answers an exec on a container that is gone.
    const dockerSaid = '(HTTP code 409) container stopped/paused - Container 3f2a9c is not running';
    const repo = fakeRepo();
    repo.ctx.exec = () => Promise.reject(new SandboxFailure(dockerSaid));
    const run = await runScripted(
      [toolReply({ calls: [bash('git status', 'a'), bash('git log', 'b')] }), toolReply({ calls: [submit('x')] })],
      { repo },
    );
    expect(run.result.summary).toMatchObject({ exitStatus: 'sandbox_error', exitStep: 0, steps: 1 });
    expect(run.result.summary.exitDetail).toContain(dockerSaid);
    const step = trajectoryStepSchema.parse(run.result.steps[0]);
    const [failed, after] = step.results;
    expect(failed).toMatchObject({ callId: 'a', isError: true, exitCode: null, sandboxError: dockerSaid });
    // The observation says the sandbox failed; Docker's words are not passed off as the command's output.
    expect(failed!.output).toMatch(/sandbox failed/);
    expect(failed!.output).not.toContain(dockerSaid);
    expect(after).toMatchObject({ callId: 'b', output: NOT_RUN_SANDBOX });
    expect(after!.sandboxError).toBeUndefined();
    // So do the records written from it: the ATIF export and the result file's transcript.
    const atif = toAtif({ sessionId: 't', version: 'v', agent: 'a', model: 'm', toolSet: 'bash', ...run.result });
    const atStep = atif.steps.find((s) => s.observation)!;
    expect(atStep.observation!.results[0]!.content).toBe(failed!.output);
    expect((atStep.extra!.gitbench as { results: unknown[] }).results[0]).toMatchObject({ sandbox_error: dockerSaid });
    const tool = agentTranscript({ ...run.result, scoredOn: 'answer' }).find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ content: failed!.output, sandbox_error: dockerSaid });
  });

  it('caps tool output keeping head and tail, says how to read the rest, and records the full size', async () => {
    const big = `${'a'.repeat(5_000)}${'z'.repeat(5_000)}`;
    const repo = fakeRepo({}, () => ({ stdout: big }));
    const run = await runScripted([toolReply({ calls: [bash('cat big')] }), toolReply({ calls: [submit('')] })], {
      repo,
      config: { limits: { maxToolOutputBytes: 2_000 } },
    });
    const r = run.result.steps[0]!.results[0]!;
    // The output with its exit code line, `\n[exit code 0]`.
    expect(r.outputBytes).toBe(10_014);
    expect(r.truncatedBytes).toBe(8_014);
    expect(r.output).toMatch(
      new RegExp(
        /^a+\n\[\.\.\. 8014 of 10014 bytes omitted: run it again narrowed \(head, tail, sed -n 'FROM,TOp', grep\), /
          .source + /or redirect it to a file and print that in parts \.\.\.\]\nz+\n\[exit code 0\]$/.source,
      ),
    );
  });
});

describe('tool calls in text', () => {
  it('parses leaked calls, and unreadable ones keep their text', () => {
    expect(parseLeakedToolCalls('<tool_call>{"name":"bash","arguments":{"command":"ls"}}</tool_call>', 'x')).toEqual([
      { id: 'x_0', name: 'bash', arguments: '{"command":"ls"}' },
    ]);
    expect(parseLeakedToolCalls('<tool_call>{"name": "bash", "argu', 'x')).toEqual([
      { id: 'x_0', name: '', arguments: '{"name": "bash", "argu' },
    ]);
  });

  it('takes exactly one bash block per turn; submit blocks carry the answer', () => {
    expect(parseTextProtocol('run:\n```bash\ngit status\n```')).toEqual({
      ok: true,
      kind: 'bash',
      command: 'git status',
    });
    expect(parseTextProtocol('```bash\nsubmit abc\n```')).toEqual({ ok: true, kind: 'submit', answer: 'abc' });
    expect(parseTextProtocol('```bash\nsubmit\nline 1\nline 2\n```')).toEqual({
      ok: true,
      kind: 'submit',
      answer: 'line 1\nline 2',
    });
    expect(parseTextProtocol('```bash\nls\n```\n```bash\npwd\n```')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/2 bash blocks/),
    });
    expect(parseTextProtocol('no block')).toMatchObject({ ok: false });
    expect(parseTextProtocol('```python\nprint(1)\n```')).toMatchObject({ ok: false });
  });
});
