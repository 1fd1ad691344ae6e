import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blindBundle, blindChain, commitTrees, oursTrees, testsGroups } from '../lib/blind-rebase';
import { commitMeta, git } from '../lib/history-mining';
import { scratchGit } from './scratch-git';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A rebase as the miner re-creates it: main on a base, and a reference replay of three commits on main: the first
 * changes code and tests, the second only tests (in the older layout's `pkg/tests` too), the third only code.
 */
function history() {
  const { dir, commit } = scratchGit(dirs, 'blind-rebase-test-');

  const base = { 'src/a.py': 'a = 1\n', 'src/b.py': 'b = 1\n', 'tests/test_a.py': 't1\n', 'pkg/tests/old.py': 'o\n' };
  const b = commit(base, [], 'base\n');
  const onto = commit({ ...base, 'src/b.py': 'b = 2\n' }, [b], 'main\n');
  const r1 = commit(
    { ...base, 'src/b.py': 'b = 2\n', 'src/a.py': 'a = 2\n', 'tests/test_a.py': 't2\n' },
    [onto],
    'one\n',
  );
  const r2 = commit(
    { ...base, 'src/b.py': 'b = 2\n', 'src/a.py': 'a = 2\n', 'tests/test_a.py': 't3\n', 'pkg/tests/old.py': 'p\n' },
    [r1],
    'two: tests only\n',
  );
  const r3 = commit(
    { ...base, 'src/b.py': 'b = 3\n', 'src/a.py': 'a = 2\n', 'tests/test_a.py': 't3\n', 'pkg/tests/old.py': 'p\n' },
    [r2],
    'three\n',
  );
  return { dir, b, onto, rebased: [r1, r2, r3] };
}

const tree = (dir: string, rev: string) => git(dir, ['rev-parse', `${rev}^{tree}`]).trim();
const show = (dir: string, rev: string, path: string) => git(dir, ['show', `${rev}:${path}`]);
const hidden = ['tests', 'pkg/tests'];

describe('blind long rebases (hard-mine)', () => {
  it('re-creates a chain without the tests, same messages and identities, a tests-only commit left empty', () => {
    const h = history();
    const [b, onto] = blindChain(h.dir, [h.b, h.onto], hidden, '');
    const rebased = blindChain(h.dir, h.rebased, hidden, onto!);
    expect(commitMeta(h.dir, b!).parents).toEqual([]);
    expect(commitMeta(h.dir, onto!).parents).toEqual([b]);
    expect(commitMeta(h.dir, rebased[0]!).parents).toEqual([onto]);
    expect(commitMeta(h.dir, rebased[2]!).parents).toEqual([rebased[1]]);
    for (const [i, r] of rebased.entries())
      expect({ ...commitMeta(h.dir, r), id: '', parents: [], tree: '' }).toEqual({
        ...commitMeta(h.dir, h.rebased[i]!),
        id: '',
        parents: [],
        tree: '',
      });
    expect(git(h.dir, ['ls-tree', '-r', '--name-only', rebased[2]!]).split('\n').filter(Boolean)).toEqual([
      'src/a.py',
      'src/b.py',
    ]);
    expect(tree(h.dir, rebased[1]!)).toBe(tree(h.dir, rebased[0]!));
  });

  it('groups the commits by the tests they hold, one archive per distinct tests directory', () => {
    const h = history();
    expect(testsGroups(h.dir, h.rebased, 'tests').map((g) => g.at)).toEqual([[0], [1, 2]]);
  });

  it("builds an 'ours' replay: the conflicted file as main had it, carried on or put right only at the tip", () => {
    const h = history();
    const carried = oursTrees(h.dir, h.rebased, h.onto, 0, ['src/a.py'], false);
    expect(carried.map((t) => show(h.dir, t, 'src/a.py'))).toEqual(['a = 1\n', 'a = 1\n', 'a = 1\n']);
    // Everything else is the reference's: the later commit's own change to another file stays.
    expect(show(h.dir, carried[2]!, 'src/b.py')).toBe('b = 3\n');
    const fixed = oursTrees(h.dir, h.rebased, h.onto, 0, ['src/a.py'], true);
    expect(fixed.map((t) => show(h.dir, t, 'src/a.py'))).toEqual(['a = 1\n', 'a = 1\n', 'a = 2\n']);
    expect(fixed[2]).toBe(tree(h.dir, h.rebased[2]!));
    expect(() => oursTrees(h.dir, h.rebased, h.rebased[1]!, 2, ['src/a.py'], true)).toThrow(/no tip after it/);
  });

  it('removes a path the commit before lacked, and commits trees as a replay with the messages given', () => {
    const h = history();
    const [t] = oursTrees(h.dir, h.rebased, h.onto, 0, ['src/new.py', 'src/a.py'], false);
    expect(git(h.dir, ['ls-tree', '--name-only', t!, 'src/']).trim().split('\n')).toEqual(['src/a.py', 'src/b.py']);
    const commits = commitTrees(h.dir, h.onto, [t!], [h.rebased[0]!]);
    expect(commitMeta(h.dir, commits[0]!).parents).toEqual([h.onto]);
    expect(commitMeta(h.dir, commits[0]!).message).toBe('one\n');
  });

  it('refuses to bundle a history holding anything under a hidden directory', () => {
    const h = history();
    const out = join(h.dir, 'x.bundle');
    expect(() => blindBundle(h.dir, { 'refs/heads/main': h.onto }, hidden, out)).toThrow(
      /would hold tests, tests\/test_a.py, pkg\/tests/,
    );
    expect(existsSync(out)).toBe(false);
    const [, onto] = blindChain(h.dir, [h.b, h.onto], hidden, '');
    blindBundle(h.dir, { 'refs/heads/main': onto! }, hidden, out);
    expect(existsSync(out)).toBe(true);
  });
});
