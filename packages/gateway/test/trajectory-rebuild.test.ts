import { describe, expect, it } from 'vitest';
import { callsToTrajectory, type GatewayCallRecord, type RepoStepState } from '@gitbench/core';
import { anthropicMessages, chatCompletions, responses, type BackendAnswer, type ProtocolCodec } from '../src';

/**
 * Our trajectory rebuilt from a third-party agent's calls, each protocol in its own wire shapes: the
 * agent's requests grow as it goes (it echoes the answer it got, then sends its tools' results), and
 * each is read by the gateway's own codec into the record the rebuild works from. The repository at
 * each step is the state GitBench read before the request that brought the step's results back, never
 * anything the agent said; every result is marked as the agent's report.
 */

type Call = { id: string; name: string; arguments: string };

/** How an agent speaking one protocol builds its requests. */
interface AgentSide {
  codec: ProtocolCodec;
  shell: string;
  /** The shell tool's arguments for a command, as this agent's tool takes them. */
  args: (command: string) => string;
  first: (task: string) => Record<string, unknown>;
  /** The request with the answer it got (the response as rendered) and its tools' results appended. */
  next: (
    request: Record<string, unknown>,
    response: unknown,
    results: { callId: string; output: string; isError?: boolean }[],
  ) => Record<string, unknown>;
  /** A side question (a title for the session): no tools offered. */
  side: (task: string) => Record<string, unknown>;
}

const chat: AgentSide = {
  codec: chatCompletions,
  shell: 'bash',
  args: (command) => JSON.stringify({ command }),
  first: (task) => ({
    model: 'gpt-5',
    stream: true,
    messages: [
      { role: 'system', content: 'You are opencode.' },
      { role: 'user', content: task },
    ],
    tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }],
  }),
  next: (request, response, results) => ({
    ...request,
    messages: [
      ...(request.messages as unknown[]),
      (response as { choices: { message: unknown }[] }).choices[0]!.message,
      ...results.map((r) => ({ role: 'tool', tool_call_id: r.callId, content: r.output })),
    ],
  }),
  side: (task) => ({ model: 'gpt-5', messages: [{ role: 'user', content: `Title for: ${task}` }] }),
};

const openaiResponses: AgentSide = {
  codec: responses,
  shell: 'shell',
  args: (command) => JSON.stringify({ command: ['bash', '-lc', command] }),
  first: (task) => ({
    model: 'gpt-5-codex',
    stream: true,
    instructions: 'You are Codex.',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: task }] }],
    tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' } }],
  }),
  next: (request, response, results) => ({
    ...request,
    input: [
      ...(request.input as unknown[]),
      ...(response as { output: unknown[] }).output,
      ...results.map((r) => ({
        type: 'function_call_output',
        call_id: r.callId,
        output: r.output,
        ...(r.isError ? { status: 'incomplete' } : {}),
      })),
    ],
  }),
  side: (task) => ({ model: 'gpt-5-codex', input: `Title for: ${task}` }),
};

const messages: AgentSide = {
  codec: anthropicMessages,
  shell: 'Bash',
  args: (command) => JSON.stringify({ command, description: 'run it' }),
  first: (task) => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 32000,
    stream: true,
    system: [{ type: 'text', text: 'You are Claude Code.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: task }] }],
    tools: [{ name: 'Bash', input_schema: { type: 'object' } }],
  }),
  next: (request, response, results) => ({
    ...request,
    messages: [
      ...(request.messages as unknown[]),
      { role: 'assistant', content: (response as { content: unknown[] }).content },
      {
        role: 'user',
        content: results.map((r) => ({
          type: 'tool_result',
          tool_use_id: r.callId,
          content: r.output,
          is_error: r.isError ?? false,
        })),
      },
    ],
  }),
  side: (task) => ({
    model: 'claude-haiku-4-5',
    max_tokens: 512,
    messages: [{ role: 'user', content: `Title for: ${task}` }],
  }),
};

function answer(content: string | null, toolCalls: Call[]): BackendAnswer {
  return {
    model: 'acme/coder',
    content,
    reasoning: null,
    toolCalls,
    finishReason: toolCalls.length ? 'tool_calls' : 'stop',
    inputTokens: 1200,
    outputTokens: 40,
    reasoningTokens: null,
    costUsd: 0.002,
    costEstimated: true,
    retries: 0,
  };
}

/** The record the gateway writes for one answered request (gateway.ts's finish), at second `seq` of a fixed clock. */
function record(
  side: AgentSide,
  seq: number,
  request: Record<string, unknown>,
  a: BackendAnswer,
): { record: GatewayCallRecord; response: unknown } {
  const turn = side.codec.parse(request);
  const response = side.codec.render(a, turn);
  const startedAt = new Date(Date.UTC(2026, 10, 27, 12, 0, seq * 10));
  return {
    response,
    record: {
      seq,
      protocol: side.codec.protocol,
      requestedModel: turn.requestedModel,
      model: a.model,
      request,
      response,
      status: 200,
      error: null,
      errorKind: null,
      tools: turn.tools.map((t) => t.name),
      toolResults: turn.toolResults,
      answer: { content: a.content, reasoning: a.reasoning, toolCalls: a.toolCalls, finishReason: a.finishReason },
      inputTokens: a.inputTokens,
      outputTokens: a.outputTokens,
      reasoningTokens: a.reasoningTokens,
      costUsd: a.costUsd,
      costEstimated: a.costEstimated,
      gatewayMs: 0.3,
      providerMs: 2000,
      hookMs: 40,
      retries: a.retries,
      streamed: request.stream === true,
      startedAt: startedAt.toISOString(),
      endedAt: new Date(startedAt.getTime() + 2000).toISOString(),
    },
  };
}

function state(head: string, over: Partial<RepoStepState> = {}): RepoStepState {
  return {
    head,
    branch: 'main',
    staged: 0,
    unstaged: 0,
    untracked: 0,
    conflicted: 0,
    operations: [],
    refsChanged: [],
    diff: '',
    diffBytes: 0,
    diffTruncatedBytes: 0,
    ...over,
  };
}

/** The tool call ids the model gives, in each protocol's style: the commit, the log, the push. */
function idsOf(side: AgentSide): [string, string, string] {
  if (side.codec.protocol === 'messages') return ['toolu_01', 'toolu_02', 'toolu_03'];
  return side.codec.protocol === 'responses' ? ['call_a', 'call_b', 'call_c'] : ['call_1', 'call_2', 'call_3'];
}

/**
 * One session: a side question, a commit, then two calls at once (one of them failing), then the closing
 * answer. `results` is what the agent sends back for each tool call: an honest agent's, or a liar's.
 */
function session(side: AgentSide, results: Record<string, { output: string; isError?: boolean }>) {
  const [commit, log, push] = idsOf(side);
  const task = 'Commit the staged fix on main.';
  const calls: GatewayCallRecord[] = [];
  calls.push(record(side, 1, side.side(task), answer('Commit the fix', [])).record);
  let request = side.first(task);
  const one = record(
    side,
    2,
    request,
    answer('Committing.', [{ id: commit, name: side.shell, arguments: side.args('git commit -m fix') }]),
  );
  calls.push(one.record);
  request = side.next(request, one.response, [{ callId: commit, ...results[commit]! }]);
  const two = record(
    side,
    3,
    request,
    answer(null, [
      { id: log, name: side.shell, arguments: side.args('git log --oneline -1') },
      { id: push, name: side.shell, arguments: side.args('git push') },
    ]),
  );
  calls.push(two.record);
  request = side.next(request, two.response, [
    { callId: log, ...results[log]! },
    { callId: push, ...results[push]! },
  ]);
  calls.push(record(side, 4, request, answer('The fix is committed.', [])).record);
  return calls;
}

const SIDES = {
  'Chat Completions (opencode, pi)': chat,
  'Responses (Codex CLI)': openaiResponses,
  'Messages (Claude Code)': messages,
};

/** The states GitBench read before each call: the commit lands between call 2 and call 3. */
const before = new Map<number, RepoStepState>([
  [1, state('aaa1111', { staged: 1, diff: 'diff --git a/f b/f\n', diffBytes: 19 })],
  [2, state('aaa1111', { staged: 1 })],
  [
    3,
    state('bbb2222', {
      refsChanged: [{ ref: 'refs/heads/main', before: 'aaa1111', after: 'bbb2222' }],
      diff: 'diff --git a/f b/f\n',
      diffBytes: 19,
    }),
  ],
  [4, state('bbb2222')],
]);

describe.each(Object.entries(SIDES))('the trajectory rebuilt from %s calls', (_name, side) => {
  it(
    'makes one step per answer that offered tools, each with its calls, ' +
      'the results the next request carried, and the repository GitBench read',
    () => {
      const honest = (ids: string[]) => ({
        [ids[0]!]: { output: '[main bbb2222] fix\n 1 file changed' },
        [ids[1]!]: { output: 'bbb2222 fix' },
        [ids[2]!]: { output: 'fatal: no remote', isError: true },
      });
      const ids = idsOf(side);
      const calls = session(side, honest(ids));
      const steps = callsToTrajectory(calls, { repoBeforeCall: before, repoAtEnd: state('bbb2222') });
      // The side question (no tools offered) is not a step.
      expect(steps.map((s) => [s.index, s.toolCalls.map((c) => c.name), s.message.content])).toEqual([
        [0, [side.shell], 'Committing.'],
        [1, [side.shell, side.shell], null],
        [2, [], 'The fix is committed.'],
      ]);
      expect(steps[0]!.toolCalls[0]!.arguments).toEqual(JSON.parse(side.args('git commit -m fix')));
      expect(steps.map((s) => s.results.map((r) => [r.callId, r.output, r.isError, r.agentReported]))).toEqual([
        [[ids[0], '[main bbb2222] fix\n 1 file changed', false, true]],
        [
          [ids[1], 'bbb2222 fix', false, true],
          // Chat Completions has no error flag on a tool message: the failure is only in its text.
          [ids[2], 'fatal: no remote', side.codec.protocol !== 'chat_completions', true],
        ],
        [],
      ]);
      // Step 0's commands ran before call 3 was sent: its repository is the one read then, HEAD moved.
      expect(steps.map((s) => s.repo?.head)).toEqual(['bbb2222', 'bbb2222', 'bbb2222']);
      expect(steps[0]!.repo!.refsChanged).toEqual([{ ref: 'refs/heads/main', before: 'aaa1111', after: 'bbb2222' }]);
      expect(steps[1]!.repo!.refsChanged).toEqual([]);
      // Tool time runs from the answer to the request that brought the results back (8 s on this clock).
      expect(steps.map((s) => s.toolMs)).toEqual([8000, 8000, 0]);
      expect(steps.every((s) => s.usage.inputTokens === 1200 && s.channel === 'native')).toBe(true);
    },
  );

  it("keeps a lying agent's results as its report only: the repository is what GitBench read", () => {
    const ids = idsOf(side);
    // It says it committed and pushed; GitBench's reads show nothing moved.
    const lies = {
      [ids[0]!]: { output: '[main c0ffee1] fix\n 1 file changed' },
      [ids[1]!]: { output: 'c0ffee1 fix' },
      [ids[2]!]: { output: 'To origin\n   aaa1111..c0ffee1  main -> main' },
    };
    const untouched = new Map([...before.keys()].map((seq) => [seq, state('aaa1111', { staged: 1 })]));
    const steps = callsToTrajectory(session(side, lies), {
      repoBeforeCall: untouched,
      repoAtEnd: state('aaa1111', { staged: 1 }),
    });
    expect(steps[0]!.results[0]).toMatchObject({
      output: '[main c0ffee1] fix\n 1 file changed',
      agentReported: true,
      exitCode: null,
    });
    expect(steps.map((s) => [s.repo!.head, s.repo!.refsChanged.length, s.repo!.staged])).toEqual([
      ['aaa1111', 0, 1],
      ['aaa1111', 0, 1],
      ['aaa1111', 0, 1],
    ]);
  });
});
