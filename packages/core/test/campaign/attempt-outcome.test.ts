import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_FAILURES,
  ATTEMPT_OUTCOMES,
  classifyEnding,
  ConfigurationError,
  failureOf,
  isInfrastructureOutcome,
  isQualityOutcome,
  isValidOutcome,
  RetriesExhaustedError,
  SandboxFailure,
  TamperingError,
  tamperingIn,
  TransientError,
  UNJUDGED_REASONS,
} from '../../src';

describe('attempt endings', () => {
  it('map every outcome, failure and unjudged reason to a final status', () => {
    const table = Object.fromEntries([
      ...ATTEMPT_OUTCOMES.map((o) => [o, classifyEnding({ outcome: o }).status]),
      ...ATTEMPT_FAILURES.map((f) => [`failure:${f}`, classifyEnding({ failure: f }).status]),
      ...UNJUDGED_REASONS.map((r) => [`unjudged:${r}`, classifyEnding({ unjudged: r }).status]),
    ]);
    expect(table).toEqual({
      PASS: 'VALID_PASS',
      FAIL: 'VALID_FAIL',
      NEEDS_JUDGE: 'UNSCORED',
      HASH_MISMATCH: 'HASH_MISMATCH',
      SANDBOX_ERROR: 'INFRA_FAILURE',
      CONFIG_ERROR: 'INVALID_INPUT',
      TAMPERING: 'VALID_FAIL',
      'failure:transient': 'INFRA_FAILURE',
      'failure:quality': 'INFRA_FAILURE',
      'failure:configuration': 'INFRA_FAILURE',
      'failure:sandbox': 'INFRA_FAILURE',
      'failure:cancelled': 'CANCELLED',
      'unjudged:no_judge_profile': 'UNSCORED',
      'unjudged:judge_exhausted': 'UNSCORED',
      'unjudged:judge_configuration': 'UNSCORED',
    });
  });

  it(
    'give every ending its whole class: status, error class, ' +
      'whether it counts for quality, whether the machinery failed',
    () => {
      // [status, errorClass, quality, infrastructure], written out apart from the code. Infrastructure
      // endings are retried as new tries; a cancelled attempt is not (nothing failed), nor is an unjudged one.
      const expected: Record<string, [string, string | null, boolean, boolean]> = {
        PASS: ['VALID_PASS', null, true, false],
        FAIL: ['VALID_FAIL', null, true, false],
        NEEDS_JUDGE: ['UNSCORED', 'needs_judge', false, false],
        HASH_MISMATCH: ['HASH_MISMATCH', 'hash_mismatch', false, true],
        SANDBOX_ERROR: ['INFRA_FAILURE', 'sandbox_error', false, true],
        CONFIG_ERROR: ['INVALID_INPUT', 'config_error', false, false],
        TAMPERING: ['VALID_FAIL', 'tampering', true, false],
        'failure:transient': ['INFRA_FAILURE', 'transient', false, true],
        'failure:quality': ['INFRA_FAILURE', 'quality', false, true],
        'failure:configuration': ['INFRA_FAILURE', 'configuration', false, true],
        'failure:sandbox': ['INFRA_FAILURE', 'sandbox_error', false, true],
        'failure:cancelled': ['CANCELLED', 'cancelled', false, false],
        'unjudged:no_judge_profile': ['UNSCORED', 'no_judge_profile', false, false],
        'unjudged:judge_exhausted': ['UNSCORED', 'judge_exhausted', false, false],
        'unjudged:judge_configuration': ['UNSCORED', 'judge_configuration', false, false],
      };
      const whole = (c: { status: string; errorClass: string | null; quality: boolean; infrastructure: boolean }) => [
        c.status,
        c.errorClass,
        c.quality,
        c.infrastructure,
      ];
      expect(
        Object.fromEntries([
          ...ATTEMPT_OUTCOMES.map((o) => [o, whole(classifyEnding({ outcome: o }))]),
          ...ATTEMPT_FAILURES.map((f) => [`failure:${f}`, whole(classifyEnding({ failure: f }))]),
          ...UNJUDGED_REASONS.map((r) => [`unjudged:${r}`, whole(classifyEnding({ unjudged: r }))]),
        ]),
      ).toEqual(expected);
    },
  );

  it('counts exactly the valid statuses as quality, and no quality ending as infrastructure', () => {
    for (const o of ATTEMPT_OUTCOMES) {
      const c = classifyEnding({ outcome: o });
      expect(c.quality).toBe(isValidOutcome(c.status));
      expect(c.quality && c.infrastructure).toBe(false);
    }
    expect(ATTEMPT_OUTCOMES.filter(isQualityOutcome)).toEqual(['PASS', 'FAIL', 'TAMPERING']);
    expect(ATTEMPT_OUTCOMES.filter(isInfrastructureOutcome)).toEqual(['HASH_MISMATCH', 'SANDBOX_ERROR']);
  });

  it('gives a failed sandbox one error class, thrown (an agent) or concluded by scoring (a single answer)', () => {
    // A runner killed from outside ends a single answer's batch unfinished (SANDBOX_ERROR) and an
    // agent's session under its loop (a SandboxFailure): the same event, stored and shown by one name.
    expect(classifyEnding({ failure: failureOf(new SandboxFailure('the runner was killed')) })).toEqual(
      classifyEnding({ outcome: 'SANDBOX_ERROR' }),
    );
    expect(classifyEnding({ outcome: 'SANDBOX_ERROR' }).errorClass).toBe('sandbox_error');
  });

  it('counts tampering against the model with its own error class, never as an excluded, retryable failure', () => {
    expect(classifyEnding({ outcome: 'TAMPERING' })).toEqual({
      status: 'VALID_FAIL',
      errorClass: 'tampering',
      quality: true,
      infrastructure: false,
    });
    const wrapped = new SandboxFailure('the sandbox failed while bash ran', {
      cause: new TamperingError('unreadable reply'),
    });
    expect(tamperingIn(wrapped)?.message).toBe('unreadable reply');
    expect(tamperingIn(new SandboxFailure('engine down'))).toBeUndefined();
    expect(failureOf(new TamperingError('x'))).not.toBe('sandbox');
  });

  it('classifies thrown errors by their class, never by their name', () => {
    class RenamedSandboxError extends SandboxFailure {
      override name = 'SomethingElse';
    }
    expect(failureOf(new RenamedSandboxError('engine down'))).toBe('sandbox');
    expect(failureOf(new ConfigurationError('bad_key', 'no key'))).toBe('configuration');
    expect(failureOf(new RetriesExhaustedError(3, new TransientError('rate_limited', '429')))).toBe('transient');
    const lookalike = new Error('x');
    lookalike.name = 'SandboxInfraError';
    expect(failureOf(lookalike)).toBe('transient');
    expect(failureOf(new SandboxFailure('x'), true)).toBe('cancelled');
  });
});
