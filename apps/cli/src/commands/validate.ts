import {
  CALIBRATION_BANDS,
  CALIBRATION_FILE,
  checkCalibration,
  summarizeCalibration,
  type CalibrationCheck,
  type CalibrationSummary,
  type Fixture,
} from '@gitbench/core';
import type { SuiteCalibration } from '@gitbench/engine';
import type { ParsedArgs } from '../args';
import { formatFixtureError, loadSuite } from '../load-suite';
import { EXIT } from '../exit';

type CalibrationReport =
  { file: string; error: string } | ({ file: string } & CalibrationCheck & CalibrationSummary) | null;

/**
 * The suite's calibration record (calibration.json at its root), when it has one, against the written
 * difficulty labels. Read from a file, not the database: validate checks a suite offline, where it is
 * authored, and the record says how its figures were obtained.
 */
function calibrationReport(read: SuiteCalibration, fixtures: readonly Fixture[]): CalibrationReport {
  if (read === null || 'error' in read) return read;
  return { file: read.file, ...summarizeCalibration(read.record), ...checkCalibration(fixtures, read.record) };
}

/**
 * The summary line's words on the record. A record that judged no label (every fixture measured over fewer
 * targets than a verdict needs, as a calibration by one player is) says so, rather than "0 disagree", which
 * would read as labels checked and found right.
 */
function calibrationLine(c: Exclude<CalibrationReport, null | { error: string }>): string {
  const judged =
    c.judged === 0
      ? `judges no difficulty label: a verdict needs ${CALIBRATION_BANDS.minTargets} targets, ` +
        `and none of its ${c.measured} measured fixture(s) has them`
      : `${c.disagreements.length} of ${c.judged} difficulty label(s) judged disagree`;
  const trials = c.trialsRun > 0 ? `, ${c.trialsPassed} of ${c.trialsRun} calibration trial(s) passed` : '';
  return `; ${CALIBRATION_FILE} ${judged}${trials}`;
}

/**
 * `gitbench validate <dir> [--strict] [--json]`: exit 0 only when every fixture file is valid.
 * `--strict` also prints every form upstream accepts but that lets wrong answers pass or is likely a
 * slip (each with file, line and field), and then exits 0 only when there is none. A difficulty label
 * the calibration record disagrees with is always printed and never changes the exit code: the label
 * is a claim to revise, not a broken fixture. An unreadable record fails like an invalid file.
 */
export async function validateCommand(args: ParsedArgs): Promise<number> {
  const dir = args.positionals[0]!;
  const strict = args.flags.has('strict');
  const { fixtures, errors, warnings, files, manifest, calibration: read } = await loadSuite(dir);
  const calibration = calibrationReport(read, fixtures);
  const calibrationBroken = calibration !== null && 'error' in calibration;
  if (args.flags.has('json')) {
    const report = {
      suiteVersion: manifest?.version ?? null,
      files,
      valid: fixtures.length,
      errors,
      ...(strict ? { warnings } : { warningCount: warnings.length }),
      calibration,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    for (const e of errors) process.stdout.write(`${formatFixtureError(e)}\n`);
    if (strict) for (const w of warnings) process.stdout.write(`warning: ${formatFixtureError(w)}\n`);
    if (calibration && 'error' in calibration) process.stdout.write(`${calibration.error}\n`);
    if (calibration && 'disagreements' in calibration) {
      for (const d of calibration.disagreements) process.stdout.write(`warning: ${d.message}\n`);
      for (const u of calibration.unknown)
        process.stdout.write(`warning: ${calibration.file}: lists ${u}, which the suite does not hold\n`);
    }
    const bad = new Set(errors.map((e) => e.file)).size;
    const version = manifest ? `suite ${manifest.version}: ` : '';
    const lint = strict
      ? `, ${warnings.length} warning(s)`
      : warnings.length > 0
        ? `; ${warnings.length} warning(s), shown with --strict`
        : '';
    const labels = calibration && 'disagreements' in calibration ? calibrationLine(calibration) : '';
    process.stdout.write(
      `${version}${fixtures.length} valid fixture(s), ${bad} invalid file(s), ${files} file(s) read${lint}${labels}\n`,
    );
  }
  return errors.length === 0 && !calibrationBroken && files > 0 && !(strict && warnings.length > 0)
    ? EXIT.ok
    : EXIT.failed;
}
