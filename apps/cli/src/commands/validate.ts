import { onlyFlags, parseArgs, UsageError } from '../args';
import { formatFixtureError, loadSuite } from '../load-suite';
import { EXIT } from '../sandbox-driver';

/** `gitbench validate <dir> [--json]`: exit 0 only when every fixture file is valid. */
export async function validateCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, []);
  onlyFlags(args, ['json']);
  const [dir] = args.positionals;
  if (!dir) throw new UsageError('usage: gitbench validate <dir> [--json]');
  const { fixtures, errors, files, manifest } = await loadSuite(dir);
  if (args.flags.has('json')) {
    process.stdout.write(`${JSON.stringify({ suiteVersion: manifest?.version ?? null, files, valid: fixtures.length, errors }, null, 2)}\n`);
  } else {
    for (const e of errors) process.stdout.write(`${formatFixtureError(e)}\n`);
    const bad = new Set(errors.map((e) => e.file)).size;
    const version = manifest ? `suite ${manifest.version}: ` : '';
    process.stdout.write(`${version}${fixtures.length} valid fixture(s), ${bad} invalid file(s), ${files} file(s) read\n`);
  }
  return errors.length === 0 && files > 0 ? EXIT.ok : EXIT.failed;
}
