/**
 * Held-out tests for the hard tier's miner (scripts/hard-mine.ts): test files the checker runs that the attempt's
 * repository does not hold, as SWE-bench holds back its tests. They travel only inside the pinned tests archive
 * (`tests_pass`'s overlay), which the scorer stages after the attempt, so no command of the attempt can run them.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { git } from './history-mining';

/** The held-out test files of a directory (scripts/hard-ports/<id>/held-out/), by name, in a stable order. */
export function heldOutFiles(dir: string): Record<string, Buffer> {
  const names = readdirSync(dir).sort();
  if (names.length === 0) throw new Error(`${dir}: no held-out test files`);
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(dir, name))]));
}

/** Where a task's held-out tests are kept: scripts/hard-ports/<id>/held-out/, from the repository root. */
export const heldOutDir = (id: string): string => `scripts/hard-ports/${id}/held-out`;

/** A task's held-out test files (see heldOutFiles), read from its directory under scripts/hard-ports. */
export function portedHeldOut(id: string): Record<string, Buffer> {
  return heldOutFiles(resolve(heldOutDir(id)));
}

/**
 * The sentence of `scoring.source.staged` that names a task's held-out tests and says who wrote them: `archive` is
 * what carries them ("the pinned tests archive, never in the bundle"), `origin` whose they are.
 */
export function heldOutSource(id: string, files: Record<string, Buffer>, archive: string, origin: string): string {
  return `Held-out tests (${heldOutDir(id)}/: ${Object.keys(files).join(', ')}), only in ${archive}: ${origin}`;
}

/**
 * A tree: `tree` with the held-out files added under `testsDir`. A held-out file may not replace one of the
 * repository's own tests: the attempt could then read a test the checker does not run, and the ticket's "both sides'
 * tests" would no longer be true of the checked copy.
 */
export function withHeldOut(scratch: string, tree: string, testsDir: string, files: Record<string, Buffer>): string {
  const index = join(scratch, '.git', 'held-out-index');
  rmSync(index, { force: true });
  const env = { GIT_INDEX_FILE: index };
  try {
    git(scratch, ['read-tree', tree], { env });
    for (const [name, content] of Object.entries(files)) {
      const path = `${testsDir}/${name}`;
      if (git(scratch, ['ls-tree', '--name-only', tree, '--', path]).trim())
        throw new Error(`held-out test ${path} is already in the repository's tests`);
      const blob = git(scratch, ['hash-object', '-w', '--stdin'], { input: content }).trim();
      git(scratch, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { env });
    }
    return git(scratch, ['write-tree'], { env }).trim();
  } finally {
    rmSync(index, { force: true });
  }
}

/** Where a replay fails, check by check; when it fails only held-out tests, it says that nothing visible fails. */
export function replayFailures(f: { each: number[]; heldOut: number[]; tip: string | null }): string {
  // The miner's earlier wording for main's tests, so that re-mining a rebase without held-out tests is byte-identical.
  const at = (n: readonly number[]) => `commit${n.length > 1 ? 's' : ''} ${n.join(', ')}`;
  const visible = [
    ...(f.each.length ? [`main's tests fail at ${at(f.each)}`] : []),
    ...(f.tip !== null ? [`at the tip: ${f.tip}`] : []),
  ];
  const held = f.heldOut.length ? [`the held-out tests fail at ${at(f.heldOut)}`] : [];
  if (visible.length === 0 && held.length > 0) return `every test the attempt can run passes; ${held[0]}`;
  return [...visible, ...held].join('; ');
}
