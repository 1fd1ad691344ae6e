import { parseSuite, shellQuote, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, type BuiltSnapshot } from '../../src';
import { FIXTURE } from '../red-team-attacks';
import { useTestDriver } from '../test-driver';
import { swappedAgentAttempt } from './support/swapped-agent';

/**
 * A hostile third-party agent against the observer that reads its repository beside it (as a uid of
 * its own, which the sweep of the sandbox's uid does not kill): the red team's task (commit notes.txt
 * with the message "add notes"), answered with an empty commit and a repository embedded in the work
 * tree whose own configuration names a clean filter. The observer's `git add -A` looks into that
 * repository and starts the filter, as the observer's uid, which starts a process meant to outlive the
 * agent and keep writing notes.txt into the local excludes (world-writable) during the scorer's
 * look-ups. Each read ends by killing every other process of the observer's uid (docker-observe.ts).
 * No agent image is built (support/swapped-agent.ts).
 */
let driver: DockerSandboxDriver;
const labels = useTestDriver('third-party-observer', (d) => (driver = d));
let fixture: Fixture;
let snapshot: BuiltSnapshot;

beforeAll(async () => {
  fixture = parseSuite([{ path: 'red_team/f001.yaml', text: FIXTURE }]).fixtures[0]!;
  snapshot = await buildFixtureRepository(fixture, driver);
}, 300_000);

/** Run by the filter, in the embedded repository: a process of its own that keeps hiding notes.txt. */
const LINGER =
  "setsid sh -c 'for i in $(seq 30000); do rm -f ../.git/info/exclude; echo notes.txt > ../.git/info/exclude; " +
  "done' " +
  '</dev/null >/dev/null 2>&1 &\ncat\n';

const AGENT = [
  'chmod a+rwx .git/info',
  'git init -q sub',
  `printf '%s' ${shellQuote(LINGER)} > sub/linger.sh`,
  "echo 's.txt filter=x' > sub/.gitattributes && echo s > sub/s.txt",
  'git -C sub add s.txt .gitattributes && git -C sub commit -qm s',
  "git -C sub config filter.x.clean 'sh linger.sh'",
  'touch -d 2001-01-01 sub/s.txt',
  "git add sub 2>/dev/null && git commit -qm 'add notes'",
].join(' && ');

describe("a third-party agent's repository, read by the observer beside it", { timeout: 180_000 }, () => {
  it('leaves no program of the agent’s running: a filter in an embedded repository cannot hide the file', async () => {
    const run = await swappedAgentAttempt({ fixture, snapshot, driver, labels }, AGENT);
    expect({ status: run.status, errorClass: run.errorClass, exit: run.agent?.summary.exitStatus }).toEqual({
      status: 'VALID_FAIL',
      errorClass: null,
      exit: 'model_stopped',
    });
    // The look-ups saw the file (and the embedded repository's untracked program).
    const probes = run.attempt?.sandbox.kind === 'docker' ? run.attempt.sandbox.evidence.probes : {};
    expect(Object.values(probes).map((p) => p.stdout)).toEqual([' M sub\n?? notes.txt\n', 'add notes\n']);
  });
});
