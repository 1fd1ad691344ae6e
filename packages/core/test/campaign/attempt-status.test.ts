import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_STATUSES,
  completenessPartOf,
  isTerminalStatus,
  isValidOutcome,
  makesCampaignIncomplete,
} from '../../src/campaign';

describe('attempt statuses', () => {
  it('are exactly the Prisma AttemptStatus enum', () => {
    const schema = readFileSync(new URL('../../../../prisma/schema.prisma', import.meta.url), 'utf8');
    const body = /enum AttemptStatus \{([^}]*)\}/.exec(schema)?.[1] ?? '';
    const names = body
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('//'));
    expect(names).toEqual([...ATTEMPT_STATUSES]);
  });

  it('lets only VALID_PASS and VALID_FAIL into denominators', () => {
    expect(ATTEMPT_STATUSES.filter(isValidOutcome)).toEqual(['VALID_PASS', 'VALID_FAIL']);
  });

  it('treats everything but QUEUED and RUNNING as terminal', () => {
    expect(ATTEMPT_STATUSES.filter((s) => !isTerminalStatus(s))).toEqual(['QUEUED', 'RUNNING']);
  });

  it('charges every non-valid status to exactly one completeness part', () => {
    const parts = Object.fromEntries(ATTEMPT_STATUSES.map((s) => [s, completenessPartOf(s)]));
    expect(parts).toEqual({
      QUEUED: 'targetAttempts',
      RUNNING: 'targetAttempts',
      VALID_PASS: null,
      VALID_FAIL: null,
      INFRA_FAILURE: 'targetAttempts',
      UNSCORED: 'judgeScoring',
      HASH_MISMATCH: 'targetAttempts',
      INVALID_INPUT: 'targetAttempts',
      SAFETY_BLOCKED: 'safetyReview',
      CANCELLED: 'targetAttempts',
    });
    for (const s of ATTEMPT_STATUSES) expect(makesCampaignIncomplete(s)).toBe(!isValidOutcome(s));
  });
});
