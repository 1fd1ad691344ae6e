import type { ModelClient, ModelResponse } from '../src';

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
