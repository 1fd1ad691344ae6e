import { readFile } from 'node:fs/promises';
import { readRecordedScores, rescoreRecorded, type RecordedScore } from '@gitbench/engine';
import { intFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import { formatFixtureError, loadSuite } from '../load-suite';
import { createProgress } from '../progress';
import { EXIT } from '../exit';
import { driverFromArgs } from '../sandbox-driver';

/**
 * `gitbench rescore <results.json...> --fixtures <dir> [--json] [--workers N]`: re-score recorded
 * upstream outputs with our scorers and report agreement with upstream's verdicts.
 */
export async function rescoreCommand(args: ParsedArgs): Promise<number> {
  const dir = stringFlag(args, 'fixtures');
  if (!dir) throw new UsageError('--fixtures <dir> is required: the suite the results were made on');
  const workers = intFlag(args, 'workers', 2);
  const { fixtures, errors } = await loadSuite(dir);
  for (const e of errors) process.stderr.write(`invalid fixture (its scores are skipped): ${formatFixtureError(e)}\n`);
  const scores: RecordedScore[] = [];
  for (const file of args.positionals) {
    try {
      scores.push(...readRecordedScores(file, await readFile(file, 'utf8')));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const driver = await driverFromArgs(args, workers);
  const progress = createProgress('rescore');
  try {
    const summary = await rescoreRecorded(scores, fixtures, driver, {
      workers,
      onProgress: (d, t) => progress.update(d, t),
    });
    progress.done();
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else {
      const pct = summary.compared ? ((summary.agree / summary.compared) * 100).toFixed(2) : '-';
      process.stdout.write(
        `compared ${summary.compared}, agree ${summary.agree} (${pct}%), ` +
          `disagree ${summary.disagree}, skipped ${summary.skipped}\n\n`,
      );
      for (const [type, t] of Object.entries(summary.byType).sort()) {
        process.stdout.write(
          `  ${type.padEnd(22)} compared ${t.compared}, agree ${t.agree}, ` +
            `disagree ${t.disagree}, skipped ${t.skipped}\n`,
        );
      }
      for (const d of summary.disagreements) {
        const why = d.checks.filter((c) => c.ok !== d.ours || !c.ok).map((c) => `${c.check}: ${c.detail}`)[0] ?? '';
        process.stdout.write(
          `\nDISAGREE ${d.benchmark}/${d.id} [${d.outputMode}, ${d.scoringType}] ` +
            `upstream=${d.upstream ? 'pass' : 'fail'} ours=${d.ours ? 'pass' : 'fail'} ` +
            `prompt ${d.promptMatches === null ? 'not recorded' : d.promptMatches ? 'matches' : 'DIFFERS'}` +
            `\n  ${why}\n  output: ${JSON.stringify(d.output.slice(0, 200))}\n` +
            (d.translated ? `  mapped onto our repository: ${JSON.stringify(d.translated.slice(0, 200))}\n` : ''),
        );
      }
      if (summary.skips.length) process.stdout.write('\nskipped:\n');
      for (const s of summary.skips)
        process.stdout.write(`  ${s.benchmark}/${s.id} (${s.file.split('/').pop()}): ${s.reason}\n`);
    }
    return summary.disagree === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    progress.done();
    await driver.close();
  }
}
