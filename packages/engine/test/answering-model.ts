import type { Fixture } from '@gitbench/core';
import type { SandboxDriver } from '@gitbench/sandbox';
import { executeAttempt, type AttemptRun, type BuiltSnapshot, type ModelClient, type ModelResponse } from '../src';

/** A model that answers `answer`, as a hosted model's client would return it: the red teams' single answers. */
export function answering(answer: string): ModelClient {
  return {
    name: 'red-team',
    complete: async () =>
      ({
        model: 'red-team',
        output: answer,
        qualityFailure: null,
        reasoning: null,
        usage: { inputTokens: 1, outputTokens: 1, reasoningTokens: null, totalTokens: 2 },
        cost: { usd: 0, source: 'builtin' },
        apiDurationMs: 0,
        route: { provider: 'test', servedModel: 'red-team', endpoint: null, requestId: null },
        requestConfig: {},
        retries: [],
        transcript: [],
      }) as unknown as ModelResponse,
  };
}

/** A built task's single-answer attempt answered with `answer`, through executeAttempt as a worker runs it. */
export function answerAttempt(
  driver: SandboxDriver,
  task: { fixture: Fixture; snapshot: BuiltSnapshot },
  answer: string,
  label: string,
): Promise<AttemptRun> {
  return executeAttempt({
    ...task,
    driver,
    model: answering(answer),
    modelName: 'red-team',
    mode: 'text',
    labels: { 'org.gitbench.attempt': label },
  });
}
