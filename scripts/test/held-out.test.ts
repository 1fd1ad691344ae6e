import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heldOutDir, heldOutSource, portedHeldOut, replayFailures, withHeldOut } from '../lib/held-out';
import { git, testsArchive } from '../lib/history-mining';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A repository whose one commit holds tests/test_visible.py and the code beside it. */
function repository(): { dir: string; commit: string } {
  const dir = mkdtempSync(join(tmpdir(), 'held-out-test-'));
  dirs.push(dir);
  git(dir, ['init', '-q', '-b', 'main']);
  const blob = (text: string) => git(dir, ['hash-object', '-w', '--stdin'], { input: text }).trim();
  const tests = git(dir, ['mktree'], { input: `100644 blob ${blob('def test_visible(): pass\n')}\ttest_visible.py\n` });
  const root = git(dir, ['mktree'], {
    input: `100644 blob ${blob('x = 1\n')}\tcode.py\n040000 tree ${tests.trim()}\ttests\n`,
  }).trim();
  const env = { GIT_AUTHOR_DATE: '946684800 +0000', GIT_COMMITTER_DATE: '946684800 +0000' };
  const meta = {
    ...env,
    GIT_AUTHOR_NAME: 'a',
    GIT_AUTHOR_EMAIL: 'a@x',
    GIT_COMMITTER_NAME: 'a',
    GIT_COMMITTER_EMAIL: 'a@x',
  };
  return { dir, commit: git(dir, ['commit-tree', root], { input: 'tests\n', env: meta }).trim() };
}

const held = { 'test_held_out.py': Buffer.from('def test_held_out(): pass\n') };

describe('held-out tests (hard-mine)', () => {
  it("reads a task's held-out files from its directory under scripts/hard-ports, by name", () => {
    const files = portedHeldOut('marshmallow-sm21');
    const names = readdirSync(heldOutDir('marshmallow-sm21')).sort();
    expect(names.length).toBeGreaterThan(0);
    expect(Object.keys(files)).toEqual(names);
    for (const name of names)
      expect(files[name]!.equals(readFileSync(join(heldOutDir('marshmallow-sm21'), name)))).toBe(true);
    expect(() => portedHeldOut('no-such-task')).toThrow();
  });

  it('names the held-out files, what carries them and whose they are, in one sentence of the source block', () => {
    const files = { 'test_a.py': Buffer.from(''), 'test_b.py': Buffer.from('') };
    expect(heldOutSource('x-sm01', files, 'the pinned tests archive, never in the bundle', 'hand-written.')).toBe(
      'Held-out tests (scripts/hard-ports/x-sm01/held-out/: test_a.py, test_b.py), only in the pinned tests ' +
        'archive, never in the bundle: hand-written.',
    );
  });

  it('adds them to the pinned tests archive beside the visible tests, the same bytes on every run', () => {
    const { dir, commit } = repository();
    const archive = (name: string) => {
      testsArchive(dir, withHeldOut(dir, `${commit}^{tree}`, 'tests', held), 'tests', join(dir, name));
      return readFileSync(join(dir, name));
    };
    const first = archive('one.tar.gz');
    expect(archive('two.tar.gz').equals(first)).toBe(true);
    const listing = execFileSync('tar', ['-tzf', join(dir, 'one.tar.gz')], { encoding: 'utf8' });
    expect(listing.split('\n').filter(Boolean).sort()).toEqual(['test_held_out.py', 'test_visible.py']);
  });

  it('leaves the commit itself without them (the bundle the attempt gets)', () => {
    const { dir, commit } = repository();
    withHeldOut(dir, `${commit}^{tree}`, 'tests', held);
    expect(git(dir, ['ls-tree', '-r', '--name-only', commit]).split('\n').filter(Boolean)).toEqual([
      'code.py',
      'tests/test_visible.py',
    ]);
  });

  it('refuses a held-out file that would replace one of the repository tests', () => {
    const { dir, commit } = repository();
    const clash = { 'test_visible.py': Buffer.from('def test_other(): pass\n') };
    expect(() => withHeldOut(dir, `${commit}^{tree}`, 'tests', clash)).toThrow(/already in the repository's tests/);
  });
});

describe('replayFailures', () => {
  it('says when nothing the attempt can run fails', () => {
    expect(replayFailures({ each: [], heldOut: [1, 2, 3], tip: null })).toBe(
      'every test the attempt can run passes; the held-out tests fail at commits 1, 2, 3',
    );
  });

  it('lists visible failures before held-out ones', () => {
    expect(replayFailures({ each: [2], heldOut: [1], tip: '1 failed, 9 passed' })).toBe(
      "main's tests fail at commit 2; at the tip: 1 failed, 9 passed; the held-out tests fail at commit 1",
    );
  });

  it('is empty for a replay that fails nowhere', () => {
    expect(replayFailures({ each: [], heldOut: [], tip: null })).toBe('');
  });
});
