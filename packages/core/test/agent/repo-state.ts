import type { RepoStepState } from '../../src';

/** A clean repository state on main at `head`, with what a test changes. */
export const repo = (head: string, over: Partial<RepoStepState> = {}): RepoStepState => ({
  head,
  branch: 'main',
  staged: 0,
  unstaged: 0,
  untracked: 0,
  conflicted: 0,
  operations: [],
  refsChanged: [],
  diff: '',
  diffBytes: 0,
  diffTruncatedBytes: 0,
  ...over,
});
