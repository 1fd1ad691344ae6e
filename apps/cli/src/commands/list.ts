import { DIFFICULTIES, summarizeSuite } from '@gitbench/core';
import type { ParsedArgs } from '../args';
import { formatFixtureError, loadSuite } from '../load-suite';
import { EXIT } from '../exit';

/** `gitbench list <dir> [--json]`: fixture counts per domain and difficulty. */
export async function listCommand(args: ParsedArgs): Promise<number> {
  const dir = args.positionals[0]!;
  const { fixtures, errors, manifest } = await loadSuite(dir);
  const summary = summarizeSuite(fixtures);
  if (args.flags.has('json')) {
    process.stdout.write(
      `${JSON.stringify({ suiteVersion: manifest?.version ?? null, ...summary, invalid: errors.length }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  const head = ['domain', ...DIFFICULTIES, 'total'];
  const rows = summary.domains.map((d) => [
    d.domain,
    ...DIFFICULTIES.map((k) => String(d.byDifficulty[k])),
    String(d.total),
  ]);
  rows.push(['(all)', ...DIFFICULTIES.map((k) => String(summary.byDifficulty[k])), String(summary.total)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(`${fmt(head)}\n${rows.map(fmt).join('\n')}\n`);
  if (errors.length > 0) {
    process.stderr.write(`${errors.length} error(s) in fixture files (not counted):\n`);
    for (const e of errors) process.stderr.write(`  ${formatFixtureError(e)}\n`);
  }
  return EXIT.ok;
}
