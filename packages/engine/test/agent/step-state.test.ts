import { describe, expect, it } from 'vitest';
import {
  agentConfigSchema,
  getToolSet,
  SandboxFailure,
  UNKNOWN_COST,
  type AgentConfigInput,
  type RepoStepState,
  type TrajectoryStep,
} from '@gitbench/core';
import type { AgentChatResult, AgentToolCall } from '@gitbench/providers';
import type { RepoStateReader } from '../../src/agent/repo-state-reader';
import { runAgent, type AgentRunResult } from '../../src/agent/run-agent';
import { repo as state } from '../../../core/test/agent/repo-state';
import { fakeRepo } from './support/agent-server';

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type Read = ReturnType<typeof deferred<RepoStepState | null>>;

/** Lets every callback that can run now run (the loop goes as far as it can without the test). */
const drain = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

function reply(calls: { name: string; args: unknown }[], turn: number, tokens = 15): AgentChatResult {
  const toolCalls: AgentToolCall[] = calls.map((c, i) => ({
    id: `call_${turn}_${i}`,
    name: c.name,
    arguments: JSON.stringify(c.args),
  }));
  return {
    content: `turn ${turn}`,
    reasoning: null,
    toolCalls,
    finishReason: 'tool_calls',
    usage: { inputTokens: tokens - 5, outputTokens: 5, reasoningTokens: 0, totalTokens: tokens },
    cost: UNKNOWN_COST,
    apiDurationMs: 0,
    retries: [],
    route: {
      provider: 'fake',
      profile: 'fake',
      baseUrl: null,
      requestedModel: 'fake',
      servedModel: null,
      responseId: null,
      upstreamProvider: null,
      simulated: false,
    },
  };
}

const bash = (command: string) => ({ name: 'bash', args: { command } });
const submit = { name: 'submit', args: { answer: 'done' } };

/**
 * The agent loop with a model and a repository reader whose every answer the test gives: what ran
 * when (model queries, tool calls, reads, steps recorded) is logged in one order.
 */
function controlledRun(
  opts: { config?: AgentConfigInput; signal?: AbortSignal; store?: (step: TrajectoryStep) => Promise<void> } = {},
) {
  const events: string[] = [];
  const queries: ReturnType<typeof deferred<AgentChatResult>>[] = [];
  const reads: Read[] = [];
  const sandbox = fakeRepo({}, (command) => {
    events.push(`run ${command}`);
    return { stdout: 'ok\n' };
  });
  const reader: RepoStateReader = {
    read() {
      events.push(`read ${reads.length}`);
      const d = deferred<RepoStepState | null>();
      reads.push(d);
      return d.promise;
    },
  };
  const streamed: TrajectoryStep[] = [];
  const result: Promise<AgentRunResult> = runAgent({
    model: {
      name: 'fake',
      kind: 'fake',
      chat() {
        events.push(`query ${queries.length}`);
        const d = deferred<AgentChatResult>();
        queries.push(d);
        return d.promise;
      },
    },
    modelName: 'fake',
    agent: 'fake',
    toolSet: getToolSet('bash+editor'),
    config: agentConfigSchema.parse(opts.config ?? {}),
    taskPrompt: 'Do the task.',
    ctx: sandbox.ctx,
    repoState: reader,
    onStep: async (s) => {
      events.push(`step ${s.index}`);
      await opts.store?.(s);
      streamed.push(s);
    },
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  // A rejection is looked at by the test; until then it must not count as unhandled.
  result.catch(() => undefined);
  return { events, queries, reads, streamed, result };
}

/** The baseline read, then the first turn: the model answers `calls`, which run. */
async function firstTurn(run: ReturnType<typeof controlledRun>, first: AgentChatResult) {
  await drain();
  run.reads[0]!.resolve(state('base'));
  await drain();
  run.queries[0]!.resolve(first);
  await drain();
}

describe("the repository's state after a step, read while the model answers the next turn", () => {
  it('overlaps the read with the next query, and runs the next calls only once the state is in', async () => {
    const run = controlledRun();
    await firstTurn(run, reply([bash('git add -A')], 0));
    // The calls ran, the read after them started, and the next query went out before it finished.
    expect(run.events).toEqual(['read 0', 'query 0', 'run git add -A', 'read 1', 'query 1']);
    run.queries[1]!.resolve(reply([bash('git commit -m x')], 1));
    await drain();
    // The model answered; its calls wait for the state of the step before them.
    expect(run.events.at(-1)).toBe('query 1');
    expect(run.streamed).toEqual([]);
    run.reads[1]!.resolve(state('after-add'));
    await drain();
    expect(run.events.slice(5)).toEqual(['step 0', 'run git commit -m x', 'read 2', 'query 2']);
    run.queries[2]!.resolve(reply([submit], 2));
    await drain();
    expect(run.events.slice(9)).toEqual([]);
    run.reads[2]!.resolve(state('after-commit'));
    await drain();
    // The loop ended with a submit: the state of the submitting step is waited for before it returns.
    expect(run.events.slice(9)).toEqual(['step 1', 'read 3']);
    run.reads[3]!.resolve(state('submitted'));
    const result = await run.result;
    expect(run.events.slice(11)).toEqual(['step 2']);
    expect(result.summary).toMatchObject({ exitStatus: 'submitted', steps: 3 });
    expect(result.steps.map((s) => s.repo?.head)).toEqual(['after-add', 'after-commit', 'submitted']);
    expect(run.streamed).toEqual(result.steps);
  });

  it('records a step as soon as its state is in, while the model still answers the next turn', async () => {
    const run = controlledRun();
    await firstTurn(run, reply([bash('git add -A')], 0));
    run.reads[1]!.resolve(state('after-add'));
    await drain();
    expect(run.events).toEqual(['read 0', 'query 0', 'run git add -A', 'read 1', 'query 1', 'step 0']);
    expect(run.streamed.map((s) => s.repo?.head)).toEqual(['after-add']);
    run.queries[1]!.resolve(reply([submit], 1));
    await drain();
    run.reads[2]!.resolve(state('submitted'));
    expect((await run.result).steps.map((s) => s.index)).toEqual([0, 1]);
  });

  it('answers the next calls as not run and ends sandbox_error when the read fails, keeping the turn', async () => {
    const run = controlledRun();
    await firstTurn(run, reply([bash('git add -A')], 0));
    run.reads[1]!.reject(new SandboxFailure('the container was removed'));
    await drain();
    // The step is recorded without a state at once; the failure ends the loop once the model has answered.
    expect(run.events.slice(-2)).toEqual(['query 1', 'step 0']);
    run.queries[1]!.resolve(reply([bash('git commit -m x'), submit], 1));
    const result = await run.result;
    expect(result.summary).toMatchObject({ exitStatus: 'sandbox_error', steps: 2, exitStep: 1 });
    expect(result.summary.exitDetail).toMatch(/could not be read after the step: the container was removed/);
    expect(run.events).not.toContain('run git commit -m x');
    const [first, second] = result.steps;
    expect(first!.repo).toBeNull();
    expect(second!.message.content).toBe('turn 1');
    expect(second!.usage.totalTokens).toBe(15);
    expect(second!.results.map((r) => r.output)).toEqual([
      'Not run: the sandbox failed.',
      'Not run: the sandbox failed.',
    ]);
    expect(second!.repo).toBeNull();
    expect(result.summary.totals.totalTokens).toBe(30);
    expect(run.streamed.map((s) => s.index)).toEqual([0, 1]);
  });

  it('ends sandbox_error when the last step state fails after a submit', async () => {
    const run = controlledRun();
    await firstTurn(run, reply([submit], 0));
    run.reads[1]!.reject(new SandboxFailure('the runner died'));
    const result = await run.result;
    expect(result.summary).toMatchObject({ exitStatus: 'sandbox_error', steps: 1, submission: 'done' });
    expect(result.steps[0]!.repo).toBeNull();
  });

  it('counts the step being read against the turn and token limits', async () => {
    const turns = controlledRun({ config: { limits: { maxTurns: 1 } } });
    await firstTurn(turns, reply([bash('ls')], 0));
    // No second query: the one step taken is still being read, but it counts.
    expect(turns.queries).toHaveLength(1);
    turns.reads[1]!.resolve(state('after'));
    expect((await turns.result).summary).toMatchObject({ exitStatus: 'turn_limit', steps: 1 });

    const tokens = controlledRun({ config: { limits: { maxTokens: 1_000 } } });
    await firstTurn(tokens, reply([bash('ls')], 0, 1_000));
    expect(tokens.queries).toHaveLength(1);
    tokens.reads[1]!.resolve(state('after'));
    expect((await tokens.result).summary).toMatchObject({ exitStatus: 'token_limit', steps: 1 });
  });

  it.each([
    ['fails', (read: Read) => read.reject(new SandboxFailure('the container was removed'))],
    ['succeeds', (read: Read) => read.resolve(state('late'))],
  ])('throws on a cancellation mid-query; a read left running that then %s records nothing', async (_, end) => {
    const cancel = new AbortController();
    const run = controlledRun({ signal: cancel.signal });
    await firstTurn(run, reply([bash('ls')], 0));
    expect(run.events).toEqual(['read 0', 'query 0', 'run ls', 'read 1', 'query 1']);
    cancel.abort(new Error('cancelled by the test'));
    run.queries[1]!.reject(new Error('aborted'));
    await expect(run.result).rejects.toThrow('cancelled by the test');
    // The sandbox goes away under the read: its end is the loop's to swallow, not the process's.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    end(run.reads[1]!);
    await drain();
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
    expect(run.events.at(-1)).toBe('query 1');
    expect(run.streamed).toEqual([]);
  });

  it('returns from a cancellation only once a step being stored is stored', async () => {
    const cancel = new AbortController();
    const storing = deferred<void>();
    const run = controlledRun({ signal: cancel.signal, store: () => storing.promise });
    await firstTurn(run, reply([bash('ls')], 0));
    run.reads[1]!.resolve(state('after'));
    await drain();
    expect(run.events.at(-1)).toBe('step 0');
    cancel.abort(new Error('cancelled by the test'));
    run.queries[1]!.reject(new Error('aborted'));
    let ended = false;
    void run.result.finally(() => (ended = true)).catch(() => undefined);
    await drain();
    // The worker marks an abandoned trajectory after the loop threw: no step may be stored after that.
    expect(ended).toBe(false);
    storing.resolve();
    await expect(run.result).rejects.toThrow('cancelled by the test');
    expect(run.streamed.map((s) => s.index)).toEqual([0]);
  });
});
