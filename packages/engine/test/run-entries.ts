import type { Fixture } from '@gitbench/core';
import type { CompletionResult } from '@gitbench/providers';
import type { AttemptOutcome, AttemptResult, SuiteRunEntry } from '../src';

/** Suite-run entries built by hand, for the pure functions that read them. */
export function fixture(domain: string, id: string, type = 'exact_match'): Fixture {
  return {
    domain,
    id,
    description: `${domain} ${id}`,
    difficulty: 'easy',
    tags: ['t'],
    setup: [],
    prompt: 'What is it?',
    expected: 'it',
    scoring: { type } as Fixture['scoring'],
    sourcePath: `${domain}/${id}.yaml`,
  };
}

export function response(over: Partial<CompletionResult> = {}): CompletionResult {
  return {
    model: { raw: 'm', baseModel: 'm' },
    output: 'it',
    qualityFailure: null,
    reasoning: null,
    usage: { inputTokens: 100, outputTokens: 10, reasoningTokens: 0, totalTokens: 110 },
    cost: { source: 'provider', usd: 0.001 },
    apiDurationMs: 500,
    route: {
      provider: 'replay',
      profile: 'replay',
      baseUrl: null,
      requestedModel: 'm',
      servedModel: 'm',
      responseId: null,
      upstreamProvider: null,
      simulated: false,
    },
    requestConfig: { provider: 'replay' },
    retries: [],
    transcript: [],
    flags: [],
    ...over,
  };
}

export function attempt(f: Fixture, outcome: AttemptOutcome, over: Partial<AttemptResult> = {}): AttemptResult {
  return {
    domain: f.domain,
    fixtureId: f.id,
    scoringType: f.scoring.type,
    outputMode: 'text',
    outcome,
    passed: outcome === 'PASS',
    score: outcome === 'PASS' ? 1 : 0,
    checks: [{ check: 'exact match', ok: outcome === 'PASS', detail: outcome === 'PASS' ? 'equal' : 'differs' }],
    prompt: 'rendered prompt',
    output: 'it',
    scoredText: 'it',
    hashes: { input: 'i', expectedInput: 'i', definition: 'd', prompt: 'p', expected: 'e', scorerConfig: 's' },
    sandbox: { kind: 'none', reason: 'scored on text' },
    timings: { totalMs: 1, scoreMs: 0 },
    ...over,
  };
}

/** An entry replayed with a recorded verdict. */
export function replayed(
  f: Fixture,
  outcome: AttemptOutcome,
  recordedPassed: boolean,
  over: Partial<AttemptResult> = {},
): SuiteRunEntry {
  const route = {
    ...response().route,
    replay: {
      file: 'run.json',
      recordedRoute: null,
      recordedVerdict: { passed: recordedPassed, similarity: null, error: null },
    },
  };
  return {
    fixture: f,
    outputMode: 'text',
    trial: 1,
    attempt: attempt(f, outcome, over),
    response: response({ route }),
    durationMs: 10,
  };
}
