import type { AttemptRow } from '../../src/aggregation';

/** An attempt row with sensible defaults, for readable examples. */
export function row(overrides: Partial<AttemptRow> = {}): AttemptRow {
  return {
    campaignId: 'cmp_1',
    modelId: 'm',
    effort: null,
    outputMode: 'text',
    domain: 'log',
    fixtureId: 'f001',
    difficulty: 'easy',
    trial: 1,
    status: 'VALID_PASS',
    tokens: 100,
    costUsd: 0.01,
    costEstimated: false,
    apiDurationMs: 500,
    ...overrides,
  };
}

/** One series' attempts from a pattern like 'PF-' (pass, fail, infrastructure failure), trial = position + 1. */
export function series(pattern: string, overrides: Partial<AttemptRow> = {}): AttemptRow[] {
  const statuses = { P: 'VALID_PASS', F: 'VALID_FAIL', '-': 'INFRA_FAILURE', U: 'UNSCORED', Q: 'QUEUED' } as const;
  return [...pattern].map((ch, i) =>
    row({ trial: i + 1, status: statuses[ch as keyof typeof statuses], ...overrides }),
  );
}
