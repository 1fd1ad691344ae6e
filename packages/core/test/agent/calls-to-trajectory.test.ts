import { describe, expect, it } from 'vitest';
import {
  callsToTrajectory,
  gatewayCallRecordSchema,
  settledSteps,
  toAtif,
  trajectoryStepSchema,
  type GatewayCallRecord,
  type RepoStepState,
} from '../../src';
import { repo } from './repo-state';

/**
 * Trajectory steps rebuilt from gateway call records, on conversations recorded in each protocol the
 * gateway speaks (the request and response fields hold each wire format; the rebuild reads the
 * neutral fields beside them, which the gateway filled from those).
 */

let clock = Date.parse('2026-11-27T10:00:00.000Z');
function call(over: Partial<GatewayCallRecord> & Pick<GatewayCallRecord, 'seq'>): GatewayCallRecord {
  const startedAt = new Date(clock).toISOString();
  clock += 1000;
  const endedAt = new Date(clock).toISOString();
  clock += 500;
  return gatewayCallRecordSchema.parse({
    protocol: 'chat_completions',
    requestedModel: 'agent-model',
    model: 'gpt-4o-mini',
    request: {},
    response: {},
    status: 200,
    error: null,
    errorKind: null,
    tools: ['Bash'],
    toolResults: [],
    answer: null,
    inputTokens: 100,
    outputTokens: 10,
    reasoningTokens: null,
    costUsd: 0.001,
    costEstimated: true,
    gatewayMs: 2,
    providerMs: 998,
    hookMs: 0,
    retries: 0,
    streamed: false,
    startedAt,
    endedAt,
    ...over,
  });
}

describe('callsToTrajectory', () => {
  it('makes a Chat Completions conversation one step per answer, each tool result from the next request', () => {
    clock = Date.parse('2026-11-27T10:00:00.000Z');
    const calls = [
      call({
        seq: 1,
        request: {
          model: 'agent-model',
          messages: [{ role: 'user', content: 'Commit the fix' }],
          tools: [{ type: 'function', function: { name: 'Bash' } }],
        },
        answer: {
          content: null,
          reasoning: null,
          toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"git add -A"}' }],
          finishReason: 'tool_calls',
        },
        response: { object: 'chat.completion', choices: [{ message: { tool_calls: [{ id: 'c1' }] } }] },
      }),
      call({
        seq: 2,
        request: { messages: [{ role: 'tool', tool_call_id: 'c1', content: '' }] },
        toolResults: [{ callId: 'c1', name: 'Bash', content: '', isError: false }],
        answer: {
          content: 'Committing.',
          reasoning: 'Staged; now commit.',
          toolCalls: [{ id: 'c2', name: 'Bash', arguments: '{"command":"git commit -m fix"}' }],
          finishReason: 'tool_calls',
        },
        retries: 2,
      }),
      call({
        seq: 3,
        toolResults: [{ callId: 'c2', name: 'Bash', content: '[main 1a2b3c4] fix\n 1 file changed', isError: false }],
        answer: { content: 'Done.', reasoning: null, toolCalls: [], finishReason: 'stop' },
        inputTokens: null,
        costUsd: null,
        costEstimated: false,
      }),
    ];
    const states = new Map<number, RepoStepState | null>([
      [1, repo('aaa')],
      [2, repo('aaa')],
      [3, repo('bbb')],
    ]);
    const steps = callsToTrajectory(calls, { repoBeforeCall: states, repoAtEnd: repo('bbb-final') });
    for (const s of steps) expect(trajectoryStepSchema.parse(s)).toEqual(s);
    expect(steps.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(steps[0]).toMatchObject({
      startedAt: '2026-11-27T10:00:00.000Z',
      // The result came back with call 2, 500 ms after call 1 ended.
      finishedAt: '2026-11-27T10:00:01.500Z',
      modelMs: 1000,
      toolMs: 500,
      channel: 'native',
      toolCalls: [
        {
          id: 'c1',
          name: 'Bash',
          rawArguments: '{"command":"git add -A"}',
          arguments: { command: 'git add -A' },
          parseError: null,
        },
      ],
      results: [
        { callId: 'c1', name: 'Bash', isError: false, exitCode: null, output: '', outputBytes: 0, durationMs: 500 },
      ],
      usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110, costUsd: 0.001, costEstimated: true },
      repo: repo('aaa'),
    });
    expect(steps[1]).toMatchObject({
      message: { content: 'Committing.', reasoning: 'Staged; now commit.' },
      retries: 2,
      repo: repo('bbb'),
    });
    expect(steps[1]!.results[0]!.outputBytes).toBe(Buffer.byteLength('[main 1a2b3c4] fix\n 1 file changed'));
    // The closing answer: no calls, the final repository, unknown counts stay unknown.
    expect(steps[2]).toMatchObject({
      toolCalls: [],
      results: [],
      finishReason: 'stop',
      toolMs: 0,
      repo: repo('bbb-final'),
      usage: { inputTokens: null, totalTokens: null, costUsd: null },
    });
  });

  it('reads a Responses conversation with parallel calls whose results come back together', () => {
    clock = Date.parse('2026-11-27T11:00:00.000Z');
    const calls = [
      call({
        seq: 1,
        protocol: 'responses',
        tools: ['shell'],
        request: { input: 'Which branches exist?', tools: [{ type: 'function', name: 'shell' }] },
        answer: {
          content: null,
          reasoning: null,
          toolCalls: [
            { id: 'fc_a', name: 'shell', arguments: '{"command":["bash","-lc","git branch"]}' },
            { id: 'fc_b', name: 'shell', arguments: '{"command":["bash","-lc","git tag"]}' },
          ],
          finishReason: 'tool_calls',
        },
        response: {
          object: 'response',
          output: [
            { type: 'function_call', call_id: 'fc_a' },
            { type: 'function_call', call_id: 'fc_b' },
          ],
        },
      }),
      call({
        seq: 2,
        protocol: 'responses',
        tools: ['shell'],
        toolResults: [
          { callId: 'fc_a', name: 'shell', content: '* main\n  topic', isError: false },
          { callId: 'fc_b', name: 'shell', content: 'fatal: oops', isError: true },
        ],
        answer: { content: 'main and topic', reasoning: null, toolCalls: [], finishReason: 'stop' },
      }),
    ];
    const steps = callsToTrajectory(calls);
    expect(steps).toHaveLength(2);
    expect(steps[0]!.toolCalls.map((c) => c.arguments)).toEqual([
      { command: ['bash', '-lc', 'git branch'] },
      { command: ['bash', '-lc', 'git tag'] },
    ]);
    expect(steps[0]!.results.map((r) => [r.callId, r.isError, r.output])).toEqual([
      ['fc_a', false, '* main\n  topic'],
      ['fc_b', true, 'fatal: oops'],
    ]);
    // Without recorded states the repository is unknown, never made up.
    expect(steps[0]!.repo).toBeNull();
  });

  it(
    'reads a Messages conversation, leaving out side questions ' +
      'and failed calls, and keeps arguments that are not JSON',
    () => {
      clock = Date.parse('2026-11-27T12:00:00.000Z');
      const calls = [
        call({
          seq: 1,
          protocol: 'messages',
          request: { messages: [{ role: 'user', content: 'Rebase topic onto main' }], tools: [{ name: 'Bash' }] },
          answer: {
            content: 'Rebasing.',
            reasoning: null,
            toolCalls: [{ id: 'toolu_1', name: 'Bash', arguments: '{"command": "git rebase main' }],
            finishReason: 'tool_calls',
          },
          response: { type: 'message', content: [{ type: 'tool_use', id: 'toolu_1' }] },
        }),
        // Claude Code's side question (a title for the session): no tools offered.
        call({
          seq: 2,
          protocol: 'messages',
          tools: [],
          answer: { content: 'Rebase topic', reasoning: null, toolCalls: [], finishReason: 'stop' },
        }),
        // A call refused by the budget: no answer, no step.
        call({
          seq: 3,
          protocol: 'messages',
          status: 400,
          error: 'budget',
          errorKind: 'budget',
          toolResults: [{ callId: 'toolu_1', name: 'Bash', content: 'Successfully rebased', isError: false }],
        }),
      ];
      const steps = callsToTrajectory(calls, { repoBeforeCall: new Map([[3, repo('ccc')]]) });
      expect(steps).toHaveLength(1);
      expect(steps[0]!.toolCalls[0]).toMatchObject({
        id: 'toolu_1',
        arguments: null,
        parseError: expect.stringContaining('not JSON'),
      });
      // The result still came back, with the refused call: the step's repository is the state before it.
      expect(steps[0]!.results[0]!.output).toBe('Successfully rebased');
      expect(steps[0]!.repo).toEqual(repo('ccc'));
    },
  );

  it(
    "takes a refused call's repository from the next state " + 'read, or the end, and keeps an unreadable one unknown',
    () => {
      clock = Date.parse('2026-11-27T12:30:00.000Z');
      const answer = (id: string) => ({
        content: null,
        reasoning: null,
        toolCalls: [{ id, name: 'Bash', arguments: '{}' }],
        finishReason: 'tool_calls',
      });
      const refused = { status: 400, errorKind: 'budget' as const, answer: null };
      const calls = [
        call({ seq: 1, answer: answer('a') }),
        // Refused before the backend: no state was read for it.
        call({ seq: 2, ...refused, toolResults: [{ callId: 'a', name: 'Bash', content: 'ok', isError: false }] }),
        call({ seq: 3, answer: answer('b') }),
        call({
          seq: 4,
          answer: answer('c'),
          toolResults: [{ callId: 'b', name: 'Bash', content: 'ok', isError: false }],
        }),
        call({ seq: 5, ...refused, toolResults: [{ callId: 'c', name: 'Bash', content: 'ok', isError: false }] }),
      ];
      const states = new Map<number, RepoStepState | null>([
        [1, repo('one')],
        [3, repo('three')],
        [4, null],
      ]);
      const steps = callsToTrajectory(calls, { repoBeforeCall: states, repoAtEnd: repo('end') });
      expect(steps.map((s) => s.repo?.head ?? null)).toEqual(['three', null, 'end']);
    },
  );

  it('orders by seq whatever order the records arrive in, and a result only counts when it comes later', () => {
    clock = Date.parse('2026-11-27T13:00:00.000Z');
    const a = call({
      seq: 1,
      answer: {
        content: null,
        reasoning: null,
        toolCalls: [{ id: 'x', name: 'Bash', arguments: '{}' }],
        finishReason: 'tool_calls',
      },
    });
    const b = call({
      seq: 2,
      toolResults: [{ callId: 'x', name: 'Bash', content: 'ok', isError: false }],
      answer: { content: 'end', reasoning: null, toolCalls: [], finishReason: 'stop' },
    });
    const steps = callsToTrajectory([b, a]);
    expect(steps.map((s) => s.message.content)).toEqual([null, 'end']);
    expect(steps[0]!.results).toHaveLength(1);
    expect(callsToTrajectory([]).length).toBe(0);
  });

  it("exports as ATIF: the agent's results marked as its report, the repository GitBench read beside each step", () => {
    const calls = [
      call({
        seq: 1,
        answer: {
          content: null,
          reasoning: null,
          toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"git commit -m fix"}' }],
          finishReason: 'tool_calls',
        },
      }),
      call({
        seq: 2,
        toolResults: [{ callId: 'c1', name: 'Bash', content: '[main 1a2b3c4] fix', isError: false }],
        answer: { content: 'Done.', reasoning: null, toolCalls: [], finishReason: 'stop' },
      }),
    ];
    const steps = callsToTrajectory(calls, {
      repoBeforeCall: new Map([
        [1, repo('aaa')],
        [2, repo('bbb')],
      ]),
      repoAtEnd: repo('bbb'),
    });
    const atif = toAtif({
      sessionId: 'trj_x',
      version: 'v',
      agent: 'claude-code@2.1.332',
      model: 'oracle',
      toolSet: 'claude-code',
      summary: null,
      steps,
    });
    expect(
      atif.steps.map((s) => [
        s.step_id,
        s.source,
        s.tool_calls?.map((c) => c.arguments),
        s.observation?.results.map((r) => [r.source_call_id, r.content]),
      ]),
    ).toEqual([
      [1, 'agent', [{ command: 'git commit -m fix' }], [['c1', '[main 1a2b3c4] fix']]],
      [2, 'agent', undefined, undefined],
    ]);
    const extra = atif.steps[0]!.extra!.gitbench as {
      results: { agent_reported?: boolean; exit_code: number | null }[];
      repo: RepoStepState;
    };
    expect(extra.results).toMatchObject([{ source_call_id: 'c1', agent_reported: true, exit_code: null }]);
    expect(extra.repo.head).toBe('bbb');
  });
});

describe('settledSteps', () => {
  const answer = (ids: string[], content: string | null = null) => ({
    content,
    reasoning: null,
    toolCalls: ids.map((id) => ({ id, name: 'Bash', arguments: `{"command":"echo ${id}"}` })),
    finishReason: ids.length ? 'tool_calls' : 'stop',
  });
  const result = (id: string) => ({ callId: id, name: 'Bash', content: `${id} done`, isError: false });

  it(
    'gives each step once it is final, the same step the ' +
      'whole rebuild gives, whatever order the calls complete in',
    () => {
      const calls = [
        call({ seq: 1, answer: answer(['a']) }),
        call({ seq: 2, tools: [], answer: answer([], 'A title') }),
        call({ seq: 3, toolResults: [result('a')], answer: answer(['b', 'c']) }),
        call({ seq: 4, toolResults: [result('b')], answer: answer(['d']) }),
        call({ seq: 5, toolResults: [result('c'), result('d')], answer: answer([], 'Done.') }),
      ];
      const states = new Map([1, 2, 3, 4, 5].map((s) => [s, repo(`h${s}`)]));
      const final = callsToTrajectory(calls, { repoBeforeCall: states, repoAtEnd: repo('end') });
      // Completion order: call 4 before call 3.
      const order = [1, 2, 4, 3, 5];
      const counts: number[] = [];
      for (let i = 1; i <= order.length; i++) {
        const done = calls.filter((c) => order.slice(0, i).includes(c.seq));
        const n = settledSteps(done, states);
        counts.push(n);
        expect(callsToTrajectory(done, { repoBeforeCall: states }).slice(0, n)).toEqual(final.slice(0, n));
      }
      // Call 4 alone settles nothing (call 3 is still out); then step 0 (a, its result in call 3); steps 1
      // (b, c) and 2 (d) once call 5 carried c and d. The closing answer takes the repository at the end,
      // so it waits for the agent to end.
      expect(counts).toEqual([0, 0, 0, 1, 3]);
      expect(final.length).toBe(4);
    },
  );

  it('waits for a step whose results came in a request that was refused before the repository was read', () => {
    const calls = [
      call({ seq: 1, answer: answer(['a']) }),
      call({ seq: 2, toolResults: [result('a')], status: 400, errorKind: 'budget', answer: null }),
    ];
    expect(settledSteps(calls, new Map([[1, repo('h1')]]))).toBe(0);
    expect(
      settledSteps(
        calls,
        new Map([
          [1, repo('h1')],
          [2, null],
        ]),
      ),
    ).toBe(1);
  });
});
