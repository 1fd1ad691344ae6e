import { describe, expect, it } from 'vitest';
import type { AttemptWrite } from '@gitbench/db';
import { decideSettlement, settlementOfError, type AttemptRunFacts } from '../src/attempts/decide-settlement';

const product = { productVersion: 'v1', productDirty: false };
const evidence = { kind: 'model-call' } as unknown as NonNullable<AttemptWrite['record']['evidence']>;
const passed: AttemptWrite = {
  status: 'VALID_PASS',
  passed: true,
  score: 1,
  summary: { wallDurationMs: 5 },
  record: { evidence },
};
const sandboxGone: AttemptWrite = {
  status: 'INFRA_FAILURE',
  summary: { errorClass: 'sandbox' },
  record: { errorClass: 'sandbox', evidence },
};

function facts(over: Partial<AttemptRunFacts>): AttemptRunFacts {
  return {
    result: passed,
    timedOut: false,
    aborted: false,
    verdict: 'owned',
    deadlineMessage: 'too long',
    wallDurationMs: 42,
    product,
    ...over,
  };
}

describe('how a claimed attempt ends', () => {
  it('writes the executor outcome, stamped with the worker version, when nothing stopped it', () => {
    const s = decideSettlement(facts({}));
    expect(s).toEqual({
      kind: 'finish',
      timedOut: false,
      outcome: { ...passed, summary: { wallDurationMs: 5, ...product }, record: { evidence, ...product } },
    });
  });

  it(
    'ends as attempt_timeout when the deadline fired on an ' +
      'attempt this worker still owns, keeping what the try cost',
    () => {
      const s = decideSettlement(facts({ result: sandboxGone, timedOut: true, aborted: true }));
      expect(s).toMatchObject({ kind: 'finish', timedOut: true, outcome: { status: 'INFRA_FAILURE' } });
      if (s.kind !== 'finish') throw new Error('unreachable');
      expect(s.outcome.summary).toEqual({
        errorClass: 'attempt_timeout',
        errorMessage: 'too long',
        wallDurationMs: 42,
        ...product,
      });
      expect(s.outcome.record).toEqual({
        errorClass: 'attempt_timeout',
        errorMessage: 'too long',
        evidence,
        ...product,
      });
    },
  );

  it('ends as attempt_timeout when the executor never stopped, with no evidence to keep', () => {
    const s = decideSettlement(facts({ result: 'stopped', timedOut: true, aborted: true }));
    expect(s).toMatchObject({
      kind: 'finish',
      timedOut: true,
      outcome: { status: 'INFRA_FAILURE', record: { errorClass: 'attempt_timeout' } },
    });
    if (s.kind === 'finish') expect(s.outcome.record).not.toHaveProperty('evidence');
  });

  it('is CANCELLED when the campaign was cancelled while it ran, even past its deadline', () => {
    for (const timedOut of [false, true]) {
      const s = decideSettlement(facts({ result: sandboxGone, aborted: true, timedOut, verdict: 'cancelled' }));
      expect(s).toEqual({
        kind: 'cancelled',
        outcome: {
          status: 'CANCELLED',
          summary: product,
          record: { errorClass: 'cancelled', errorMessage: 'campaign cancelled while running', evidence, ...product },
        },
      });
    }
  });

  it('is given back and sent again at once when the worker shuts down while it runs', () => {
    const s = decideSettlement(facts({ result: sandboxGone, aborted: true }));
    expect(s).toMatchObject({
      kind: 'give-back',
      next: 'send-now',
      reason: { errorClass: 'given_back', evidence, ...product },
    });
  });

  it('writes nothing when another worker owns it now', () => {
    expect(decideSettlement(facts({ aborted: true, verdict: 'lost' }))).toEqual({ kind: 'lost' });
    expect(decideSettlement(facts({ aborted: true, timedOut: true, verdict: 'lost' }))).toEqual({ kind: 'lost' });
  });

  it('gives a worker error back to be sent again at once, keeping the error to rethrow', () => {
    const error = new Error('connection lost');
    expect(settlementOfError(error, product, { evidence }, 'storage')).toEqual({
      kind: 'give-back',
      next: 'retry-now',
      error,
      reason: { errorClass: 'storage', errorMessage: 'connection lost', evidence, ...product },
    });
  });
});

describe("a third-party agent's gateway calls", () => {
  const gatewayCalls = [{ seq: 1 }] as unknown as NonNullable<AttemptWrite['record']['gatewayCalls']>;
  const withCalls: AttemptWrite = { ...sandboxGone, record: { ...sandboxGone.record, gatewayCalls } };

  it('go with the try however it ends: timed out, cancelled or given back at shutdown', () => {
    const timedOut = decideSettlement(facts({ result: withCalls, timedOut: true, aborted: true }));
    expect(timedOut.kind === 'finish' && timedOut.outcome.record.gatewayCalls).toBe(gatewayCalls);
    const cancelled = decideSettlement(facts({ result: withCalls, aborted: true, verdict: 'cancelled' }));
    expect(cancelled.kind === 'cancelled' && cancelled.outcome.record.gatewayCalls).toBe(gatewayCalls);
    const shutdown = decideSettlement(facts({ result: withCalls, aborted: true, verdict: 'owned' }));
    expect(shutdown.kind === 'give-back' && shutdown.reason.gatewayCalls).toBe(gatewayCalls);
    // A try that made no calls carries no empty list.
    const none = decideSettlement(facts({ result: sandboxGone, aborted: true, verdict: 'owned' }));
    expect(none.kind === 'give-back' && 'gatewayCalls' in none.reason).toBe(false);
  });
});
