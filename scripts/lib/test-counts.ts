/**
 * The counts on `npm test`'s last line, from the runners' reports and the steps' exit statuses. Every
 * failure counts, whether a test failed or not: an error outside any test (a file that failed to load,
 * a beforeAll or afterAll that threw, an unhandled rejection, a Playwright error in its global set-up
 * or web server) is one failure, and so is a step that failed with no test to show for it (typecheck,
 * lint, a build, a runner that exited non-zero with nothing counted). The last line can never read
 * "0 failed" over a run that failed.
 */

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** One line per failure that is not a failed test: what broke, where. */
  problems: string[];
}

/** The parts of vitest's JSON report read here. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { fullName?: string; title?: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** What failed outside any test in a vitest run, as outside-errors-reporter.ts writes it. */
export interface OutsideErrors {
  /** Vitest's reason for the run's end: passed, failed or interrupted. */
  reason: string;
  errors: { where: string; kind: 'file' | 'suite' | 'unhandled'; message: string }[];
}

/** The parts of Playwright's JSON report read here. */
export interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors?: { message?: string }[];
}

export const NO_COUNTS: Counts = { passed: 0, failed: 0, skipped: 0, problems: [] };

const firstLine = (text: string | undefined) => (text ?? '').trim().split('\n')[0]!.slice(0, 200);

export function countVitest(label: string, report: VitestReport, outside: OutsideErrors | undefined): Counts {
  const problems = outside
    ? outside.errors.map((e) => `${label}: ${e.kind === 'unhandled' ? 'unhandled error' : e.where}: ${e.message}`)
    : [`${label}: no record of the errors outside tests (${label}-outside.json): counted as one failure`];
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + problems.length,
    skipped: report.numPendingTests + report.numTodoTests,
    problems,
  };
}

/**
 * One line per failed test of a vitest report: its file, its name and its error's first line. CI shows
 * only the tail of a run, and vitest's own account of a failure scrolls away under the browser tests'
 * output; these lines print just above the last one.
 */
export function failedVitestTests(label: string, report: VitestReport, root = ''): string[] {
  const lines: string[] = [];
  for (const file of report.testResults) {
    const where = root && file.name.startsWith(root) ? file.name.slice(root.length).replace(/^\//, '') : file.name;
    for (const t of file.assertionResults ?? []) {
      if (t.status !== 'failed') continue;
      lines.push(`${label}: FAILED ${where} > ${t.fullName ?? t.title ?? '?'}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  return lines;
}

export function countPlaywright(label: string, report: PlaywrightReport): Counts {
  const errors = report.errors ?? [];
  return {
    passed: report.stats.expected,
    failed: report.stats.unexpected + report.stats.flaky + errors.length,
    skipped: report.stats.skipped,
    problems: errors.map((e) => `${label}: ${firstLine(e.message) || 'an error outside any test'}`),
  };
}

/**
 * A JUnit XML report (pytest's --junitxml): the sums of its <testsuite> elements' counts. Errors (a
 * fixture or a module that failed) are failures; a report with no suite at all is one failure.
 */
export function countJunit(label: string, xml: string): Counts {
  const suites = [...xml.matchAll(/<testsuite\b([^>]*)>/g)].map((m) => m[1]!);
  if (suites.length === 0)
    return { ...NO_COUNTS, failed: 1, problems: [`${label}: no <testsuite> in the report: counted as one failure`] };
  const attr = (attrs: string, name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(attrs)?.[1] ?? 0);
  let passed = 0,
    failed = 0,
    skipped = 0;
  for (const s of suites) {
    const bad = attr(s, 'failures') + attr(s, 'errors');
    failed += bad;
    skipped += attr(s, 'skipped');
    passed += attr(s, 'tests') - bad - attr(s, 'skipped');
  }
  return { passed, failed, skipped, problems: [] };
}

/**
 * The steps' exit statuses (scripts/lib/test-steps.sh writes them): a failed step whose failure the
 * counts so far do not hold (every step but the test runners, or a runner that counted no failure)
 * is one failure more. A missing record is one failure: test.sh always writes it.
 */
export function countSteps(steps: string | undefined, runners: Record<string, Counts>): Counts {
  if (steps === undefined)
    return { ...NO_COUNTS, failed: 1, problems: ['no record of the steps run (steps): counted as one failure'] };
  const problems: string[] = [];
  for (const line of steps.split('\n').filter((l) => l.trim() !== '')) {
    const [name = '', status = ''] = line.trim().split(/\s+/);
    if (status === '0') continue;
    if ((runners[name]?.failed ?? 0) > 0) continue;
    problems.push(`step ${name} failed (exit ${status})${name in runners ? ' with no failed test counted' : ''}`);
  }
  return { ...NO_COUNTS, failed: problems.length, problems };
}

/** A report that is missing or unreadable: its runner did not finish, which is one failure. */
export function missingReport(label: string, why: string): Counts {
  return { ...NO_COUNTS, failed: 1, problems: [`${label}: no report (${why}): counted as one failure`] };
}

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
    problems: [...a.problems, ...b.problems],
  };
}

export function formatCounts(c: Counts): string {
  return `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
}
