import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectProductVersion } from '../src';

/** The version a process records: a baked GITBENCH_VERSION, else its checkout's commit and tree state, else unknown. */
const scratch = mkdtempSync(join(tmpdir(), 'gitbench-version-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const git = (...args: string[]) =>
  spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: scratch,
    encoding: 'utf8',
  }).stdout.trim();
const none = {};

describe('detectProductVersion', () => {
  it('is unknown outside a checkout without GITBENCH_VERSION', () => {
    expect(detectProductVersion(none, scratch)).toEqual({ version: null, dirty: null, source: 'unknown' });
  });

  it("is the checkout's commit, dirty with tracked or untracked changes", () => {
    git('init', '-q');
    writeFileSync(join(scratch, 'a.txt'), 'a\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'one');
    const head = git('rev-parse', 'HEAD');
    expect(detectProductVersion(none, scratch)).toEqual({ version: head, dirty: false, source: 'git' });
    writeFileSync(join(scratch, 'new.txt'), 'x\n');
    expect(detectProductVersion(none, scratch).dirty).toBe(true);
    rmSync(join(scratch, 'new.txt'));
    writeFileSync(join(scratch, 'a.txt'), 'changed\n');
    expect(detectProductVersion(none, scratch)).toEqual({ version: head, dirty: true, source: 'git' });
  });

  it('takes a baked GITBENCH_VERSION first, -dirty marking a modified build', () => {
    expect(detectProductVersion({ GITBENCH_VERSION: '9f1c2d3' }, scratch)).toEqual({
      version: '9f1c2d3',
      dirty: false,
      source: 'GITBENCH_VERSION',
    });
    expect(detectProductVersion({ GITBENCH_VERSION: ' 9f1c2d3-dirty\n' }, scratch)).toEqual({
      version: '9f1c2d3',
      dirty: true,
      source: 'GITBENCH_VERSION',
    });
    expect(detectProductVersion({ GITBENCH_VERSION: '  ' }, scratch).source).toBe('git');
  });
});
