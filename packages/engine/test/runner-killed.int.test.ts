import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type AttemptRun, type BuiltSnapshot } from '../src';
import { answering } from './answering-model';
import { FILL_MEMORY, killFromOutsideOnce } from './kill-from-outside';
import { FIXTURE } from './red-team-attacks';
import { useTestDriver } from './test-driver';

/**
 * A single answer whose sandbox's runner dies after the answer started, through executeAttempt and
 * the real Docker sandbox, as a worker runs it: the answer's processes made the sandbox's memory run
 * out (counted against the model: TAMPERING), or the runner was killed from outside the sandbox, as the
 * host's OOM killer or an operator kills it (infrastructure: excluded). The sandbox's memory is small
 * (64 MB) so that the kernel's OOM killer acts within seconds.
 */
let driver: DockerSandboxDriver;
const labels = useTestDriver('runner-killed', (d) => (driver = d), { limits: { memoryBytes: 64 * 1024 * 1024 } });
let fixture: Fixture;
let snapshot: BuiltSnapshot;

beforeAll(async () => {
  const parsed = parseSuite([{ path: 'red_team/f001.yaml', text: FIXTURE }]);
  fixture = parsed.fixtures[0]!;
  snapshot = await buildFixtureRepository(fixture, driver);
}, 300_000);

const attempt = (answer: string): Promise<AttemptRun> =>
  executeAttempt({
    fixture,
    snapshot,
    driver,
    model: answering(answer),
    modelName: 'runner-killed',
    mode: 'text',
    labels: { 'org.gitbench.attempt': 'runner-killed' },
  });

/** The sandbox the answer ran in, when one ran it to a state that could be scored. */
const ranIn = (run: AttemptRun) => {
  const sandbox = run.attempt?.sandbox;
  return sandbox && sandbox.kind !== 'none' ? sandbox : undefined;
};

const ending = (run: AttemptRun) => ({
  status: run.status,
  errorClass: run.errorClass,
  outcome: run.attempt?.outcome,
  aborted: ranIn(run)?.aborted,
});

describe('a runner that dies after the answer started', { timeout: 180_000 }, () => {
  it("is never the victim of the answer's own memory: its processes die; the answer fails as usual", async () => {
    const run = await attempt(FILL_MEMORY);
    expect(ending(run)).toEqual({ status: 'VALID_FAIL', errorClass: null, outcome: 'FAIL', aborted: undefined });
  });

  it('ends TAMPERING, a counted failure, when processes that lowered their OOM score get it killed', async () => {
    const run = await attempt(`echo 0 > /proc/self/oom_score_adj; ${FILL_MEMORY}`);
    expect(ending(run)).toMatchObject({ status: 'VALID_FAIL', errorClass: 'tampering', outcome: 'TAMPERING' });
    expect(run.errorMessage).toMatch(/tampered with the sandbox's memory: the sandbox's memory ran out/);
  });

  it('cannot be killed by the answer: kill -9 of the runner, the init and -1 are refused', async () => {
    const run = await attempt('kill -9 $PPID 1; kill -9 -1; true');
    expect(ending(run)).toEqual({ status: 'VALID_FAIL', errorClass: null, outcome: 'FAIL', aborted: undefined });
    expect(ranIn(run)?.evidence.answer[0]?.stderr).toMatch(/Operation not permitted/);
  });

  it('ends SANDBOX_ERROR, excluded, when killed from outside the sandbox while the answer runs', async () => {
    const running = attempt('sleep 30; git add notes.txt; git commit -qm "add notes"');
    // Once the answer's command runs (the repository's state was read before it).
    const killed = await killFromOutsideOnce(driver, labels, 'sleep 30');
    const run = await running;
    expect(killed).toBe(true);
    expect(ending(run)).toMatchObject({ status: 'INFRA_FAILURE', errorClass: 'sandbox_error' });
    expect(run.errorMessage).toMatch(/^sandbox failed: the sandbox's runner was killed from outside the sandbox/);
  });
});
