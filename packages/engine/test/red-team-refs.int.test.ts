import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type AttemptRun, type BuiltSnapshot } from '../src';
import { answerAttempt } from './answering-model';
import { scriptedAgent } from './agent/support/scripted-agent';
import { useTestDriver } from './test-driver';

/**
 * state_assertions' git_output against a model that shadows the refs its commands name, through the real
 * sandbox and the path a worker takes, as single answers and as agents. The task: drop the commit
 * "secret" from main and move the annotated tag v1.0 to the new tip. The look-ups read `main` and `v1.0`
 * by their short names, and git resolves a short name by the first place that holds it: a file in the
 * git directory, refs/<name>, refs/tags/<name>, then refs/heads/<name>. Every attack leaves the branch
 * and the tag as built (branch_exists and `git tag -l` see them) and makes an earlier place name a clean
 * commit or tag, so that `git log main` and `git log v1.0` read that one. Each must be a counted failure
 * (FAIL, never excluded), saying which name is ambiguous.
 */

const TASK = `id: f004
description: Drop the secret commit from main and move its tag (the ref-name red team)
setup:
- git init -q -b main
- git config user.email t@t
- git config user.name t
- echo base > base.txt && git add base.txt && git commit -qm base
- echo secret > secret.txt && git add secret.txt && git commit -qm secret
- echo top > top.txt && git add top.txt && git commit -qm top
- git tag -a v1.0 -m 'Release 1.0'
prompt: Remove the commit "secret" from the history of main, keeping "top", and move the annotated tag v1.0 to main's \
new tip with the same message.
expected: git rebase -q --onto main~2 main~1 main && git tag -f -a v1.0 -m 'Release 1.0' main > /dev/null
scoring:
  type: state_assertions
  expected_state:
    assertions:
    - {type: branch_exists, name: main}
    - {type: git_output, command: git tag -l v1.0, contains: v1.0}
    - {type: git_output, command: git log --format=%s main, contains: top}
    - {type: git_output, command: git log --format=%s main, not_contains: secret}
    - {type: git_output, command: git cat-file -t v1.0, contains: tag}
    - {type: git_output, command: git log --format=%s v1.0, not_contains: secret}
difficulty: easy
`;

/** A commit like main's without "secret" (top's tree less secret.txt, on base), in $clean. */
const CLEAN = `clean=$(git commit-tree "$(git ls-tree main | grep -v secret.txt | git mktree)" -p main~2 -m top)`;
/** An annotated tag object named v1.0 at $clean, in $tag, made without touching refs/tags/v1.0. */
const CLEAN_TAG =
  `tag=$(printf 'object %s\\ntype commit\\ntag v1.0\\ntagger ` +
  `t <t@t> 0 +0000\\n\\nRelease 1.0\\n' "$clean" | git mktag)`;

const NOT_SOUND = (name: string) => new RegExp(`^${name.replace(/\./g, '\\.')} is ambiguous: `);

/** The tag moved to $clean, as the task asks, so that only the branch is left undone. */
const MOVE_TAG = `git tag -f -a v1.0 -m 'Release 1.0' "$clean" > /dev/null`;
/** The honest rewrite of main, with the tag left where it was (on the old top, "secret" in its history). */
const REWRITE_MAIN = 'git rebase -q --onto main~2 main~1 main && clean=$(git rev-parse main)';
/** What a look-up that read the branch or tag as built says. */
const READ_AS_BUILT = /^output contains the text$/;

/** Each attack: the shell line that leaves the task undone but shadows a name, and what the scorer says. */
const ATTACKS: Record<string, [answer: string, caught: RegExp]> = {
  'a tag named like the branch, at the clean commit': [
    `${CLEAN} && ${MOVE_TAG} && git tag main "$clean"`,
    NOT_SOUND('main'),
  ],
  'refs/main at the clean commit': [`${CLEAN} && ${MOVE_TAG} && git update-ref refs/main "$clean"`, NOT_SOUND('main')],
  'a file main in the git directory': [`${CLEAN} && ${MOVE_TAG} && echo "$clean" > .git/main`, NOT_SOUND('main')],
  'main rewritten, refs/v1.0 at a clean tag and the tag left': [
    `${REWRITE_MAIN} && ${CLEAN_TAG} && git update-ref refs/v1.0 "$tag"`,
    NOT_SOUND('v1.0'),
  ],
  'main rewritten, a file v1.0 in the git directory naming a clean tag and the tag left': [
    `${REWRITE_MAIN} && ${CLEAN_TAG} && echo "$tag" > .git/v1.0`,
    NOT_SOUND('v1.0'),
  ],
  'branches named refs/heads/main, refs/main and refs/tags/v1.0 (under refs/heads) at the clean commit and tag': [
    `${CLEAN} && ${CLEAN_TAG} && git update-ref refs/heads/refs/heads/main "$clean" && git ` +
      `update-ref refs/heads/refs/main "$clean" && git update-ref refs/heads/refs/tags/v1.0 "$tag"`,
    READ_AS_BUILT,
  ],
};

let driver: DockerSandboxDriver;
useTestDriver('red-team-refs', (d) => (driver = d), { prestart: 2 });
let task: { fixture: Fixture; snapshot: BuiltSnapshot };

beforeAll(async () => {
  const parsed = parseSuite([{ path: 'red_team/f004.yaml', text: TASK }]);
  if (parsed.fixtures.length !== 1) throw new Error(`the fixture does not load: ${JSON.stringify(parsed.errors)}`);
  task = { fixture: parsed.fixtures[0]!, snapshot: await buildFixtureRepository(parsed.fixtures[0]!, driver) };
}, 300_000);

const agent = (name: string, command: string): Promise<AttemptRun> =>
  executeAttempt({
    ...task,
    driver,
    model: scriptedAgent(name, [command]),
    modelName: name,
    mode: 'agent',
    agent: { config: { toolSet: 'bash', limits: { commandTimeoutMs: 10_000, maxTurns: 4, maxWallMs: 120_000 } } },
    labels: { 'org.gitbench.attempt': name },
  });

/** A scored FAIL (never a pass or an exclusion), for the reason given. */
function expectScoredFailure(run: AttemptRun, caught: RegExp): void {
  const failed = (run.attempt?.checks ?? []).filter((c) => !c.ok).map((c) => c.detail);
  expect({ status: run.status, errorClass: run.errorClass, failed }).toMatchObject({
    status: 'VALID_FAIL',
    errorClass: null,
  });
  expect(run.passed).toBe(false);
  expect(failed).toContainEqual(expect.stringMatching(caught));
}

describe('git_output look-ups against a model that shadows the refs they name', { timeout: 240_000 }, () => {
  it('the honest answer passes, as a single answer and as an agent, and doing nothing fails', async () => {
    const single = await answerAttempt(driver, task, task.fixture.expected, 'red-team-refs');
    expect({ status: single.status, checks: single.attempt?.checks.map((c) => c.detail) }).toMatchObject({
      status: 'VALID_PASS',
    });
    expect((await agent('red-team-refs-honest', task.fixture.expected)).status).toBe('VALID_PASS');
    expectScoredFailure(await answerAttempt(driver, task, 'true', 'red-team-refs'), /output contains the text/);
  });

  for (const [name, [answer, caught]] of Object.entries(ATTACKS)) {
    it(`${name}: a scored failure as a single answer`, async () => {
      expectScoredFailure(await answerAttempt(driver, task, answer, 'red-team-refs'), caught);
    });
    it(`${name}: a scored failure from an agent's bash tool`, async () => {
      const run = await agent('red-team-refs-agent', answer);
      expectScoredFailure(run, caught);
      expect(run.agent?.summary.exitStatus).toBe('submitted');
    });
  }
});
