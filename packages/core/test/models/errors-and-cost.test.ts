import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  QualityError,
  RetriesExhaustedError,
  TransientError,
  classifyError,
  estimateCost,
  globMatch,
  priceTableSchema,
  sumCallUsage,
  UNKNOWN_COST,
} from '../../src/models';

describe('error classes', () => {
  it('classify every error into exactly one kind', () => {
    expect(classifyError(new TransientError('rate_limited', '429'))).toBe('transient');
    expect(classifyError(new QualityError('malformed_json', 'bad'))).toBe('quality');
    expect(classifyError(new ConfigurationError('model_not_found', '404'))).toBe('configuration');
    expect(classifyError(new RetriesExhaustedError(3, new TransientError('timeout', 't')))).toBe('transient');
    // Unknown failures land among infrastructure failures, never counted against the model.
    expect(classifyError(new Error('surprise'))).toBe('transient');
  });

  it('keep the last cause and the retry history when retries run out', () => {
    const last = new TransientError('server_error', 'HTTP 503', { status: 503 });
    const error = new RetriesExhaustedError(2, last, [
      {
        attempt: 1,
        reason: 'server_error',
        status: 503,
        message: 'HTTP 503',
        waitMs: 10,
        waitSource: 'backoff',
        durationMs: 5,
      },
    ]);
    expect(error.code).toBe('server_error');
    expect(error.cause).toBe(last);
    expect(error.message).toMatch(/2 attempt/);
    expect(error.retries).toHaveLength(1);
  });
});

describe('globMatch', () => {
  it('matches whole ids with *, ? and classes; / is ordinary', () => {
    expect(globMatch('openai/*', 'openai/gpt-5.1')).toBe(true);
    expect(globMatch('openai/gpt-5*', 'openai/gpt-4o')).toBe(false);
    expect(globMatch('anthropic/claude-?-*', 'anthropic/claude-4-opus')).toBe(true);
    expect(globMatch('model-[ab]', 'model-b')).toBe(true);
    expect(globMatch('model-[!ab]', 'model-b')).toBe(false);
    expect(globMatch('gpt-4o', 'gpt-4o-mini')).toBe(false);
    expect(globMatch('a.b', 'axb')).toBe(false);
  });
});

describe('estimateCost', () => {
  const table = priceTableSchema.parse({
    prices: [
      { model: 'lab/model', date: '2025-01-01', inputPerMillion: 1, outputPerMillion: 2 },
      { model: 'lab/model', date: '2025-06-01', inputPerMillion: 0.5, outputPerMillion: 1 },
      { model: 'lab/*', date: '2024-01-01', inputPerMillion: 10, outputPerMillion: 10 },
    ],
  });
  const usage = { inputTokens: 1_000_000, outputTokens: 500_000, reasoningTokens: 100_000, totalTokens: 1_500_000 };

  it('uses the newest entry dated on or before the call', () => {
    expect(estimateCost(table, 'lab/model', usage, new Date('2025-03-01T00:00:00Z'))).toEqual({
      source: 'estimated',
      usd: 2,
      priceDate: '2025-01-01',
    });
    expect(estimateCost(table, 'lab/model', usage, new Date('2025-07-01T00:00:00Z'))).toEqual({
      source: 'estimated',
      usd: 1,
      priceDate: '2025-06-01',
    });
  });

  it('is unknown, not zero, without a matching price or without token counts', () => {
    expect(estimateCost(table, 'other/model', usage, new Date('2025-07-01'))).toEqual({ source: 'unknown', usd: null });
    expect(estimateCost(table, 'lab/model', { ...usage, outputTokens: null }, new Date('2025-07-01'))).toEqual({
      source: 'unknown',
      usd: null,
    });
    expect(estimateCost(table, 'lab/model', usage, new Date('2020-01-01'))).toEqual({ source: 'unknown', usd: null });
  });

  it('rejects a price entry without a date', () => {
    expect(() =>
      priceTableSchema.parse({ prices: [{ model: 'x', inputPerMillion: 1, outputPerMillion: 1 }] }),
    ).toThrow();
  });
});

describe('usage summed over every call of an attempt', () => {
  const call = (input: number | null, output: number | null, usd: number | null, ms: number) => ({
    usage: {
      inputTokens: input,
      outputTokens: output,
      reasoningTokens: null,
      totalTokens: input !== null && output !== null ? input + output : null,
    },
    cost: usd === null ? UNKNOWN_COST : ({ source: 'provider', usd } as const),
    apiDurationMs: ms,
  });

  it('adds tokens, cost and API time of every call', () => {
    const total = sumCallUsage([call(100, 10, 0.01, 500), call(200, 20, 0.02, 700), call(300, 30, 0.03, 900)]);
    expect(total).toMatchObject({
      inputTokens: 600,
      outputTokens: 60,
      totalTokens: 660,
      apiDurationMs: 2100,
      calls: 3,
      costEstimated: false,
    });
    expect(total.costUsd).toBeCloseTo(0.06, 10);
  });

  it('says unknown, never a smaller number, when one call did not report', () => {
    const total = sumCallUsage([call(100, 10, 0.01, 500), call(null, null, null, 700)]);
    expect(total).toMatchObject({ inputTokens: null, outputTokens: null, costUsd: null, apiDurationMs: 1200 });
    expect(sumCallUsage([])).toMatchObject({ inputTokens: null, costUsd: null, calls: 0, apiDurationMs: 0 });
  });
});
