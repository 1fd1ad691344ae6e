import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { blindHistory, pathsUnder, treeWithout, withBlindOriginals } from '../lib/blind-merge';
import { commitMeta, git } from '../lib/history-mining';
import { IDENTITY_ENV, scratchGit } from './scratch-git';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A merge's history as the miner re-creates it: a base, two sides and their merge, each holding code beside
 * `tests/` (with the shims under it) and, in the base, a nested `pkg/tests` directory that is code, not the tests.
 */
function history() {
  const { dir, commit } = scratchGit(dirs, 'blind-merge-test-');

  const code = { 'src/code.py': 'x = 1\n', 'src/pkg/tests/helper.py': 'y = 2\n', LICENSE: 'MIT\n' };
  const tests = { 'tests/test_code.py': 'def test(): pass\n', 'tests/shims/pytz.py': '' };
  const b = commit({ ...code, ...tests }, [], 'base\n');
  const o = commit({ ...code, ...tests, 'src/code.py': 'x = 2\n' }, [b], 'ours\n\nbody\n');
  const t = commit({ ...code, ...tests, 'tests/test_code.py': 'def test2(): pass\n' }, [b], 'theirs\n');
  const m = commit({ ...code, ...tests, 'src/code.py': 'x = 3\n' }, [o, t], "Merge branch 'theirs'\n");
  return { dir, h: { b, o, t, upstreamMerge: m, m } };
}

const paths = (dir: string, rev: string) => git(dir, ['ls-tree', '-r', '--name-only', rev]).split('\n').filter(Boolean);

describe('blind semantic merges (hard-mine)', () => {
  it('takes the tests directory out of a tree and leaves everything else, a nested tests directory too', () => {
    const { dir, h } = history();
    expect(paths(dir, treeWithout(dir, `${h.b}^{tree}`, 'tests'))).toEqual([
      'LICENSE',
      'src/code.py',
      'src/pkg/tests/helper.py',
    ]);
  });

  it('re-creates the whole history without it, same messages, identities, dates and shape', () => {
    const { dir, h } = history();
    const blind = blindHistory(dir, h, 'tests');
    expect(pathsUnder(dir, [h.o, h.t], 'tests').length).toBeGreaterThan(0);
    expect(pathsUnder(dir, [blind.o, blind.t, blind.m], 'tests')).toEqual([]);
    for (const k of ['b', 'o', 't', 'm'] as const) {
      const [was, now] = [commitMeta(dir, h[k]), commitMeta(dir, blind[k])];
      expect({ ...now, id: '', parents: [], tree: '' }).toEqual({ ...was, id: '', parents: [], tree: '' });
    }
    expect(commitMeta(dir, blind.o).parents).toEqual([blind.b]);
    expect(commitMeta(dir, blind.t).parents).toEqual([blind.b]);
    expect(commitMeta(dir, blind.m).parents).toEqual([blind.o, blind.t]);
    // Upstream's merge is the reference here: both stay one commit.
    expect(blind.upstreamMerge).toBe(blind.m);
    expect(paths(dir, blind.m)).toEqual(['LICENSE', 'src/code.py', 'src/pkg/tests/helper.py']);
  });

  it('keeps a composed merge composed: no upstream merge to re-create', () => {
    const { dir, h } = history();
    expect(blindHistory(dir, { ...h, upstreamMerge: '' }, 'tests').upstreamMerge).toBe('');
  });

  it('is deterministic: the same history gives the same commits', () => {
    const { dir, h } = history();
    expect(blindHistory(dir, h, 'tests')).toEqual(blindHistory(dir, h, 'tests'));
  });

  it('finds a tests path in any commit, not only at the tips', () => {
    const { dir, h } = history();
    const blind = blindHistory(dir, h, 'tests');
    // A side whose tip holds no tests but whose parent does still leaks them.
    const leaky = git(dir, ['commit-tree', `${blind.o}^{tree}`, '-p', h.o], {
      input: 'tip\n',
      env: IDENTITY_ENV,
    }).trim();
    expect(pathsUnder(dir, [leaky], 'tests')).toContain('tests/test_code.py');
  });
});

describe('withBlindOriginals', () => {
  type Spec = { id: string; project: string; note?: string; negatives?: string[]; blind?: { of: string } };
  const original: Spec = { id: 'a', project: 'p', note: 'n', negatives: ['x'] };

  it("fills a blind entry in from its original, the entry's own fields winning", () => {
    const got = withBlindOriginals<Spec>([
      original,
      { id: 'b', blind: { of: 'a' } },
      { id: 'c', negatives: ['y'], blind: { of: 'a' } },
    ]);
    expect(got).toEqual([
      original,
      { id: 'b', project: 'p', note: 'n', negatives: ['x'], blind: { of: 'a' } },
      { id: 'c', project: 'p', note: 'n', negatives: ['y'], blind: { of: 'a' } },
    ]);
  });

  it('refuses an original that is not listed, or is itself blind', () => {
    expect(() => withBlindOriginals<Spec>([{ id: 'b', blind: { of: 'a' } }])).toThrow(/b: blind of a, which/);
    expect(() =>
      withBlindOriginals<Spec>([original, { id: 'b', blind: { of: 'a' } }, { id: 'c', blind: { of: 'b' } }]),
    ).toThrow(/c: blind of b, itself a blind variant/);
  });
});
