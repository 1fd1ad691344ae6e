import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addCounts,
  countJunit,
  countPlaywright,
  countSteps,
  countVitest,
  failedVitestTests,
  formatCounts,
  missingReport,
  NO_COUNTS,
} from '../lib/test-counts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe("npm test's last line, counted", () => {
  const report = { numPassedTests: 1, numFailedTests: 1, numPendingTests: 3, numTodoTests: 1, testResults: [] };

  it('counts every error outside a test beside the failed tests, and shows skips', () => {
    const c = countVitest('unit', report, {
      reason: 'failed',
      errors: [
        { where: '/r/a.test.ts > d', kind: 'suite', message: 'hook broke' },
        { where: '/r/b.test.ts', kind: 'file', message: 'cannot load' },
        { where: 'the run', kind: 'unhandled', message: 'late' },
      ],
    });
    expect(c).toMatchObject({ passed: 1, failed: 4, skipped: 4 });
    expect(c.problems).toEqual([
      'unit: /r/a.test.ts > d: hook broke',
      'unit: /r/b.test.ts: cannot load',
      'unit: unhandled error: late',
    ]);
    // Without the record of errors outside tests, nothing says there were none.
    expect(countVitest('unit', report, undefined)).toMatchObject({ failed: 2 });
  });

  it('names each failed test with its file and its error, nothing else', () => {
    const lines = failedVitestTests(
      'integration',
      {
        ...report,
        testResults: [
          {
            name: '/r/packages/a.int.test.ts',
            status: 'failed',
            assertionResults: [
              { fullName: 'a > passes', status: 'passed' },
              { fullName: 'a > breaks', status: 'failed', failureMessages: ['AssertionError: 1 !== 2\n at x'] },
            ],
          },
          { name: '/r/b.test.ts', status: 'passed', assertionResults: [{ title: 'b', status: 'passed' }] },
        ],
      },
      '/r',
    );
    expect(lines).toEqual(['integration: FAILED packages/a.int.test.ts > a > breaks: AssertionError: 1 !== 2']);
  });

  it('counts Playwright errors outside any test, flaky tests and skips', () => {
    const c = countPlaywright('e2e', {
      stats: { expected: 9, unexpected: 1, flaky: 1, skipped: 2 },
      errors: [{ message: 'Error: global setup failed\nstack' }, {}],
    });
    expect(c).toMatchObject({ passed: 9, failed: 4, skipped: 2 });
    expect(c.problems).toEqual(['e2e: Error: global setup failed', 'e2e: an error outside any test']);
  });

  it("counts pytest's JUnit report, errors as failures; a report without a suite is one failure", () => {
    const xml =
      '<?xml version="1.0"?><testsuites><testsuite name="pytest" errors="1" ' +
      'failures="2" skipped="1" tests="9" time="1"><testcase/></testsuite></testsuites>';
    expect(countJunit('python', xml)).toMatchObject({ passed: 5, failed: 3, skipped: 1 });
    expect(countJunit('python', '<testsuites></testsuites>')).toMatchObject({ passed: 0, failed: 1 });
  });

  it('counts a failed step once, unless its runner already counted a failure', () => {
    const runners = { unit: { ...NO_COUNTS, failed: 2 }, integration: NO_COUNTS };
    const c = countSteps('typecheck 2\nlint 0\nunit 1\nintegration 1\nweb-build 1\n', runners);
    expect(c.problems).toEqual([
      'step typecheck failed (exit 2)',
      'step integration failed (exit 1) with no failed test counted',
      'step web-build failed (exit 1)',
    ]);
    expect(c.failed).toBe(3);
    expect(countSteps(undefined, runners).failed).toBe(1);
  });

  it('sums the runners; a missing report is one failure, never a silent zero', () => {
    const total = [
      countVitest('unit', report, { reason: 'failed', errors: [] }),
      missingReport('integration', 'ENOENT'),
      countPlaywright('e2e', { stats: { expected: 2, unexpected: 0, flaky: 0, skipped: 0 } }),
    ].reduce(addCounts, NO_COUNTS);
    expect(formatCounts(total)).toBe('3 passed, 2 failed, 4 skipped');
    expect(total.problems.at(-1)).toBe('integration: no report (ENOENT): counted as one failure');
  });
});

// Tiny suites run through test.sh's own step functions, under the repository's vitest rules, then
// counted by scripts/test-counts.ts: the line a person reads at the end of `npm test`.
const TINY = {
  'describe-before.test.ts': `import { beforeAll, describe, expect, it } from 'vitest';
describe('d', () => { beforeAll(() => { throw new Error('describe beforeAll broke'); }); it('t', () => \
expect(1).toBe(1)); });`,
  'describe-after.test.ts': `import { afterAll, describe, expect, it } from 'vitest';
describe('d', () => { afterAll(() => { throw new Error('describe afterAll broke'); }); it('t', () => \
expect(1).toBe(1)); });`,
  'file-before.test.ts': `import { beforeAll, expect, it } from 'vitest';
beforeAll(() => { throw new Error('file beforeAll broke'); });
it('t', () => expect(1).toBe(1));`,
  'late-rejection.test.ts': `import { expect, it } from 'vitest';
it('t1', () => { setTimeout(() => void Promise.reject(new Error('rejected after its test')), 5); expect(1).toBe(1); });
it('t2', async () => { await new Promise((r) => setTimeout(r, 100)); expect(1).toBe(1); });`,
  'no-load.test.ts': `import { it } from 'vitest';
throw new Error('cannot load');
it('t', () => {});`,
  'committed-only.test.ts': `import { expect, it } from 'vitest';
it.only('alone', () => expect(1).toBe(1));
it('dropped', () => expect(1).toBe(1));`,
  'missing-golden.test.ts': `import { expect, it } from 'vitest';
it('matches its golden file', async () => { await expect('text').toMatchFileSnapshot('golden/none-yet.txt'); });`,
  'fine.test.ts': `import { expect, it } from 'vitest';
it('passes', () => expect(1).toBe(1));
it.skip('is skipped', () => {});`,
};

// Inside the repository, so the suites find vitest; under test-results/, which no glob of ours collects, lints or
// commits.
mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
const scratch = mkdtempSync(path.join(ROOT, 'test-results', 'tiny-suites-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PASSING_REPORTS: Record<string, unknown> = {
  'unit.json': { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, testResults: [] },
  'unit-outside.json': { reason: 'passed', errors: [] },
  'integration.json': { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, testResults: [] },
  'integration-outside.json': { reason: 'passed', errors: [] },
  'e2e-report.json': { stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 } },
  'python.xml':
    '<testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="0"></testsuite></testsuites>',
};

/**
 * Writes the files, runs the given steps of test.sh in their directory, and counts: the last line, its
 * exit status and the problems above it. The runners no step ran leave the reports of passing runs,
 * so what is counted is these steps alone.
 */
function runAndCount(name: string, files: Record<string, string>, steps: string[]) {
  const suite = path.join(scratch, name);
  const results = path.join(suite, 'results');
  mkdirSync(results, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(suite, file), text);
  writeFileSync(
    path.join(suite, 'vitest.config.ts'),
    `import { defineConfig } from 'vitest/config';\nimport { RUN_RULES } ` +
      `from ${JSON.stringify(path.join(ROOT, 'vitest.config.ts'))};\nexport default ` +
      `defineConfig({ test: { ...RUN_RULES, include: ['*.test.ts'] } });\n`,
  );
  // The repository's Playwright configuration without its web server and global set-up.
  writeFileSync(
    path.join(suite, 'playwright.config.ts'),
    `import config from ${JSON.stringify(path.join(ROOT, 'playwright.config.ts'))};\nexport default ` +
      `{ ...config, testDir: '.', outputDir: 'pw-out', globalSetup: undefined, webServer: undefined, ` +
      `reporter: [['json', { outputFile: ${JSON.stringify(path.join(results, 'e2e-report.json'))} }]] };\n`,
  );
  const script = [
    `cd ${JSON.stringify(ROOT)} && . scripts/lib.sh && ` +
      `results=${JSON.stringify(results)} && . scripts/lib/test-steps.sh`,
    `cd ${JSON.stringify(suite)}`,
    ...steps,
    `for f in ${Object.keys(PASSING_REPORTS).join(' ')}; do [ -e "$results/$f" ] || touch "$results/missing-$f"; done`,
  ].join('\n');
  // Without CI in the environment: the repository's rules, not CI=true, make a missing golden file fail.
  const { CI: _ci, ...env } = process.env;
  spawnSync('bash', ['-c', script], { env, encoding: 'utf8', timeout: 120_000 });
  for (const [file, report] of Object.entries(PASSING_REPORTS)) {
    if (existsSync(path.join(results, `missing-${file}`)))
      writeFileSync(path.join(results, file), typeof report === 'string' ? report : JSON.stringify(report));
  }
  const run = spawnSync('node', ['--import', 'tsx', 'scripts/test-counts.ts', results], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { lastLine: run.stdout.trim().split('\n').at(-1), status: run.status, stderr: run.stderr, results };
}

const UNIT = 'step unit vitest_reports unit --config vitest.config.ts';

describe('npm test run on tiny suites', () => {
  it('counts a passing suite as passing', () => {
    const r = runAndCount('passing', { 'fine.test.ts': TINY['fine.test.ts'] }, [UNIT, 'step lint true']);
    expect(r.lastLine).toBe('1 passed, 0 failed, 1 skipped');
    expect(r.status).toBe(0);
  }, 120_000);

  it(
    'counts every failure: hooks that threw, an unhandled rejection, a file ' +
      'that did not load, a committed .only, a missing golden file and failed steps',
    () => {
      const r = runAndCount('failing', TINY, [
        UNIT,
        'step typecheck false',
        'step lint true',
        'step web-build bash -c "exit 3"',
      ]);
      // Failed: the .only test and the one without its golden file; five errors outside tests (two
      // describe hooks, a file hook, a file that did not load, the late rejection); two steps.
      expect(r.lastLine).toMatch(/^\d+ passed, 9 failed, \d+ skipped$/);
      expect(r.status).toBe(1);
      for (const expected of [
        /describe-before\.test\.ts > d: describe beforeAll broke/,
        /describe-after\.test\.ts > d: describe afterAll broke/,
        /file-before\.test\.ts: file beforeAll broke/,
        /unhandled error: rejected after its test/,
        /no-load\.test\.ts: cannot load/,
        /step typecheck failed \(exit 1\)/,
        /step web-build failed \(exit 3\)/,
      ]) {
        expect(r.stderr).toMatch(expected);
      }
      // The two failed tests, as vitest reported them.
      const unit = JSON.parse(readFileSync(path.join(r.results, 'unit.json'), 'utf8')) as {
        testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
      };
      const failedTests = unit.testResults.flatMap((f) => f.assertionResults).filter((a) => a.status === 'failed');
      expect(failedTests.map((a) => [a.title, a.failureMessages.join('').split('\n')[0]])).toEqual([
        ['alone', expect.stringMatching(/Unexpected \.only modifier/)],
        ['matches its golden file', expect.stringMatching(/Snapshot .* mismatched/)],
      ]);
    },
    120_000,
  );
});

describe('a committed test.only in a browser spec', () => {
  it("fails Playwright's run under the repository's configuration and counts", () => {
    const spec =
      `import { expect, test } from '@playwright/test';\ntest.only('alone', ` +
      `() => expect(1).toBe(1));\ntest('dropped', () => expect(1).toBe(1));\n`;
    const r = runAndCount('browser-only', { 'focused.spec.ts': spec }, [
      'step e2e npx playwright test --config playwright.config.ts',
    ]);
    expect(r.lastLine).toBe('0 passed, 1 failed, 0 skipped');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/e2e: Error: item focused with '\.only' is not allowed due to the 'forbidOnly' option/);
  }, 120_000);
});

describe('the lint rules', () => {
  it('refuse a committed .only in a unit test and a browser spec', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const [file, text] of [
      ['packages/core/test/x.test.ts', "import { it } from 'vitest';\nit.only('a', () => {});\n"],
      ['e2e/x.spec.ts', "import { test } from '@playwright/test';\ntest.describe.only('a', () => {});\n"],
    ] as const) {
      const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
      expect(
        result!.messages.map((m) => m.message),
        file,
      ).toContain('a committed .only drops every other test');
    }
  }, 60_000);
});
