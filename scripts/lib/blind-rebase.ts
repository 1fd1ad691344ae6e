/**
 * Blind long rebases for the hard tier's miner (scripts/hard-mine.ts): the same real branch and main, but no commit the
 * attempt gets holds the tests directory, so every replayed commit must be right without running the project's tests.
 * The checker lays its own copy of the tests at each rebased commit (the tests the reference rebase has there).
 */
import { git, recreate, bundle, commitMeta } from './history-mining';
import { pathsUnder, treeWithout } from './blind-merge';

/** `tree` without any of `dirs` (see treeWithout). */
export function treeWithoutAll(scratch: string, tree: string, dirs: readonly string[]): string {
  return dirs.reduce((t, dir) => treeWithout(scratch, t, dir), tree);
}

/**
 * A linear run of commits re-created without `dirs`, each on the one before, the first on `parent` ('' for a root).
 */
export function blindChain(
  scratch: string,
  commits: readonly string[],
  dirs: readonly string[],
  parent: string,
): string[] {
  const out: string[] = [];
  for (const c of commits)
    out.push(
      recreate(
        scratch,
        commitMeta(scratch, c),
        treeWithoutAll(scratch, `${c}^{tree}`, dirs),
        out.length || parent ? [out.at(-1) ?? parent] : [],
      ),
    );
  return out;
}

/**
 * The commits (0-based) grouped by the tests directory they hold, in order: each group becomes one pinned tests archive
 * laid at those commits. Commits that share the directory's exact tree share the archive.
 */
export function testsGroups(
  scratch: string,
  commits: readonly string[],
  dir: string,
): { tree: string; at: number[] }[] {
  const groups: { tree: string; at: number[] }[] = [];
  for (const [i, c] of commits.entries()) {
    const tree = git(scratch, ['rev-parse', `${c}:${dir}`]).trim();
    const group = groups.find((g) => g.tree === tree);
    if (group) group.at.push(i);
    else groups.push({ tree, at: [i] });
  }
  return groups;
}

/** `tree` with `paths` as `from` has them (a path `from` lacks is removed). */
export function withPathsFrom(scratch: string, tree: string, from: string, paths: readonly string[]): string {
  const index = `${git(scratch, ['rev-parse', '--absolute-git-dir']).trim()}/blind-rebase-index`;
  const env = { GIT_INDEX_FILE: index };
  git(scratch, ['read-tree', tree], { env });
  git(scratch, ['rm', '-q', '--cached', '--ignore-unmatch', '--', ...paths], { env });
  const listing = git(scratch, ['ls-tree', '-r', '-z', from, '--', ...paths]);
  if (listing.length > 0) git(scratch, ['update-index', '-z', '--index-info'], { env, input: listing });
  const out = git(scratch, ['write-tree'], { env }).trim();
  git(scratch, ['read-tree', '--empty'], { env });
  return out;
}

/**
 * A wrong replay as a sequence of trees: the reference's trees, with commit `at`'s conflicted `paths` kept as `before`
 * (the commit it lands on) had them ("ours": the branch's change to those files given up) from `at` on, or, when
 * `fixedAtTip`, only until the last commit, which is the reference's again (the tip right, the commits between broken).
 */
export function oursTrees(
  scratch: string,
  reference: readonly string[],
  before: string,
  at: number,
  paths: readonly string[],
  fixedAtTip: boolean,
): string[] {
  if (fixedAtTip && at >= reference.length - 1)
    throw new Error(`ours at commit ${at + 1}, fixed at the tip: no tip after it`);
  return reference.map((r, i) =>
    i < at || (fixedAtTip && i === reference.length - 1)
      ? git(scratch, ['rev-parse', `${r}^{tree}`]).trim()
      : withPathsFrom(scratch, `${r}^{tree}`, before, paths),
  );
}

/** The commits of a replay whose trees are `trees`, each on the one before, the first on `onto`, with the messages,
 * identities and dates of `metasFrom`. */
export function commitTrees(
  scratch: string,
  onto: string,
  trees: readonly string[],
  metasFrom: readonly string[],
): string[] {
  const out: string[] = [];
  for (const [i, t] of trees.entries())
    out.push(recreate(scratch, commitMeta(scratch, metasFrom[i]!), t, [out.at(-1) ?? onto]));
  return out;
}

/** Writes the bundle, refusing one that holds anything under one of `dirs` (the point of a blind task). */
export function blindBundle(scratch: string, refs: Record<string, string>, dirs: readonly string[], out: string): void {
  const leaked = dirs.flatMap((dir) => pathsUnder(scratch, Object.values(refs), dir));
  if (leaked.length) throw new Error(`${out}: the blind bundle would hold ${leaked.slice(0, 3).join(', ')}`);
  bundle(scratch, refs, out);
}
