import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lookupEnvironment } from '@gitbench/core';
import { describe, expect, it } from 'vitest';
import { parseRepoState, repoStateScript } from '../../src/agent/repo-state';

const out = (sections: Record<string, string>) =>
  Object.entries(sections)
    .map(([name, body]) => `\n@@gb:${name}\n${body}`)
    .join('');

describe('parseRepoState', () => {
  it('reads HEAD, the branch and the counts from porcelain v2 status, conflicts apart', () => {
    const s = parseRepoState(
      out({
        status: [
          '# branch.oid 1111111111111111111111111111111111111111',
          '# branch.head topic',
          '1 M. N... 100644 100644 100644 a a f1',
          '1 .M N... 100644 100644 100644 a a f2',
          '1 MM N... 100644 100644 100644 a a f3',
          '2 R. N... 100644 100644 100644 a a R100 g4\tf4',
          'u UU N... 100644 100644 100644 100644 a b c f5',
          '? new',
        ].join('\n'),
        ops: 'merge\n',
        refs: '1111111111111111111111111111111111111111 refs/heads/topic\n',
        tree: '2222222222222222222222222222222222222222\n',
        diff: '0\n',
      }),
      null,
    );
    expect(s?.state).toMatchObject({
      head: '1111111111111111111111111111111111111111',
      branch: 'topic',
      staged: 3,
      unstaged: 2,
      untracked: 1,
      conflicted: 1,
      operations: ['merge'],
    });
    expect(s?.tree).toBe('2222222222222222222222222222222222222222');
  });

  it('has no HEAD on an unborn branch and no branch when detached', () => {
    const unborn = parseRepoState(out({ status: '# branch.oid (initial)\n# branch.head trunk\n', tree: '\n' }), null);
    expect(unborn?.state).toMatchObject({ head: null, branch: 'trunk' });
    const detached = parseRepoState(
      out({ status: '# branch.oid 3333333333333333333333333333333333333333\n# branch.head (detached)\n' }),
      null,
    );
    expect(detached?.state).toMatchObject({ head: '3333333333333333333333333333333333333333', branch: null });
  });

  it('takes HEAD and the branch read alone when status failed, and null where there is no repository', () => {
    const s = parseRepoState(out({ head: '4444444444444444444444444444444444444444\n', branch: 'main\n' }), null);
    expect(s?.state).toMatchObject({ head: '4444444444444444444444444444444444444444', branch: 'main', staged: 0 });
    expect(parseRepoState(out({ nogit: '' }), null)).toBeNull();
  });
});

describe('repoStateScript, in a real repository', () => {
  it("runs none of the model's filter or textconv drivers, and still sees the change they would hide", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gb-repo-state-'));
    try {
      const ran = path.join(dir, 'ran');
      const setup = [
        'set -e',
        'git init -q -b main repo && cd repo',
        'echo a > t.txt && git add t.txt && git -c user.name=t -c user.email=t@t commit -qm base',
        `printf '#!/bin/sh\\necho ran >> ${ran}\\ncat\\n' > ../driver && chmod +x ../driver`,
        'git config filter.x.clean ../driver && git config filter.x.required true',
        'git config diff.x.textconv ../driver',
        "printf 't.txt filter=x diff=x\\n' > .git/info/attributes",
        'echo b > t.txt',
      ].join('\n');
      expect(spawnSync('bash', ['-c', setup], { cwd: dir, encoding: 'utf8' }).stderr).toBe('');
      const env = { ...lookupEnvironment(), TMPDIR: dir };
      const first = spawnSync('bash', ['-c', repoStateScript(null)], {
        cwd: path.join(dir, 'repo'),
        env,
        encoding: 'utf8',
      });
      const tree = parseRepoState(first.stdout, null)!.tree!;
      spawnSync('bash', ['-c', 'echo c > t.txt'], { cwd: path.join(dir, 'repo') });
      const next = spawnSync('bash', ['-c', repoStateScript(tree)], {
        cwd: path.join(dir, 'repo'),
        env,
        encoding: 'utf8',
      });
      expect(existsSync(ran)).toBe(false);
      expect(parseRepoState(first.stdout, null)!.state).toMatchObject({ branch: 'main', unstaged: 1 });
      expect(next.stdout).toContain('-b\n+c');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sees a change of the same size made in the second its index was written, read in a later second', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gb-repo-state-'));
    try {
      const setup = [
        'set -e',
        'git init -q -b main repo && cd repo',
        // At the start of a second, so that the add and the change fall in the same one, read after it.
        "python3 -c 'import time; time.sleep(1 - time.time() % 1)'",
        'printf one > r.txt && git add r.txt && printf two > r.txt',
        'sleep 1.2',
      ].join('\n');
      expect(spawnSync('bash', ['-c', setup], { cwd: dir, encoding: 'utf8' }).stderr).toBe('');
      const repo = path.join(dir, 'repo');
      const env = { ...lookupEnvironment(), TMPDIR: dir };
      const read = spawnSync('bash', ['-c', repoStateScript(null)], { cwd: repo, env, encoding: 'utf8' });
      // The work tree's tree as a fresh index (which hashes every file) sees it.
      const fresh = spawnSync('bash', ['-c', 'git add -A && git write-tree'], {
        cwd: repo,
        env: { ...env, GIT_INDEX_FILE: path.join(dir, 'fresh-index') },
        encoding: 'utf8',
      });
      expect(parseRepoState(read.stdout, null)!.tree).toBe(fresh.stdout.trim());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
