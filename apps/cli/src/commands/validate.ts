import type { ParsedArgs } from '../args';
import { formatFixtureError, loadSuite } from '../load-suite';
import { EXIT } from '../exit';

/**
 * `gitbench validate <dir> [--strict] [--json]`: exit 0 only when every fixture file is valid.
 * `--strict` also prints every form upstream accepts but that lets wrong answers pass or is likely a
 * slip (each with file, line and field), and then exits 0 only when there is none.
 */
export async function validateCommand(args: ParsedArgs): Promise<number> {
  const dir = args.positionals[0]!;
  const strict = args.flags.has('strict');
  const { fixtures, errors, warnings, files, manifest } = await loadSuite(dir);
  if (args.flags.has('json')) {
    const report = { suiteVersion: manifest?.version ?? null, files, valid: fixtures.length, errors, ...(strict ? { warnings } : { warningCount: warnings.length }) };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    for (const e of errors) process.stdout.write(`${formatFixtureError(e)}\n`);
    if (strict) for (const w of warnings) process.stdout.write(`warning: ${formatFixtureError(w)}\n`);
    const bad = new Set(errors.map((e) => e.file)).size;
    const version = manifest ? `suite ${manifest.version}: ` : '';
    const lint = strict ? `, ${warnings.length} warning(s)` : warnings.length > 0 ? `; ${warnings.length} warning(s), shown with --strict` : '';
    process.stdout.write(`${version}${fixtures.length} valid fixture(s), ${bad} invalid file(s), ${files} file(s) read${lint}\n`);
  }
  return errors.length === 0 && files > 0 && !(strict && warnings.length > 0) ? EXIT.ok : EXIT.failed;
}
