import { describe, expect, it } from 'vitest';
import {
  GIST_PROBE,
  gistCommand,
  gistConfig,
  gistLines,
  gistMetrics,
  gistOutcome,
  getScorer,
  lineExecution,
  lineExistence,
  parseGistCommand,
  runScorer,
  type Fixture,
  type GistEvidence,
} from '../../src';
import { exec, HOSTILE_OUTPUTS } from '../scoring/fixture-factory';

describe('the gist command', () => {
  it('splits pytest options, the test file and the node ids', () => {
    expect(
      parseGistCommand(
        'python3 -m pytest -o addopts= -q tests/test_lru.py::LRUCacheTest::test_lru tests/test_lru.py::test_x[a-b]',
      ),
    ).toEqual({
      options: ['-o', 'addopts=', '-q'],
      testFile: 'tests/test_lru.py',
      nodes: ['LRUCacheTest::test_lru', 'test_x[a-b]'],
    });
    expect(gistCommand({ gist: 'gist.py', parsedCommand: parseGistCommand('pytest -q t.py::test_a') as never })).toBe(
      'python3 -m pytest -q gist.py::test_a',
    );
  });

  it.each([
    ['python3 test.py', 'must start with'],
    ['python3 -m pytest tests/test_a.py', 'at least one test'],
    ['python3 -m pytest a.py::test_a b.py::test_b', 'one file'],
    ['python3 -m pytest a.py::test_a;rm', 'not a test name'],
    ['python3 -m pytest a.py::test_a extra', 'only options'],
    ["python3 -m pytest 'a.py::test_a", 'cannot be split'],
  ])('refuses %s', (command, message) => {
    expect(parseGistCommand(command)).toEqual(expect.stringContaining(message));
  });
});

// A gist of three blocks: top level, class C with method m, and a function f not in the original.
const TEXT = [
  'import re',
  'import types',
  '',
  'class C:',
  '    """Doc."""',
  '    def m(self):',
  '        return re.sub("a", "b", "x")',
  '',
  'def f():',
  '    pass',
  '',
  'def test_it():',
  '    assert C().m() == "x"',
].join('\n');
const unit = (lines: [number, number], block: string, kind: 'code' | 'potential' | 'nonexec', ...texts: string[]) => ({
  lines,
  block,
  kind,
  texts,
});
const UNITS = [
  unit([1, 1], '', 'code', 'import re'),
  unit([2, 2], '', 'code', 'import types'),
  unit([4, 4], 'C', 'code', 'class C:'),
  unit([5, 5], 'C', 'nonexec', "'Doc.'"),
  unit([6, 6], 'C.m', 'code', 'def m(self):'),
  unit([7, 7], 'C.m', 'code', "return re.sub('a', 'b', 'x')"),
  unit([9, 9], 'f', 'code', 'def f():'),
  unit([10, 10], 'f', 'potential', 'pass'),
  unit([12, 12], 'test_it', 'code', 'def test_it():'),
  unit([13, 13], 'test_it', 'code', "assert C().m() == 'x'"),
];

function evidence(over: Partial<GistEvidence> = {}): GistEvidence {
  return {
    version: 1,
    original: { ran: true, exit: 0, reports: [] },
    gist: {
      path: 'gist.py',
      exists: true,
      text: TEXT,
      units: UNITS,
      testsFound: ['test_it'],
      testsMissing: [],
      replaced: [],
      lineMap: TEXT.split('\n').map((_, i) => i + 1),
    },
    candidates: {
      C: [
        { file: 'pkg/a.py', found: ["'Doc.'"] },
        { file: 'pkg/b.py', found: ['class C:', "'Doc.'"] },
      ],
      'C.m': [{ file: 'pkg/b.py', found: ['def m(self):', "return re.sub('a', 'b', 'x')"] }],
      test_it: [{ file: 'tests/test_c.py', found: ['def test_it():', "assert C().m() == 'x'"] }],
    },
    topLevelFound: ['import re'],
    run: { ran: true, exit: 0, reports: [{ test: 'test_it', when: 'call', outcome: 'passed' }] },
    fidelity: { ok: true, detail: 'same outcome and output as the original for 1 test(s)' },
    execution: { units: null, executed: [1, 2, 4, 5, 6, 7, 9, 12, 13] },
    ...over,
  };
}

describe('line existence (block-wise, best matching original block)', () => {
  it("finds a block's lines in the original block with the same path that holds most of them", () => {
    const e = lineExistence(evidence())!;
    // Missing: `import types` (not at the original's top level) and both lines of f (no such block).
    expect(e).toMatchObject({ found: 7, total: 10 });
    expect(e.rate).toBeCloseTo(0.7);
    expect(e.units).toEqual([
      'found',
      'missing',
      'found',
      'found',
      'found',
      'found',
      'missing',
      'missing',
      'found',
      'found',
    ]);
  });

  it('counts a combined import one line per name, and marks a unit found only partly', () => {
    const e = evidence();
    e.gist!.units = [unit([1, 1], '', 'code', 'import re', 'import types')];
    expect(lineExistence(e)).toEqual({ found: 1, total: 2, rate: 0.5, units: ['partial'] });
  });

  it('is not measured without a gist that parses', () => {
    expect(lineExistence(evidence({ gist: { path: 'gist.py', exists: false } }))).toBeNull();
  });
});

describe('line execution (executable lines only)', () => {
  it('counts statements and headers, not docstrings, placeholders or except blocks', () => {
    // Executable: 8 code units; the body of m (line 7) ran, f's body is a placeholder.
    expect(lineExecution(evidence())).toEqual({ executed: 8, executable: 8, rate: 1 });
    expect(lineExecution(evidence({ execution: { units: null, executed: [1, 2, 4, 12, 13] } }))).toEqual({
      executed: 5,
      executable: 8,
      rate: 5 / 8,
    });
  });

  it('is not measured when the gist did not run', () => {
    expect(lineExecution(evidence({ execution: undefined }))).toBeNull();
  });
});

describe('the line view', () => {
  it('marks every line executed, not executed, not counted or not code, and found or not', () => {
    const lines = gistLines(evidence({ execution: { units: null, executed: [1, 2, 4, 6, 9, 12, 13] } }));
    expect(lines.map((l) => [l.number, l.execution, l.existence])).toEqual([
      [1, 'executed', 'found'],
      [2, 'executed', 'missing'],
      [3, null, null],
      [4, 'executed', 'found'],
      [5, 'not_counted', 'found'],
      [6, 'executed', 'found'],
      [7, 'not_executed', 'found'],
      [8, null, null],
      [9, 'executed', 'missing'],
      [10, 'not_counted', 'missing'],
      [11, null, null],
      [12, 'executed', 'found'],
      [13, 'executed', 'found'],
    ]);
  });

  it('maps lines after a replaced test to the file that ran, and marks the replaced ones', () => {
    // The gist's test (lines 12-13) was replaced by a three-line original: nothing after it moves here,
    // but its own lines have no counterpart.
    const e = evidence({ execution: { units: null, executed: [1, 2, 4, 6, 7, 9] } });
    e.gist!.lineMap = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, null, null];
    expect(
      gistLines(e)
        .slice(11)
        .map((l) => l.execution),
    ).toEqual(['replaced', 'replaced']);
  });

  it('says not run for every code line of a gist that did not run', () => {
    expect(new Set(gistLines(evidence({ execution: undefined })).map((l) => l.execution))).toEqual(
      new Set([null, 'not_run']),
    );
  });
});

describe('gist outcome', () => {
  const record = (e: unknown) => exec('evaluate', `${JSON.stringify(e)}\n`);

  it('has fidelity when the command gives the original outcome and output', () => {
    const { outcome } = gistOutcome(record(evidence()));
    expect(outcome).toMatchObject({
      fidelity: true,
      failure: null,
      lineExecutionRate: 1,
      lineExistenceRate: 0.7,
      foundLines: 7,
      countedLines: 10,
    });
  });

  it.each([
    ['no gist file', { gist: { path: 'gist.py', exists: false } }, 'no_gist'],
    [
      'a gist that does not parse',
      { gist: { path: 'gist.py', exists: true, text: 'def (', syntaxError: 'invalid syntax (line 1)' } },
      'syntax_error',
    ],
    ['a gist without the test', { gist: { ...evidence().gist!, testsMissing: ['test_it'] } }, 'missing_test'],
    [
      'a gist that imports the original',
      { run: { ran: true, exit: 0, reports: [], borrowed: ['pkg'] }, fidelity: { ok: false, detail: 'imports' } },
      'import_error',
    ],
    ['a gist whose output differs', { fidelity: { ok: false, detail: 'stdout differs' } }, 'runtime_error'],
    ['an evaluator that failed', { evaluatorError: 'Traceback' }, 'not_evaluated'],
    [
      'a command that does not run on the original',
      { originalProblem: 'the command does not run on the original repository' },
      'not_evaluated',
    ],
  ])('has no fidelity for %s', (_what, over, failure) => {
    const { outcome } = gistOutcome(record(evidence(over as Partial<GistEvidence>)));
    expect(outcome).toMatchObject({ fidelity: false, failure });
  });

  it('passes on fidelity and shows each rate with its numerator and denominator', () => {
    const fixture: Fixture = {
      domain: 'pkg',
      id: 'g01',
      description: 'g',
      difficulty: 'easy',
      tags: [],
      setup: [],
      prompt: 'p',
      expected: '',
      files: [{ asset: '_assets/pkg.tar.gz', to: '.', unpack: true, sha256: 'b'.repeat(64), base64: 'eA==' }],
      scoring: { type: 'gist', original: '_assets/pkg.tar.gz', command: 'python3 -m pytest tests/test_c.py::test_it' },
      sourcePath: 'pkg/g01.yaml',
    };
    expect(gistConfig(fixture).ok).toBe(true);
    const plan = getScorer('gist').plan(fixture, "cat > gist.py <<'E'\nE\n")!;
    expect(plan.probes.at(-1)).toMatchObject({ id: GIST_PROBE, timeoutMs: 180_000 });
    const result = runScorer(getScorer('gist'), {
      fixture,
      output: '',
      evidence: { answer: [], probes: { [GIST_PROBE]: record(evidence()) } },
    });
    expect(result.passed).toBe(true);
    expect(result.checks.map((c) => c.detail)).toEqual([
      'same outcome and output as the original for 1 test(s)',
      '100.0% of executable lines ran (8/8)',
      '70.0% of lines found in the original (7/10)',
    ]);
    for (const stdout of Object.values(HOSTILE_OUTPUTS)) {
      expect(
        runScorer(getScorer('gist'), {
          fixture,
          output: '',
          evidence: { answer: [], probes: { [GIST_PROBE]: exec('evaluate', stdout) } },
        }).passed,
      ).toBe(false);
    }
  });
});

describe('Gistify metrics', () => {
  const o = (fidelity: boolean, exec: number | null, exist: number | null, failure: string | null = null) =>
    ({
      family: 'gist',
      fidelity,
      failure,
      detail: '',
      lineExecutionRate: exec,
      executedLines: null,
      executableLines: null,
      lineExistenceRate: exist,
      foundLines: null,
      countedLines: null,
    }) as never;

  it('counts fidelity over every task and averages each line rate over the gists it was measured on', () => {
    const m = gistMetrics([
      { fixture: 'a/g01', outcome: o(true, 0.8, 1), costUsd: 0 },
      { fixture: 'a/g02', outcome: o(false, 0.6, 0.5, 'runtime_error'), costUsd: 0 },
      { fixture: 'a/g03', outcome: o(false, null, null, 'no_gist'), costUsd: 0 },
      { fixture: 'a/g04', outcome: null, costUsd: null },
    ]);
    expect(m.fidelity).toMatchObject({ numerator: 1, denominator: 4, value: 0.25 });
    expect(m.lineExecution).toEqual({ value: 0.7, n: 2 });
    expect(m.lineExistence).toEqual({ value: 0.75, n: 2 });
    expect(m.failures).toEqual({ runtime_error: 1, no_gist: 1, not_finished: 1 });
  });
});
