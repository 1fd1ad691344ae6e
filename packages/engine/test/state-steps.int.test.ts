import { REPO_STATE_SCRIPT } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { describe, expect, it } from 'vitest';
import { sessionStateStep, stateSteps } from '../src/sandbox-steps';
import { useTestDriver } from './test-driver';

let driver: DockerSandboxDriver;
const labels = useTestDriver('state-steps', (d) => (driver = d));

/**
 * A repository with what a state read can trip on: a conflicted merge in progress, symbolic links (one
 * dangling), an executable, an empty directory, a nested directory with a `.git` file of its own, file
 * names with a newline and with bytes that are not UTF-8, and an unreadable file and directory (the
 * sandbox user is not root, so chmod 000 holds).
 */
const TRICKY_TREE = String.raw`
set -e
[ "$(id -u)" != 0 ]
git init -q -b main repo && cd repo
git config user.name a && git config user.email a@b
export GIT_AUTHOR_DATE=2020-01-01T00:00:00Z GIT_COMMITTER_DATE=2020-01-01T00:00:00Z
printf 'base\n' > f.txt && git add f.txt && git commit -qm base
git switch -qc other && printf 'other\n' > f.txt && git commit -qam other
git switch -q main && printf 'main\n' > f.txt && git commit -qam main
! git merge -q other >/dev/null 2>&1
ln -s f.txt link && ln -s missing dangling
printf '#!/bin/sh\n' > run.sh && chmod +x run.sh
mkdir empty
mkdir -p nested/inner && printf 'gitdir: /nowhere\n' > nested/.git && printf 'y\n' > nested/inner/y
printf 'n\n' > "$(printf 'new\nline')"
printf 'b\n' > "$(printf 'bad\377\376name')"
printf 'secret\n' > unreadable && chmod 000 unreadable
mkdir closed && printf 'c\n' > closed/c && chmod 000 closed
`;

describe('the state steps', () => {
  it('print exactly what REPO_STATE_SCRIPT prints, in a batch and in an agent session', async () => {
    const batch = await driver.runOnce({
      groups: [
        { stopOnFailure: true, steps: [{ id: 'tree', command: TRICKY_TREE }] },
        {
          stopOnFailure: false,
          requires: 0,
          steps: [
            ...stateSteps('repo'),
            { id: 'standalone', command: REPO_STATE_SCRIPT, cwd: 'repo', maxOutputBytes: 16 * 1024 * 1024 },
          ],
        },
      ],
    });
    expect(batch.aborted).toBeUndefined();
    expect(batch.groups[0]![0]).toMatchObject({ exitCode: 0, stderr: '' });
    const [steps, standalone] = batch.groups[1]!;
    expect(steps).toMatchObject({ id: 'state', exitCode: 0, stderr: '', truncated: false });
    expect(standalone).toMatchObject({ id: 'standalone', exitCode: 0, stderr: '', truncated: false });
    // The text as the engine stores and hashes it (the step's stdout, as UTF-8).
    expect(steps!.stdout).toBe(standalone!.stdout);
    const text = steps!.stdout;

    expect(text).toMatch(/^MERGE_HEAD [0-9a-f]{64}$/m);
    expect(text).toMatch(/== unmerged\n100644 [0-9a-f]{40} 1\tf\.txt\n/);
    expect(text).toMatch(/^100755 [0-9a-f]{64} \.\/run\.sh$/m);
    expect(text).toMatch(/^120000 [0-9a-f]{64} \.\/dangling$/m);
    expect(text).toContain('\n040000 - ./empty\n');
    expect(text).toMatch(/^100644 [0-9a-f]{64} \.\/nested\/\.git$/m);
    expect(text).toMatch(/^100644 [0-9a-f]{64} \.\/new\nline$/m);
    expect(text).toMatch(/^100644 [0-9a-f]{64} \.\/bad\uFFFD\uFFFDname$/m);
    expect(text).toContain('\n100644  ./unreadable\n');
    expect(text).toContain('\n040000 - ./closed\n');
    expect(text).not.toContain('./closed/c');

    // An agent's session reads the state with REPO_STATE_SCRIPT whole: the same text, so the same input hash.
    const session = await driver.create({ labels });
    try {
      expect((await session.exec(TRICKY_TREE, { timeoutMs: 60_000 })).exitCode).toBe(0);
      const step = sessionStateStep('repo');
      const read = await session.exec(step.command, {
        cwd: 'repo',
        timeoutMs: 60_000,
        maxOutputBytes: step.maxOutputBytes!,
      });
      expect(read).toMatchObject({ exitCode: 0, stderr: '', truncated: false });
      expect(read.stdout).toBe(text);
    } finally {
      await session.cleanup();
    }
  });
});
