import { lookupEnvironment } from '@gitbench/core';
import type { DockerSandboxDriver, Sandbox } from '@gitbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DIFF_BYTES, parseRepoState, repoStateScript, type RepoSnapshot } from '../../src/agent/repo-state';
import { useTestDriver } from '../test-driver';

/**
 * The session runner reads an agent's repository itself (runner/repo_state.py, Sandbox.readRepoState)
 * instead of running the engine's script: the recorded state must not change. Each step below changes
 * the repository as an agent would; after it, both reads run on the same repository and must print the
 * same bytes, the previous step's tree (and so the diff) included, and so must a second read of the
 * runner's, which it answers from its memo of the first where nothing changed between.
 */
let driver!: DockerSandboxDriver;
const labels = useTestDriver('repo-state-runner', (d) => (driver = d));
let session: Sandbox;
const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 4 * 1024 * 1024 };

beforeAll(async () => {
  session = await driver.create({ labels });
}, 120_000);
afterAll(async () => {
  await session?.cleanup();
});

async function run(command: string, cwd = 'repo'): Promise<void> {
  const r = await session.exec(command, { cwd, timeoutMs: 60_000 });
  if (r.exitCode !== 0) throw new Error(`${command} exited ${r.exitCode}: ${r.stderr}`);
}

/** Both reads of `cwd` with the same previous tree; returns the runner's, after checking they agree. */
async function bothReads(cwd: string, previous: RepoSnapshot | null): Promise<RepoSnapshot | null> {
  const previousTree = previous?.tree ?? null;
  const env = lookupEnvironment();
  const viaScript = await session.exec(repoStateScript(previousTree), { cwd, env, ...LIMITS });
  const viaRunner = await session.readRepoState!({ cwd, previousTree, diffBytes: DEFAULT_DIFF_BYTES, env, ...LIMITS });
  expect(viaScript.timedOut).toBe(false);
  expect(viaRunner.timedOut).toBe(false);
  expect(viaRunner.stdout).toBe(viaScript.stdout);
  // Read again with nothing run between: the runner answers from its last read (runner/repo_memo.py).
  const again = await session.readRepoState!({ cwd, previousTree, diffBytes: DEFAULT_DIFF_BYTES, env, ...LIMITS });
  expect(again.stdout).toBe(viaScript.stdout);
  return parseRepoState(viaRunner.stdout, previous) ?? previous;
}

const git = 'git -c user.name=agent -c user.email=agent@example.com';

describe("the runner's read of the repository state prints what the engine's script prints", () => {
  it(
    'step after step: no repository, unborn, changes of ' + 'every kind, conflicts, operations, refs, big diffs',
    async () => {
      await run('mkdir -p repo', '.');
      const steps: [string, string][] = [
        ['not a repository yet', 'true'],
        [
          'an unborn branch with untracked files',
          `git init -q -b trunk && echo a > a.txt && mkdir d && echo b > 'd/with space.txt'`,
        ],
        ['the first commit', `${git} add -A && ${git} commit -qm first`],
        [
          'staged, unstaged, both, deleted, renamed and untracked, odd names',
          `echo x >> a.txt && ${git} add a.txt && echo y >> a.txt && echo n > new.txt && printf 'q\\n' ` +
            `> "$(printf 'tab\\tname')" && echo u > ünï.txt && ${git} mv 'd/with space.txt' d/moved.txt`,
        ],
        [
          'a branch, a tag and packed refs',
          `${git} commit -qam second && ${git} tag v1 && ${git} branch side HEAD~1 && ${git} pack-refs --all`,
        ],
        [
          'a merge stopped on a conflict',
          `${git} checkout -q side && echo theirs > a.txt && ${git} commit -qam side ` +
            `&& ${git} checkout -q trunk && (${git} merge side >/dev/null 2>&1 || true)`,
        ],
        [
          'the merge aborted, a cherry-pick stopped on a conflict',
          `${git} merge --abort && (${git} cherry-pick side >/dev/null 2>&1 || true)`,
        ],
        [
          'a rebase stopped on a conflict',
          `${git} cherry-pick --abort && (${git} rebase side >/dev/null 2>&1 || true)`,
        ],
        [
          'the rebase aborted, detached HEAD, bisect started',
          `${git} rebase --abort && ${git} checkout -q --detach HEAD~1 && ${git} bisect start`,
        ],
        [
          'a diff past the bytes kept',
          `${git} bisect reset -q 2>/dev/null; ${git} checkout -q trunk && seq 1 40000 > big.txt`,
        ],
        ['nothing changed since the last read', 'true'],
        [
          "a filter driver of the model's, named in the repository's configuration",
          `printf '#!/bin/sh\\necho ran >> /tmp/gb-filter-ran\\ncat\\n' > /tmp/gb-driver && chmod +x /tmp/gb-driver ` +
            `&& git config filter.x.clean /tmp/gb-driver && printf 'a.txt filter=x\\n' > .git/info/attributes ` +
            `&& echo filtered >> a.txt`,
        ],
        [
          'the same driver under another name, in a file the configuration includes',
          `git config --remove-section filter.x ` +
            `&& printf '[Filter "y"]\\n\\tclean = /tmp/gb-driver\\n' > /tmp/gb-inc ` +
            `&& git config include.path /tmp/gb-inc && printf 'a.txt filter=y\\n' > .git/info/attributes ` +
            `&& echo included >> a.txt`,
        ],
        ['an index that cannot be read', 'printf garbage > .git/index'],
        ['the repository removed', 'rm -rf .git'],
      ];
      let previous: RepoSnapshot | null = null;
      const seen: string[] = [];
      for (const [what, command] of steps) {
        await run(command);
        const next: RepoSnapshot | null = await bothReads('repo', previous).catch((err: Error) => {
          throw new Error(`${what}: ${err.message}`);
        });
        seen.push(`${what}: ${next === previous ? 'no state' : JSON.stringify(next?.state.operations)}`);
        previous = next;
      }
      // Neither read ran the model's filter driver (status and add would have, for a.txt).
      await run('test ! -e /tmp/gb-filter-ran');
      // The steps reached what they were meant to (so the comparison above covered those states).
      expect(seen.join('\n')).toContain('a merge stopped on a conflict: ["merge"]');
      expect(seen.join('\n')).toContain('a cherry-pick stopped on a conflict: ["cherry-pick"]');
      expect(seen.join('\n')).toContain('a rebase stopped on a conflict: ["rebase"]');
      expect(seen.join('\n')).toContain('bisect started: ["bisect"]');
    },
    300_000,
  );

  it('a bare repository (no work tree) and a directory inside .git', async () => {
    await run(
      `git init -q --bare bare.git && git init -q inner && cd inner && ${git} commit -q --allow-empty -m e`,
      '.',
    );
    await bothReads('bare.git', null);
    await bothReads('inner/.git', null);
  }, 120_000);
});
