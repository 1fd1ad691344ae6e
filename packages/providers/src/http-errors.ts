import { ConfigurationError, TransientError, type ModelCallError } from '@gitbench/core';

/**
 * Reads Retry-After (delta seconds or an HTTP date) and the non-standard `retry-after-ms` some OpenAI
 * compatible servers send. Returns undefined when absent or unreadable: the caller then backs off.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface HttpFailure {
  status: number;
  message: string;
  retryAfterMs?: number;
  baseUrl: string;
  model: string;
  apiKeyEnv: string | null;
}

/** Maps an HTTP error status to its class; the message says what to fix for configuration errors. */
export function classifyHttpFailure(f: HttpFailure): ModelCallError {
  const where = `${f.baseUrl} (HTTP ${f.status})`;
  const detail = f.message ? `: ${f.message}` : '';
  if (f.status === 429) {
    return new TransientError('rate_limited', `Rate limited by ${where}${detail}`, {
      status: 429,
      retryAfterMs: f.retryAfterMs,
    });
  }
  if (f.status >= 500 || f.status === 408 || f.status === 409 || f.status === 425) {
    return new TransientError(
      f.status >= 500 ? 'server_error' : 'request_conflict',
      `Server error from ${where}${detail}`,
      {
        status: f.status,
        retryAfterMs: f.retryAfterMs,
      },
    );
  }
  if (f.status === 401) {
    const key = f.apiKeyEnv ? `the key in ${f.apiKeyEnv}` : 'the request (no api_key_env is configured)';
    return new ConfigurationError('unauthorized', `${where} rejected ${key}${detail}`);
  }
  if (f.status === 403) {
    return new ConfigurationError('forbidden', `${where} refused access to model '${f.model}'${detail}`);
  }
  if (f.status === 404) {
    return new ConfigurationError(
      'model_not_found',
      `Model '${f.model}' not found at ${where}; check the model id and the profile's base_url${detail}`,
    );
  }
  return new ConfigurationError('bad_request', `${where} rejected the request for model '${f.model}'${detail}`);
}

/**
 * Network failures before any HTTP status. An unknown host is a configuration error (a wrong base URL
 * will not start resolving on retry); refused or reset connections are transient (servers restart).
 */
export function classifyNetworkFailure(error: unknown, baseUrl: string): ModelCallError {
  const code = findErrorCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ERR_INVALID_URL') {
    return new ConfigurationError('bad_base_url', `Cannot resolve the host of base_url ${baseUrl} (${code})`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new TransientError(
    'connection_error',
    `Connection to ${baseUrl} failed${code ? ` (${code})` : ''}: ${message}`,
    {
      cause: error,
    },
  );
}

function findErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
