import { describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '@gitbench/core';
import { attemptDeadline } from '../src/attempts/attempt-deadline';

const FIFTEEN_MIN = 15 * 60_000;

describe('the worker deadline of one attempt', () => {
  it('is GITBENCH_ATTEMPT_TIMEOUT_MS for a single answer, and says so', () => {
    const d = attemptDeadline(FIFTEEN_MIN);
    expect(d.ms).toBe(FIFTEEN_MIN);
    expect(d.message).toBe(
      'The attempt ran longer than its wall-clock limit of 900 s (GITBENCH_ATTEMPT_TIMEOUT_MS) and was stopped.',
    );
  });

  it(
    'lets an agent reach its own maxWallMs (up to 6 h), its last ' +
      'command and the work around the loop before the worker stops it',
    () => {
      const limits = agentLimitsSchema.parse({ maxWallMs: 6 * 3_600_000, commandTimeoutMs: 600_000 });
      const d = attemptDeadline(FIFTEEN_MIN, limits);
      expect(d.ms).toBe(6 * 3_600_000 + 600_000 + FIFTEEN_MIN);
      expect(d.ms).toBeGreaterThan(limits.maxWallMs + limits.commandTimeoutMs);
      expect(d.message).toMatch(/worker's wall-clock limit of 23100 s/);
      expect(d.message).toMatch(
        /maxWallMs \(21600 s\).*commandTimeoutMs \(600 s\).*GITBENCH_ATTEMPT_TIMEOUT_MS \(900 s\)/,
      );
    },
  );

  it('never gives an agent less than a single answer, even with the shortest agent limits', () => {
    const limits = agentLimitsSchema.parse({ maxWallMs: 1_000, commandTimeoutMs: 100 });
    expect(attemptDeadline(FIFTEEN_MIN, limits).ms).toBe(FIFTEEN_MIN + 1_100);
    // The defaults (10 min loop, 30 s commands) under the default worker limit.
    expect(attemptDeadline(FIFTEEN_MIN, agentLimitsSchema.parse({})).ms).toBe(FIFTEEN_MIN + 600_000 + 30_000);
  });
});
