import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtGitFiles } from '../src/built-git-files';

const scratch = mkdtempSync(path.join(tmpdir(), 'gb-built-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const run = (cwd: string, cmd: string, ...args: string[]) =>
  spawnSync(cmd, args, { cwd, env: { PATH: '/usr/bin:/bin', HOME: scratch, GIT_CONFIG_NOSYSTEM: '1' } });

describe("the build's git files, read from its archive", () => {
  it('lists every git directory and the files the look-ups put back, under long names too', () => {
    // A workspace as a build leaves it: the repository, a bare remote, a submodule's git directory
    // deep enough that GNU tar needs its long-name entries, and a working-tree file named like one.
    const ws = mkdtempSync(path.join(scratch, 'ws-'));
    const deep = `repo/.git/modules/${'a'.repeat(60)}/${'b'.repeat(60)}`;
    run(ws, 'git', 'init', '-q', 'repo');
    run(ws, 'git', 'init', '-q', '--bare', 'remote.git');
    run(ws, 'git', 'init', '-q', '--bare', deep);
    writeFileSync(path.join(ws, 'repo/.git/info/exclude'), '_remote/\n');
    writeFileSync(path.join(ws, 'repo/.git/shallow'), `${'0'.repeat(40)}\n`);
    writeFileSync(path.join(ws, `${deep}/info/attributes`), '* -diff\n');
    mkdirSync(path.join(ws, 'repo/info'));
    writeFileSync(path.join(ws, 'repo/info/exclude'), 'not a git directory\n');
    const tar = run(ws, 'tar', '-c', '-f', '-', '.').stdout;
    const built = builtGitFiles(tar, 'repo');
    expect(built.repoDir).toBe('repo');
    expect(built.gitDirs).toEqual(['remote.git', 'repo/.git', deep]);
    const text = Object.fromEntries(
      Object.entries(built.files).map(([p, b]) => [p, Buffer.from(b, 'base64').toString()]),
    );
    expect(text['repo/.git/info/exclude']).toBe('_remote/\n');
    expect(text['repo/.git/shallow']).toBe(`${'0'.repeat(40)}\n`);
    expect(text[`${deep}/info/attributes`]).toBe('* -diff\n');
    expect(text['remote.git/info/exclude']).toMatch(/^# git ls-files/);
    expect(text['repo/info/exclude']).toBeUndefined();
    // The other git directories' configuration is put back whole; the repository's own is rewritten.
    expect(text['remote.git/config']).toMatch(/bare = true/);
    expect(text['repo/.git/config']).toBeUndefined();
    expect(text[`${deep}/config`]).toBeUndefined();
    // The same archive again: the same answer, from the walk done once.
    expect(builtGitFiles(tar, 'repo')).toEqual(built);
  });
});
