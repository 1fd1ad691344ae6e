import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_STATE_SCRIPT } from '@gitbench/core';
import { headOf } from '../src/fixture-build-outcome';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], { cwd, encoding: 'utf8' });
const state = (cwd: string) => execFileSync('bash', ['-c', REPO_STATE_SCRIPT], { cwd, encoding: 'utf8' });

describe('HEAD read off the repository state', () => {
  it('is what git rev-parse says, on a branch, detached, and unborn', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gb-head-'));
    try {
      git(dir, 'init', '-q', '-b', 'main');
      expect(headOf(state(dir))).toBe('');
      git(dir, 'commit', '-q', '--allow-empty', '-m', 'one');
      const first = git(dir, 'rev-parse', 'HEAD').trim();
      expect(headOf(state(dir))).toBe(first);
      git(dir, 'commit', '-q', '--allow-empty', '-m', 'two');
      git(dir, 'checkout', '-q', first);
      expect(headOf(state(dir))).toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
