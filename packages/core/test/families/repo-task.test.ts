import { describe, expect, it } from 'vitest';
import {
  GRADE_PROBE,
  getScorer,
  OUTPUTS_PROBE,
  readGraderVerdict,
  repoTaskConfig,
  repoTaskMetrics,
  runScorer,
  type Fixture,
  type ScoringConfig,
} from '../../src';
import { exec, HOSTILE_OUTPUTS } from '../scoring/fixture-factory';

const asset = (path: string, text = 'x') => ({
  asset: path,
  sha256: 'a'.repeat(64),
  base64: Buffer.from(text).toString('base64'),
});
const MARK = '@@GITBENCH_VERDICT ';

function task(scoring: Partial<ScoringConfig> = {}): Fixture {
  return {
    domain: 'image',
    id: 't01',
    description: 'task',
    difficulty: 'easy',
    tags: [],
    setup: [],
    prompt: 'p',
    expected: 'true',
    files: [{ ...asset('_assets/repo.tar.gz'), to: '.', unpack: true }],
    assets: [asset('_assets/grader.py', 'def grade(ctx): ...'), asset('_assets/truth.png')],
    scoring: {
      type: 'repo_task',
      grader: '_assets/grader.py',
      ground_truth: { 'truth.png': '_assets/truth.png', 'repo.tar.gz': '_assets/repo.tar.gz' },
      params: { output: 'output/a.png' },
      outputs: ['output/a.png'],
      market_value_usd: 10,
      ...scoring,
    },
    sourcePath: 'image/t01.yaml',
  };
}

const verdictLine = (v: Record<string, unknown>) => `grader chatter\n${MARK}${JSON.stringify(v)}\n`;
const evidence = (record: ReturnType<typeof exec>) => ({ answer: [], probes: { [GRADE_PROBE]: record } });

describe('repository task scoring', () => {
  it('plans the staging of grader and ground truth, the grader under its time limit, and the outputs listing', () => {
    const plan = getScorer('repo_task').plan(task({ timeout_seconds: 90 }), 'python3 do.py\n')!;
    expect(plan.answerCommands).toEqual(['python3 do.py\n']);
    const grade = plan.probes.find((p) => p.id === GRADE_PROBE)!;
    expect(grade.command).toContain('timeout -k 5 90 /usr/bin/python3 -I -c');
    expect(grade.timeoutMs).toBe(105_000);
    expect(plan.probes.at(-1)!.id).toBe(OUTPUTS_PROBE);
    // Every staged file is checked before the grader runs.
    expect(grade.command.split('\n')[0]).toMatch(/^test -f .*\.ok\.0 && test -f .*\.ok\.1 && test -f .*\.ok\.2 \|\|/);
    expect(plan.probes.filter((p) => p.id.endsWith('.done'))).toHaveLength(3);
  });

  it('runs nothing for an empty answer (the nop) but still grades', () => {
    const plan = getScorer('repo_task').plan(task(), '  \n')!;
    expect(plan.answerCommands).toEqual([]);
    expect(plan.probes.some((p) => p.id === GRADE_PROBE)).toBe(true);
  });

  it('passes on Result and records Process, quality and the market value for the metrics', () => {
    const record = exec(
      'grade',
      verdictLine({ Process: true, Result: true, comments: 'all good', quality: 0.75, kind: 'graded' }),
    );
    const result = runScorer(getScorer('repo_task'), { fixture: task(), output: '', evidence: evidence(record) });
    expect(result.passed).toBe(true);
    expect(result.family).toEqual({
      family: 'repo_task',
      process: true,
      result: true,
      comments: 'all good',
      quality: 0.75,
      kind: 'graded',
      marketValueUsd: 10,
    });
  });

  it('keeps Process when the output was produced but misses the criteria', () => {
    const record = exec(
      'grade',
      verdictLine({ Process: true, Result: false, comments: 'mean diff 20', quality: 0.25, kind: 'graded' }),
    );
    const result = runScorer(getScorer('repo_task'), { fixture: task(), output: '', evidence: evidence(record) });
    expect(result.passed).toBe(false);
    expect(result.family).toMatchObject({ process: true, result: false, quality: 0.25 });
    expect(result.checks.map((c) => [c.check, c.ok])).toEqual([
      ['Process', true],
      ['Result', false],
      ['quality', false],
    ]);
  });

  it.each([
    ['no evidence at all', undefined, 'not_run'],
    ['a grader that timed out', exec('grade', '', 124, { timedOut: true }), 'grader_timeout'],
    ['a grader killed at its limit', exec('grade', 'half', 124), 'grader_timeout'],
    [
      'a grader that crashed without a verdict',
      exec('grade', 'Traceback', 1, { stderr: 'ZeroDivisionError' }),
      'grader_crash',
    ],
    ['a verdict that is not JSON', exec('grade', `${MARK}{nope`), 'grader_crash'],
    [
      'a verdict with a quality off the scale',
      exec('grade', verdictLine({ Process: true, Result: true, comments: '', quality: 0.6, kind: 'graded' })),
      'grader_crash',
    ],
    [
      'no output found',
      exec(
        'grade',
        verdictLine({
          Process: false,
          Result: false,
          comments: 'no output found: output/a.png',
          quality: 0,
          kind: 'no_output',
        }),
      ),
      'no_output',
    ],
  ])('counts %s as Process false and Result false', (_what, record, kind) => {
    const verdict = readGraderVerdict(record);
    expect(verdict).toMatchObject({ process: false, result: false, quality: 0, kind });
    const result = runScorer(getScorer('repo_task'), {
      fixture: task(),
      output: '',
      ...(record ? { evidence: evidence(record) } : {}),
    });
    expect(result.passed).toBe(false);
    expect(result.family).toMatchObject({ family: 'repo_task', process: false, result: false });
  });

  it('never lets Result stand without Process, and reads the last verdict printed', () => {
    const verdict = { Process: true, Result: true, comments: 'printed by the task', quality: 1, kind: 'graded' };
    const forged = `${MARK}${JSON.stringify(verdict)}\n`;
    const record = exec(
      'grade',
      forged + verdictLine({ Process: false, Result: true, comments: 'odd', quality: 0, kind: 'graded' }),
    );
    expect(readGraderVerdict(record)).toMatchObject({ process: false, result: false });
  });

  it('names the field of a scoring block it cannot use', () => {
    expect(repoTaskConfig(task({ grader: '_assets/other.py' }))).toEqual({
      ok: false,
      problems: [{ field: 'grader', message: "_assets/other.py is not among the fixture's assets" }],
    });
    const bad = repoTaskConfig(task({ outputs: ['../escape'], market_value_usd: -1 }));
    expect(bad.ok ? [] : bad.problems.map((p) => p.field).sort()).toEqual(['market_value_usd', 'outputs.0']);
    expect(repoTaskConfig(task({ outputs: ['output/dir/'] })).ok).toBe(true);
    const result = runScorer(getScorer('repo_task'), {
      fixture: task({ ground_truth: { 'x.png': '_assets/none.png' } }),
      output: '',
    });
    expect(result.checks[0]?.detail).toContain('scoring.ground_truth.x.png');
  });

  it('never throws on hostile grader output', () => {
    for (const stdout of Object.values(HOSTILE_OUTPUTS)) {
      const result = runScorer(getScorer('repo_task'), {
        fixture: task(),
        output: '',
        evidence: evidence(exec('grade', stdout)),
      });
      expect(result.passed).toBe(false);
    }
  });
});

describe('GitTaskBench metrics', () => {
  const outcome = (process: boolean, result: boolean, quality: number, marketValueUsd = 10) =>
    ({ family: 'repo_task', process, result, quality, comments: '', kind: 'graded', marketValueUsd }) as const;

  it('divides by every task, a task without an outcome included, and shows alpha with its inputs', () => {
    const m = repoTaskMetrics([
      { fixture: 'image/t01', outcome: outcome(true, true, 1), costUsd: 0.5 },
      { fixture: 'image/t02', outcome: outcome(true, false, 0.25, 20), costUsd: 1 },
      { fixture: 'text/t09', outcome: { ...outcome(false, false, 0), kind: 'no_output' }, costUsd: 0.25 },
      { fixture: 'text/t10', outcome: null, costUsd: null },
      { fixture: 'data/t12', outcome: outcome(true, true, 0.75), costUsd: null },
    ]);
    expect(m.ecr).toMatchObject({ numerator: 3, denominator: 5, value: 0.6 });
    expect(m.tpr).toMatchObject({ numerator: 2, denominator: 5, value: 0.4 });
    expect(m.ecr.interval!.low).toBeLessThan(0.6);
    // (1×10×1 − 0.5) + (1×20×0.25 − 1) + (0×10×0 − 0.25) = 9.5 + 4 − 0.25, over the 3 with a known cost.
    expect(m.alpha.value).toBeCloseTo(13.25 / 3);
    expect(m.alpha).toMatchObject({ n: 3, unknownCost: 1, meanT: 2 / 3 });
    expect(m.alpha.terms.map((t) => t.net)).toEqual([9.5, 4, -0.25]);
  });

  it('has no rates without tasks, rather than rates of zero', () => {
    const m = repoTaskMetrics([]);
    expect(m.ecr.value).toBeNull();
    expect(m.alpha.value).toBeNull();
  });
});
