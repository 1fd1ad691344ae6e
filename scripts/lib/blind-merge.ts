/**
 * Blind semantic merges for the hard tier's miner (scripts/hard-mine.ts): the same real merge, but the repository the
 * attempt gets holds no tests directory in any commit, so the agent resolves the conflicts without running the
 * project's tests (as Merge-Bench measures), and only the checker's pinned copy of the merged tests decides.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { commitMeta, git, recreate } from './history-mining';

/** `tree` without `dir` (a path such as `tests` or `pyflakes/test`) and everything under it. */
export function treeWithout(scratch: string, tree: string, dir: string): string {
  const index = join(scratch, '.git', 'blind-index');
  rmSync(index, { force: true });
  const env = { GIT_INDEX_FILE: index };
  try {
    git(scratch, ['read-tree', tree], { env });
    git(scratch, ['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', dir], { env });
    return git(scratch, ['write-tree'], { env }).trim();
  } finally {
    rmSync(index, { force: true });
  }
}

/** A merge's history as the miner re-creates it: base, the two sides, upstream's merge (if any) and the reference. */
export interface MergeHistory {
  b: string;
  o: string;
  t: string;
  /** Upstream's merge as committed, '' for a merge the task composes. */
  upstreamMerge: string;
  m: string;
}

/**
 * The same history with `dir` taken out of every commit: each commit re-created over its tree less `dir`, with its
 * own message, identity and dates, over the re-created parents.
 */
export function blindHistory(scratch: string, h: MergeHistory, dir: string): MergeHistory {
  const again = (commit: string, parents: string[]) =>
    recreate(scratch, commitMeta(scratch, commit), treeWithout(scratch, `${commit}^{tree}`, dir), parents);
  const b = again(h.b, []);
  const o = again(h.o, [b]);
  const t = again(h.t, [b]);
  // Upstream's merge and the reference are both merges of the two sides (the same commit where nothing completes it).
  return { b, o, t, upstreamMerge: h.upstreamMerge && again(h.upstreamMerge, [o, t]), m: again(h.m, [o, t]) };
}

/**
 * Every path under `dir` that an object reachable from `refs` has (a blob or a tree, in any commit): what the miner
 * asserts is empty before it writes a blind task's bundle, and what `git rev-list --all --objects | grep` shows in the
 * attempt's repository.
 */
export function pathsUnder(scratch: string, refs: string[], dir: string): string[] {
  // A line without a path is a commit or a root tree.
  return git(scratch, ['rev-list', '--objects', ...refs])
    .split('\n')
    .filter((line) => line.includes(' '))
    .map((line) => line.slice(line.indexOf(' ') + 1))
    .filter((path) => path === dir || path.startsWith(`${dir}/`));
}

/**
 * The sources' merge specs with each blind variant filled in from the task it is the variant `of`: a blind entry
 * names only what differs from its original (its id, and any negative or ticket sentence of its own), the rest is the
 * original's, so the two cannot drift apart. The original must be listed and not itself blind.
 */
export function withBlindOriginals<S extends { id: string; blind?: { of: string } }>(
  specs: readonly (S | (Partial<S> & Pick<S, 'id' | 'blind'>))[],
): S[] {
  const byId = new Map(specs.map((s) => [s.id, s]));
  return specs.map((s) => {
    if (!s.blind) return s as S;
    const original = byId.get(s.blind.of);
    if (!original) throw new Error(`${s.id}: blind of ${s.blind.of}, which the sources do not list`);
    if (original.blind) throw new Error(`${s.id}: blind of ${s.blind.of}, itself a blind variant`);
    return { ...original, ...s } as S;
  });
}
