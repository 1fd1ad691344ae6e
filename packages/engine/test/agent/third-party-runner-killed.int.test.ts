import type { Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, type AttemptRun, type BuiltSnapshot } from '../../src';
import { FILL_MEMORY, killFromOutsideOnce } from '../kill-from-outside';
import { useTestDriver } from '../test-driver';
import { cleanFixture } from './support/clean-fixture';
import { swappedAgentAttempt } from './support/swapped-agent';

/**
 * A third-party agent whose session's runner dies while the agent runs, through executeAttempt and the
 * real Docker session, as for our own loop (runner-killed.int, out-of-memory.int): the agent's processes
 * filled the sandbox's memory after lowering their OOM score (counted: TAMPERING, and the trajectory
 * ends `tampering`), or the host killed the runner from outside (excluded: SANDBOX_ERROR).
 * No agent image is built (support/swapped-agent.ts).
 */
let driver: DockerSandboxDriver;
const labels = useTestDriver('third-party-killed', (d) => (driver = d), {
  limits: { memoryBytes: 64 * 1024 * 1024 },
});
let fixture: Fixture;
let snapshot: BuiltSnapshot;

beforeAll(async () => {
  fixture = cleanFixture('third_party_killed', 'git clean -f junk.txt');
  snapshot = await buildFixtureRepository(fixture, driver);
}, 300_000);

const attempt = (agent: string): Promise<AttemptRun> =>
  swappedAgentAttempt({ fixture, snapshot, driver, labels }, agent);

const ending = (run: AttemptRun) => ({
  status: run.status,
  errorClass: run.errorClass,
  exit: run.agent?.summary.exitStatus,
});

describe("a third-party agent's session whose runner dies", { timeout: 180_000 }, () => {
  it('ends TAMPERING, its trajectory tampering, when its processes lowered their OOM score and filled it', async () => {
    const run = await attempt(`echo 0 > /proc/self/oom_score_adj; ${FILL_MEMORY}`);
    expect(ending(run)).toEqual({ status: 'VALID_FAIL', errorClass: 'tampering', exit: 'tampering' });
    expect(run.agent?.summary.exitDetail).toMatch(/the sandbox's memory ran out and its runner was killed/);
  });

  it('ends SANDBOX_ERROR, excluded, when the runner is killed from outside the sandbox', async () => {
    const running = attempt('sleep 30');
    const killed = await killFromOutsideOnce(driver, labels, 'sleep 30');
    const run = await running;
    expect(killed).toBe(true);
    expect(ending(run)).toEqual({ status: 'INFRA_FAILURE', errorClass: 'sandbox_error', exit: 'sandbox_error' });
  });
});
