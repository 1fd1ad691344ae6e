/**
 * Prints the last line of `npm test` from the reports and step statuses in test-results/ (see
 * lib/test-counts.ts), and every failure that is not a failed test on stderr above it. Exits 1 when
 * anything failed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
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
  type Counts,
  type OutsideErrors,
  type PlaywrightReport,
  type VitestReport,
} from './lib/test-counts';

const dir = process.argv[2] ?? 'test-results';

function readText(file: string): string | undefined {
  try {
    return readFileSync(path.join(dir, file), 'utf8');
  } catch {
    return undefined;
  }
}

function read<T>(label: string, file: string, count: (label: string, report: T) => Counts): Counts {
  let report: T;
  try {
    report = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T;
  } catch (err) {
    return missingReport(label, (err as Error).message.split('\n')[0]!);
  }
  return count(label, report);
}

const outside = (label: string): OutsideErrors | undefined => {
  const text = readText(`${label}-outside.json`);
  return text === undefined ? undefined : (JSON.parse(text) as OutsideErrors);
};
// pytest's JUnit XML (scripts/python-check.sh).
const pythonXml = readText('python.xml');
const runners: Record<string, Counts> = {
  unit: read<VitestReport>('unit', 'unit.json', (label, report) => countVitest(label, report, outside(label))),
  integration: read<VitestReport>('integration', 'integration.json', (label, report) =>
    countVitest(label, report, outside(label)),
  ),
  e2e: read<PlaywrightReport>('e2e', 'e2e-report.json', countPlaywright),
  python: pythonXml === undefined ? missingReport('python', 'python.xml is missing') : countJunit('python', pythonXml),
};
// The failed tests by name, then every failure outside a test, then the counts: the tail of a run says
// what broke.
for (const label of ['unit', 'integration']) {
  const text = readText(`${label}.json`);
  if (text === undefined) continue;
  try {
    for (const line of failedVitestTests(label, JSON.parse(text) as VitestReport, process.cwd())) console.error(line);
  } catch {
    // An unreadable report is counted as one failure below, with its reason.
  }
}
const total = [...Object.values(runners), countSteps(readText('steps'), runners)].reduce(addCounts, NO_COUNTS);
for (const p of total.problems) console.error(p);
console.log(formatCounts(total));
process.exit(total.failed > 0 ? 1 : 0);
