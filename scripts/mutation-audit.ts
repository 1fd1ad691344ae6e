/**
 * A cheap mutation audit: plants one-line bugs, one at a time, in a scratch copy of a revision and
 * runs the unit tests of the package each bug is in (vitest --bail 1, with long timeouts so that a
 * loaded machine kills no bug), or for a bug in a query the one integration test of that query
 * (against DATABASE_URL, in a schema of its own). A bug the tests do not notice "survives". Each set of tests must pass
 * on the copy unmutated first. Not part of `npm test`: a run takes 10 to 30 minutes.
 *
 *   tsx scripts/mutation-audit.ts [--rev REV] [--only id,id]
 *
 * The copy is a detached git worktree of REV (default HEAD) with node_modules linked from this
 * checkout, except the workspace packages, which point into the copy so the planted bug is the one
 * imported. A mutation whose line is not in REV's file prints "n/a".
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MUTATIONS, type Mutation } from './lib/mutations';

const ROOT = path.resolve(import.meta.dirname, '..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const rev = arg('--rev') ?? 'HEAD';
const only = arg('--only')?.split(',');

function scratchCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gitbench-mutants-'));
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', '--quiet', dir, rev]);
  // Third-party packages from this checkout; the workspace's own, as relative links, into the copy.
  mkdirSync(path.join(dir, 'node_modules'));
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@gitbench') continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  }
  mkdirSync(path.join(dir, 'node_modules/@gitbench'));
  for (const pkg of readdirSync(path.join(ROOT, 'node_modules/@gitbench'))) {
    symlinkSync(
      readlinkSync(path.join(ROOT, 'node_modules/@gitbench', pkg)),
      path.join(dir, 'node_modules/@gitbench', pkg),
    );
  }
  for (const group of ['packages', 'apps']) {
    for (const pkg of readdirSync(path.join(ROOT, group))) {
      const own = path.join(ROOT, group, pkg, 'node_modules');
      if (existsSync(own) && existsSync(path.join(dir, group, pkg)))
        symlinkSync(own, path.join(dir, group, pkg, 'node_modules'));
    }
  }
  // The generated Prisma client is not committed.
  symlinkSync(path.join(ROOT, 'packages/db/src/generated'), path.join(dir, 'packages/db/src/generated'));
  return dir;
}

type Verdict = 'killed' | 'survived' | 'n/a';

// The copy is not beside ../shared: name the upstream data the tests compare against.
// Debian's python3 first, as test.sh installs it: a version manager's shim is slow to start on a loaded machine.
const ENV: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `/usr/bin:${process.env['PATH'] ?? ''}`,
  GITBENCH_UPSTREAM_DIR: process.env['GITBENCH_UPSTREAM_DIR'] ?? path.resolve(ROOT, '../shared/gitbench-upstream'),
};
delete ENV['CI'];

/** The tests, run; the first failing file and test, or null when they pass. */
function runTests(dir: string, project: string, tests: string[]): string | null {
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--project', project, '--bail', '1', '--testTimeout', '120000', ...tests],
    { cwd: dir, env: ENV, encoding: 'utf8', timeout: 600_000 },
  );
  if (run.status === 0) return null;
  // Without colours, so the failing file can be read off vitest's FAIL line.
  const text = `${run.stdout}\n${run.stderr}`.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  const failed = new RegExp(`FAIL\\s+${project}\\s+(\\S+)(?:\\s+>\\s+([^\\n]+))?`).exec(text);
  return failed ? `${failed[1]}${failed[2] ? ` > ${failed[2].slice(0, 90)}` : ''}` : `exit ${run.status}`;
}

function runOne(dir: string, m: Mutation): { verdict: Verdict; by: string } {
  const file = path.join(dir, m.file);
  if (!existsSync(file)) return { verdict: 'n/a', by: 'no such file at this revision' };
  const original = readFileSync(file, 'utf8');
  if (m.delete !== true && !original.includes(m.from!)) return { verdict: 'n/a', by: 'line not at this revision' };
  try {
    if (m.delete) rmSync(file);
    else writeFileSync(file, original.replace(m.from!, m.to!));
    const failed = runTests(dir, m.project ?? 'unit', m.tests);
    return failed === null ? { verdict: 'survived', by: '' } : { verdict: 'killed', by: failed };
  } finally {
    writeFileSync(file, original);
  }
}

const dir = scratchCopy();
try {
  const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  console.log(`mutation audit of ${commit}`);
  const chosen = MUTATIONS.filter((x) => !only || only.includes(x.id));
  // Each set of tests must pass on the copy as it is, or no verdict of it means anything.
  for (const key of new Set(chosen.map((m) => [m.project ?? 'unit', ...m.tests].join(' ')))) {
    const [project, ...tests] = key.split(' ');
    const failed = runTests(dir, project!, tests);
    if (failed !== null) throw new Error(`the unmutated copy fails ${key}: ${failed}`);
  }
  const tally: Record<Verdict, number> = { killed: 0, survived: 0, 'n/a': 0 };
  for (const m of chosen) {
    const t0 = Date.now();
    const { verdict, by } = runOne(dir, m);
    tally[verdict]++;
    console.log(
      `${verdict.padEnd(8)} ${m.id.padEnd(34)} ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s  ${by}`,
    );
  }
  console.log(`${tally.killed} killed, ${tally.survived} survived, ${tally['n/a']} not applicable`);
} finally {
  execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', dir]);
}
