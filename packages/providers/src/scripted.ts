import { createHash } from 'node:crypto';
import { ConfigurationError, UNKNOWN_COST, emptyUsage, type Difficulty } from '@gitbench/core';
import { buildResult, prepareRequest } from './result';
import type { CompletionRequest, CompletionResult, Provider, RouteMetadata } from './types';

/**
 * Providers whose answers no model produced: a fixed wrong answer (mock), the fixture's expected
 * answer (oracle, to prove that scorers accept correct answers) and a seeded coin per fixture and
 * trial (simulated, to exercise flaky classifications and pass_any_at_n). Their usage and cost are
 * unknown except where stated, so they can never be mistaken for a model's numbers.
 */

export const MOCK_ANSWER = 'This is a mock answer.';

function route(provider: string, model: string, simulated: boolean): RouteMetadata {
  return {
    provider,
    profile: provider,
    baseUrl: null,
    requestedModel: model,
    servedModel: null,
    responseId: null,
    upstreamProvider: null,
    simulated,
  };
}

function answerFor(request: CompletionRequest, text: string, structured: unknown): string {
  return request.outputMode === 'json_schema' ? JSON.stringify(structured) : text;
}

function plainResult(
  request: CompletionRequest,
  provider: string,
  output: string,
  extra: Record<string, unknown> = {},
): CompletionResult {
  const model = prepareRequest(request);
  return buildResult(request, model, {
    output,
    reasoning: null,
    usage: emptyUsage(),
    cost: UNKNOWN_COST,
    apiDurationMs: 0,
    route: route(provider, model.baseModel, false),
    requestConfig: { provider, outputMode: request.outputMode, ...extra },
    retries: [],
  });
}

/** Always the same wrong answer: `{}` in json_schema mode, which fails any contract with required fields. */
export function createMockProvider(): Provider {
  return {
    name: 'mock',
    kind: 'mock',
    async complete(request) {
      return plainResult(request, 'mock', answerFor(request, MOCK_ANSWER, {}));
    },
  };
}

/** An empty answer; in agent mode the engine's nop agent submits without acting. */
export function createNopProvider(): Provider {
  return {
    name: 'nop',
    kind: 'nop',
    async complete(request) {
      return plainResult(request, 'nop', answerFor(request, '', {}));
    },
  };
}

/** The fixture's expected answer, passed in by the caller (`fixture.expected` / `expectedStructured`). */
export function createOracleProvider(): Provider {
  return {
    name: 'oracle',
    kind: 'oracle',
    async complete(request) {
      const fixture = request.fixture;
      const structured = request.outputMode === 'json_schema';
      if (!fixture || (structured ? fixture.expectedStructured === undefined : fixture.expected === undefined)) {
        const what = structured ? 'fixture.expectedStructured' : 'fixture.expected';
        throw new ConfigurationError(
          'oracle_without_expected',
          `The oracle needs ${what} in the request${fixture ? ` (fixture ${fixture.domain}/${fixture.id})` : ''}.`,
        );
      }
      return plainResult(request, 'oracle', answerFor(request, fixture.expected ?? '', fixture.expectedStructured));
    },
  };
}

export type CorrectnessByDifficulty = Record<Difficulty, number>;

export const DEFAULT_SIMULATED_CORRECTNESS: CorrectnessByDifficulty = {
  trivial: 0.95,
  easy: 0.85,
  medium: 0.65,
  hard: 0.4,
  expert: 0.2,
  // A fixture that names no difficulty is taken as middling.
  unspecified: 0.65,
};

export const SIMULATED_WRONG_ANSWER = 'simulated wrong answer';

/** A uniform number in [0, 1) fixed by its inputs: the same (seed, fixture, mode, trial) always draws the same. */
export function seededUniform(...parts: Array<string | number>): number {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

export interface SimulatedOptions {
  seed: string | number;
  correctness?: Partial<CorrectnessByDifficulty>;
}

/**
 * A stochastic stand-in for a model: answers correctly with the configured probability for the
 * fixture's difficulty, deterministically per (seed, fixture, output mode, trial). Labelled simulated
 * in its name, its route and its request configuration.
 */
export function createSimulatedProvider(options: SimulatedOptions): Provider {
  const correctness = { ...DEFAULT_SIMULATED_CORRECTNESS, ...options.correctness };
  for (const [difficulty, p] of Object.entries(correctness)) {
    if (!(p >= 0 && p <= 1))
      throw new ConfigurationError('bad_probability', `Simulated correctness for ${difficulty} must be within 0..1.`);
  }
  return {
    name: `simulated (seed ${options.seed})`,
    kind: 'simulated',
    async complete(request) {
      const model = prepareRequest(request);
      const fixture = request.fixture;
      if (!fixture)
        throw new ConfigurationError(
          'simulated_without_fixture',
          'The simulated provider needs the fixture in the request.',
        );
      const structured = request.outputMode === 'json_schema';
      const expected = structured ? fixture.expectedStructured : fixture.expected;
      if (expected === undefined) {
        throw new ConfigurationError(
          'simulated_without_expected',
          `The simulated provider needs the expected answer of ${fixture.domain}/${fixture.id}.`,
        );
      }
      const difficulty = fixture.difficulty ?? 'medium';
      const key = [String(options.seed), fixture.domain, fixture.id, request.outputMode, request.trial ?? 1];
      const correct = seededUniform('correct', ...key) < correctness[difficulty];
      const output = correct
        ? answerFor(request, String(expected), expected)
        : answerFor(request, SIMULATED_WRONG_ANSWER, {});
      // Plausible token counts and latency so charts have something to show; flagged as simulated.
      const inputTokens = Math.ceil(request.prompt.length / 4);
      const outputTokens = Math.max(1, Math.ceil(output.length / 4));
      return buildResult(request, model, {
        output,
        reasoning: null,
        usage: { inputTokens, outputTokens, reasoningTokens: 0, totalTokens: inputTokens + outputTokens },
        cost: UNKNOWN_COST,
        apiDurationMs: Math.round(200 + seededUniform('latency', ...key) * 1800),
        route: { ...route('simulated', model.baseModel, true), profile: 'simulated' },
        requestConfig: {
          provider: 'simulated',
          simulated: true,
          seed: options.seed,
          correctness,
          outputMode: request.outputMode,
        },
        retries: [],
      });
    },
  };
}
