import { ConfigurationError, RetriesExhaustedError, TransientError } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../src/budget';
import { classifyHttpFailure, classifyNetworkFailure, parseRetryAfter } from '../src/http-errors';
import { callWithRetries, DEFAULT_RETRY_POLICY } from '../src/retry';

const failure = (status: number, retryAfterMs?: number) => ({
  status,
  message: 'm',
  baseUrl: 'http://model.test',
  model: 'lab/m',
  apiKeyEnv: 'KEY',
  retryAfterMs,
});

/**
 * What each HTTP status means for a model call, written out apart from the code: a status worth
 * waiting for (the service is busy, restarting or timed the request out) is retried and kept out of
 * the model's score; anything the request itself got wrong fails the campaign's configuration at once.
 */
function expectedClass(status: number): { kind: 'transient' | 'configuration'; code: string } {
  if (status === 429) return { kind: 'transient', code: 'rate_limited' };
  if (status >= 500) return { kind: 'transient', code: 'server_error' };
  // Request Timeout, Conflict (a concurrent change on the service's side), Too Early: all pass on retry.
  if ([408, 409, 425].includes(status)) return { kind: 'transient', code: 'request_conflict' };
  const config: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden', 404: 'model_not_found' };
  return { kind: 'configuration', code: config[status] ?? 'bad_request' };
}

describe('an HTTP failure of a model call', () => {
  it('is transient or a configuration error, by status, for every status from 400 to 599', () => {
    for (let status = 400; status <= 599; status++) {
      const error = classifyHttpFailure(failure(status));
      const want = expectedClass(status);
      expect(error, `HTTP ${status}`).toBeInstanceOf(want.kind === 'transient' ? TransientError : ConfigurationError);
      expect(error.code, `HTTP ${status}`).toBe(want.code);
      if (error instanceof TransientError) expect(error.status).toBe(status);
    }
  });

  it("keeps the server's Retry-After on a transient failure", () => {
    for (const status of [408, 409, 425, 429, 500, 503]) {
      expect((classifyHttpFailure(failure(status, 1500)) as TransientError).retryAfterMs, `HTTP ${status}`).toBe(1500);
    }
  });

  it('says what to fix when the request is wrong', () => {
    expect(classifyHttpFailure(failure(401)).message).toMatch(/rejected the key in KEY/);
    expect(classifyHttpFailure({ ...failure(401), apiKeyEnv: null }).message).toMatch(/no api_key_env is configured/);
    expect(classifyHttpFailure(failure(404)).message).toMatch(
      /Model 'lab\/m' not found at http:\/\/model\.test \(HTTP 404\)/,
    );
  });

  it('is retried exactly when it is transient (408, 409 and 425 among them), through the retry loop', async () => {
    const policy = { ...DEFAULT_RETRY_POLICY, backoffBaseMs: 0, backoffMaxMs: 0, maxAttempts: 2 };
    for (const status of [400, 401, 403, 404, 408, 409, 410, 418, 422, 425, 429, 500, 502, 503, 504, 599]) {
      let tries = 0;
      const call = callWithRetries(
        { budget: new RequestBudget({}), slot: { profile: 'p', group: 'g' }, policy },
        async () => {
          tries++;
          if (tries === 1) throw classifyHttpFailure(failure(status, status === 429 ? 0 : undefined));
          return 'answer';
        },
      );
      if (expectedClass(status).kind === 'transient') {
        const outcome = await call;
        expect(outcome.value, `HTTP ${status}`).toBe('answer');
        expect(outcome.retries.map((r) => r.status)).toEqual([status]);
      } else {
        await expect(call, `HTTP ${status}`).rejects.toBeInstanceOf(ConfigurationError);
        expect(tries, `HTTP ${status}`).toBe(1);
      }
    }
  });

  it('gives up after the last try with the last cause', async () => {
    const policy = { ...DEFAULT_RETRY_POLICY, backoffBaseMs: 0, backoffMaxMs: 0, maxAttempts: 3 };
    const call = callWithRetries(
      { budget: new RequestBudget({}), slot: { profile: 'p', group: 'g' }, policy },
      async () => {
        throw classifyHttpFailure(failure(408));
      },
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect((error as RetriesExhaustedError).retries.map((r) => r.status)).toEqual([408, 408, 408]);
  });
});

describe('a network failure of a model call', () => {
  it('is a configuration error for a host that does not resolve, else transient, reading nested causes', () => {
    for (const code of ['ENOTFOUND', 'EAI_AGAIN', 'ERR_INVALID_URL']) {
      expect(classifyNetworkFailure(Object.assign(new Error('x'), { code }), 'http://h')).toBeInstanceOf(
        ConfigurationError,
      );
    }
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', undefined]) {
      expect(classifyNetworkFailure(Object.assign(new Error('x'), { code }), 'http://h'), String(code)).toBeInstanceOf(
        TransientError,
      );
    }
    const nested = new Error('fetch failed', {
      cause: new Error('inner', { cause: Object.assign(new Error('dns'), { code: 'ENOTFOUND' }) }),
    });
    expect(classifyNetworkFailure(nested, 'http://h').code).toBe('bad_base_url');
  });
});

describe('Retry-After', () => {
  const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });

  it('reads milliseconds first, then seconds, then an HTTP date, and nothing from garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': '-5' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after-ms': ' ' }), now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
