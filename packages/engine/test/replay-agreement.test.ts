import { describe, expect, it } from 'vitest';
import { replayAgreement, type SuiteRunEntry } from '../src';
import { fixture, replayed } from './run-entries';

describe('replayAgreement', () => {
  it('compares quality outcomes with the recorded verdicts and tallies them by scoring type', () => {
    const a = fixture('log', 'f001');
    const b = fixture('log', 'f002');
    const c = fixture('bisect', 'f001', 'bisect_regression');
    const summary = replayAgreement([replayed(a, 'PASS', true), replayed(b, 'FAIL', false), replayed(c, 'FAIL', true)]);
    expect(summary).toMatchObject({ compared: 3, agreed: 2, disagreed: 1, skipped: 0 });
    expect(summary.byType).toEqual({
      exact_match: { compared: 2, agreed: 2, disagreed: 0, skipped: 0 },
      bisect_regression: { compared: 1, agreed: 0, disagreed: 1, skipped: 0 },
    });
    expect(summary.disagreements).toEqual([
      expect.objectContaining({
        benchmark: 'bisect',
        id: 'f001',
        recorded: true,
        ours: false,
        why: 'exact match: differs',
        commitIdsMapped: false,
      }),
    ]);
  });

  it('skips, with the reason, every attempt that has no verdict of ours or nothing recorded to compare', () => {
    const judge = fixture('commit_messages', 'f001', 'llm_judge');
    const infra = fixture('clean', 'f001', 'state_assertions');
    const notRun: SuiteRunEntry = {
      fixture: fixture('log', 'f003'),
      outputMode: 'text',
      trial: 1,
      attempt: null,
      response: null,
      error: 'No recorded text answer',
      durationMs: 1,
    };
    const blank = replayed(fixture('log', 'f004'), 'FAIL', false, { output: '' });
    blank.response!.route.replay!.recordedVerdict.error = 'Request timed out';
    const unrecorded = replayed(fixture('log', 'f005'), 'PASS', true);
    delete unrecorded.response!.route.replay;
    const summary = replayAgreement([
      replayed(judge, 'NEEDS_JUDGE', true),
      replayed(infra, 'SANDBOX_ERROR', false, { error: 'sandbox failed: docker gone' }),
      notRun,
      blank,
      unrecorded,
    ]);
    expect(summary).toMatchObject({ compared: 0, agreed: 0, disagreed: 0, skipped: 5 });
    expect(summary.skips.map((s) => `${s.benchmark}/${s.id}: ${s.reason}`)).toEqual([
      'clean/f001: SANDBOX_ERROR: sandbox failed: docker gone',
      'commit_messages/f001: unscored: an llm_judge fixture and no judge profile (--judge-profile)',
      'log/f003: not run: No recorded text answer',
      'log/f004: no model output recorded (upstream error: Request timed out)',
      'log/f005: no verdict recorded with the replayed answer',
    ]);
  });
});
