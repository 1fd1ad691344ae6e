import { describe, expect, it } from 'vitest';
import { workspaceTranslation } from '../../src/legacy/translate-paths';

const prompt = [
  'Remove the worktree.',
  '',
  'worktree /private/var/folders/99/y2dx/T/worktree_usage_f003_94otqyek/worktree_usage_f003',
  'HEAD dd8ece4aea373394706f0729be0b929de9611f58',
  'branch refs/heads/main',
  '',
  'worktree /private/var/folders/99/y2dx/T/worktree_usage_f003_94otqyek/feature-wt',
].join('\n');

describe("mapping upstream's temporary workspace onto ours", () => {
  const t = workspaceTranslation(prompt, 'worktree_usage_f003');

  it('finds the workspace the prompt shows, in both macOS spellings', () => {
    expect(t.workspaces).toEqual([
      '/private/var/folders/99/y2dx/T/worktree_usage_f003_94otqyek',
      '/var/folders/99/y2dx/T/worktree_usage_f003_94otqyek',
    ]);
  });

  it('writes the sandbox variable so the shell expands it, whatever the quoting', () => {
    const ws = '/private/var/folders/99/y2dx/T/worktree_usage_f003_94otqyek';
    expect(t.translate(`cd ${ws}/worktree_usage_f003 && git worktree remove ${ws}/feature-wt`)).toBe(
      'cd ${GITBENCH_WORKSPACE}/worktree_usage_f003 && git worktree remove ${GITBENCH_WORKSPACE}/feature-wt',
    );
    expect(t.translate(`git worktree remove "${ws}/feature-wt"`)).toBe(
      'git worktree remove "${GITBENCH_WORKSPACE}/feature-wt"',
    );
    expect(t.translate(`git worktree remove '${ws}/feature wt'`)).toBe(
      `git worktree remove ''"\${GITBENCH_WORKSPACE}"'/feature wt'`,
    );
    expect(t.translate(`cd /var/folders/99/y2dx/T/worktree_usage_f003_94otqyek/feature-wt`)).toBe(
      'cd ${GITBENCH_WORKSPACE}/feature-wt',
    );
  });

  it('leaves other paths and answers from prompts without a workspace alone', () => {
    expect(t.translate('git worktree remove ../feature-wt')).toBe('git worktree remove ../feature-wt');
    expect(t.translate('cd /tmp/worktree_usage_f003_aaaaaaaa/x')).toBe('cd /tmp/worktree_usage_f003_aaaaaaaa/x');
    expect(workspaceTranslation('no paths here', 'worktree_usage_f003').translate('cd /x')).toBe('cd /x');
  });
});
