import { describe, expect, it } from 'vitest';
import {
  familyMetrics,
  familyOfScoringType,
  readRepoTaskOutputs,
  type FamilyAttemptFacts,
  type GgbOutcome,
} from '../../src';

const ggb = (scenario: GgbOutcome['scenario'], success: boolean, solved: boolean | null): GgbOutcome => ({
  family: 'ggb',
  scenario,
  success,
  solved,
  detail: '',
});
const fact = (scoringType: string, difficulty: string, outcome: FamilyAttemptFacts['outcome']): FamilyAttemptFacts => ({
  fixture: 'd/f',
  scoringType,
  difficulty,
  costUsd: null,
  outcome,
});

describe('family metrics', () => {
  it('knows each family by its scoring type', () => {
    expect([
      familyOfScoringType('repo_task'),
      familyOfScoringType('gist'),
      familyOfScoringType('ggb_ir'),
      familyOfScoringType('exact_match'),
    ]).toEqual(['repo_task', 'gist', 'ggb', null]);
  });

  it(
    'GitGoodBench: unfinished attempts stay in both ' + 'denominators, judge-unscored ones leave the solve denominator',
    () => {
      const facts = [
        fact('ggb_mcr', 'easy', ggb('mcr', true, true)),
        fact('ggb_mcr', 'hard', ggb('mcr', true, false)),
        fact('ggb_mcr', 'easy', null),
        fact('ggb_ir', 'medium', ggb('ir', true, null)),
        fact('ggb_ir', 'medium', ggb('ir', true, true)),
        fact('ggb_icc', 'easy', ggb('icc', false, false)),
        fact('gist', 'easy', null),
      ];
      const m = familyMetrics('ggb', facts);
      if (m.family !== 'ggb') throw new Error('family');
      expect(m.attempts).toBe(6);
      expect(m.metrics.overall.success).toMatchObject({ numerator: 4, denominator: 6 });
      expect(m.metrics.overall.solve).toMatchObject({ numerator: 2, denominator: 5 });
      expect(m.metrics.overall.unscored).toBe(1);
      expect(m.metrics.byScenario.map((s) => [s.scenario, s.rates.solve.numerator, s.rates.solve.denominator])).toEqual(
        [
          ['mcr', 1, 3],
          ['ir', 1, 1],
          ['icc', 0, 1],
        ],
      );
      expect(m.metrics.byBand.map((b) => `${b.scenario}/${b.difficulty}`)).toEqual([
        'mcr/easy',
        'mcr/hard',
        'ir/medium',
        'icc/easy',
      ]);
    },
  );

  it('repository tasks: an attempt with no outcome counts in ECR and TPR as failed', () => {
    const outcome = {
      family: 'repo_task' as const,
      process: true,
      result: true,
      comments: '',
      quality: 1,
      kind: 'graded' as const,
      marketValueUsd: 5,
    };
    const m = familyMetrics('repo_task', [fact('repo_task', 'easy', outcome), fact('repo_task', 'easy', null)]);
    if (m.family !== 'repo_task') throw new Error('family');
    expect(m.metrics.ecr).toMatchObject({ numerator: 1, denominator: 2 });
    expect(m.metrics.tpr).toMatchObject({ numerator: 1, denominator: 2 });
  });
});

describe('repository task outputs listing', () => {
  const rec = (stdout: string) => ({
    command: 'x',
    exitCode: 0,
    stdout,
    stderr: '',
    timedOut: false,
    truncated: false,
    durationMs: 1,
  });
  it('reads the listing the probe printed', () => {
    expect(
      readRepoTaskOutputs(rec('{"files":[{"path":"output/a.txt","bytes":3,"sha256":"ab","text":"hi\\n"}]}')),
    ).toEqual({
      ok: true,
      files: [{ path: 'output/a.txt', bytes: 3, sha256: 'ab', text: 'hi\n' }],
    });
  });
  it('says why there is no listing', () => {
    expect(readRepoTaskOutputs(undefined)).toMatchObject({ ok: false });
    expect(readRepoTaskOutputs(rec('Traceback'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('no JSON'),
    });
  });
});
