import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configKeysRead, forgedObjects, lookupConfigPy, lookupEnvironment, LOOKUP_RESTORED_FILES } from '../../src';

const scratch = mkdtempSync(path.join(tmpdir(), 'gb-lookup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: scratch, GIT_CONFIG_NOSYSTEM: '1' },
  });

/**
 * A repository whose .git/config is `text`, rewritten by the look-ups' sanitizer; returns `git config --list` after.
 */
function sanitized(text: string, extra: string[] = []): { file: string; list: string } {
  const repo = mkdtempSync(path.join(scratch, 'repo-'));
  git(repo, 'init', '-q');
  writeFileSync(path.join(repo, '.git', 'config'), text);
  const py = spawnSync('python3', ['-I', '-S', '-c', lookupConfigPy(extra)], { cwd: repo, encoding: 'utf8' });
  expect(py.stderr).toBe('');
  return {
    file: readFileSync(path.join(repo, '.git', 'config'), 'utf8'),
    list: git(repo, 'config', '--file', '.git/config', '--list').stdout,
  };
}

describe("the scorer's look-ups", { timeout: 60_000 }, () => {
  it('keep the whitelisted keys exactly as git reads them', () => {
    const text = [
      '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false',
      '[remote "origin"]\n\turl = "https://example.com/a b.git" ' +
        '; comment\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '[branch "feature/pdf-export"]\n\tremote = origin\n\tmerge = refs/heads/feature/pdf-export',
      '[user]\n\tname =   Ann  "O\\"Neil"  # trailing\n\temail = ann@example.com',
      '[ggb]\n\ttargetFile = src/a.py',
    ].join('\n');
    const original = (() => {
      const repo = mkdtempSync(path.join(scratch, 'orig-'));
      writeFileSync(path.join(repo, 'config'), text);
      return git(repo, 'config', '--file', 'config', '--list').stdout;
    })();
    const { list } = sanitized(text, configKeysRead(["git config --get 'ggb.targetFile'"]));
    expect(list).toBe(original);
    expect(list).toContain('user.name=Ann  O"Neil\n');
  });

  it('drop every key that runs a program or changes what git prints', () => {
    const hostile = [
      '[core]\n\tfsmonitor = /tmp/evil\n\thooksPath = /tmp/hooks\n\tpager = evil\n\teditor ' +
        '= evil\n\tworktree = /tmp\n\tquotePath = false\n\texcludesFile = /tmp/x',
      '[filter "lfs"]\n\tsmudge = evil\n\tclean = evil\n\trequired',
      '[diff "x"]\n\ttextconv = evil\n[diff]\n\texternal = evil',
      '[alias]\n\tst = !evil\n[status]\n\tshowUntrackedFiles = no\n[log]\n\tdecorate = full',
      '[include]\n\tpath = /tmp/more\n[includeIf "gitdir:/"]\n\tpath = /tmp/more',
      '[extensions]\n\tworktreeConfig = true\n[core.x]\n\tsmudge = 1',
    ].join('\n');
    const { list } = sanitized(hostile);
    expect(list).toBe('');
  });

  it('turn a file it cannot read into one git refuses', () => {
    const { file } = sanitized('[core\n\tfsmonitor = evil\n');
    expect(file).toMatch(/^\[ unreadable/);
  });

  it('run with no global or system configuration, no replace objects or grafts, and a fixed PATH', () => {
    const env = lookupEnvironment();
    expect(env).toMatchObject({
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_NO_REPLACE_OBJECTS: '1',
      PATH: '/usr/bin:/bin',
    });
    // No graft file git can open: one it can (even /dev/null) adds git's deprecation hint to the output.
    expect(env.GIT_GRAFT_FILE!.startsWith('/nonexistent/')).toBe(true);
    const repo = mkdtempSync(path.join(scratch, 'grafts-'));
    const lookup = (...args: string[]) => spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
    lookup('init', '-q');
    lookup('-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '--allow-empty', '-m', 'x');
    const log = lookup('log', '-1', '--format=%P');
    expect(`${log.stdout}${log.stderr}`).toBe('\n');
    const config = Object.fromEntries(
      Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [
        env[`GIT_CONFIG_KEY_${i}`],
        env[`GIT_CONFIG_VALUE_${i}`],
      ]),
    );
    expect(config).toMatchObject({ 'core.hooksPath': '/dev/null', 'core.fsmonitor': 'false' });
    expect(env.HOME!.startsWith('/nonexistent/')).toBe(true);
  });

  it(
    "put back every git directory's excludes, attributes, " +
      'grafts, shallow list and alternates as the build left them',
    () => {
      const workspace = mkdtempSync(path.join(scratch, 'ws-'));
      const repo = path.join(workspace, 'repo');
      mkdirSync(repo);
      git(repo, 'init', '-q');
      git(workspace, 'init', '-q', '--bare', 'remote.git');
      // What the model left: each file written (or made a directory), in the repository and the bare remote.
      for (const name of LOOKUP_RESTORED_FILES) {
        mkdirSync(path.dirname(path.join(repo, '.git', name)), { recursive: true });
        writeFileSync(path.join(repo, '.git', name), 'hostile\n');
      }
      rmSync(path.join(repo, '.git', 'info', 'attributes'));
      mkdirSync(path.join(repo, '.git', 'info', 'attributes', 'd'), { recursive: true });
      writeFileSync(
        path.join(workspace, 'remote.git', 'config'),
        '[core]\n\tbare = true\n[uploadpack]\n\thideRefs = refs/heads/gone\n',
      );
      writeFileSync(path.join(workspace, 'remote.git', 'shallow'), 'hostile\n');
      const b64 = (t: string) => Buffer.from(t).toString('base64');
      const built = {
        repoDir: 'repo',
        gitDirs: ['remote.git', 'repo/.git'],
        files: {
          'repo/.git/info/exclude': b64('_remote/\n'),
          'remote.git/info/exclude': b64('# built\n'),
          'remote.git/config': b64('[core]\n\tbare = true\n'),
        },
      };
      const py = spawnSync('python3', ['-I', '-S', '-c', lookupConfigPy([], built)], { cwd: repo, encoding: 'utf8' });
      expect(py.stderr).toBe('');
      expect(readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8')).toBe('_remote/\n');
      expect(readFileSync(path.join(workspace, 'remote.git', 'info', 'exclude'), 'utf8')).toBe('# built\n');
      for (const name of LOOKUP_RESTORED_FILES.filter((n) => n !== 'info/exclude'))
        expect(existsSync(path.join(repo, '.git', name))).toBe(false);
      expect(existsSync(path.join(workspace, 'remote.git', 'shallow'))).toBe(false);
      expect(readFileSync(path.join(workspace, 'remote.git', 'config'), 'utf8')).toBe('[core]\n\tbare = true\n');
    },
  );

  it("name forged objects in the objects check's report, and only those", () => {
    const report = [
      'error: a29788c75c692c4ae33f0fd89791c8ddfea8b022: hash-path mismatch, ' +
        'found at: .git/objects/dd/2558d04fb349696e5291da0068ae41945d1937',
      'error: hash mismatch dd2558d04fb349696e5291da0068ae41945d1937',
      'error: packed dd2558d04fb349696e5291da0068ae41945d1937 from .git/objects/pack/pack-1.pack is corrupt',
      'error: refs/heads/master: invalid sha1 pointer dd2558d04fb349696e5291da0068ae41945d1937',
      'missing blob 3b18e512dba79e4c8300dd08aeb37f8e728b8dad',
      'notice: HEAD points to an unborn branch (master)',
    ].join('\n');
    expect(forgedObjects(report)).toEqual(report.split('\n').slice(0, 3));
    expect(forgedObjects('')).toEqual([]);
  });
});
