import type { Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type BuiltSnapshot } from '../../src';
import { sandboxFailedUnder } from '../../src/agent/execute-calls';
import { killFromOutsideOnce } from '../kill-from-outside';
import { useTestDriver } from '../test-driver';
import { cleanFixture } from './support/clean-fixture';
import { scriptedAgent } from './support/scripted-agent';

/**
 * An agent's container killed from outside while one of its commands runs, as the host or an operator
 * would, through executeAttempt and the real Docker sandbox: what the sandbox said is the step's error,
 * beside the call's result, and the call's output says only that the sandbox failed, never passing the
 * sandbox's words off as what the command printed.
 */
let driver: DockerSandboxDriver;
const labels = useTestDriver('agent-sandbox-gone', (d) => (driver = d));
let fixture: Fixture;
let snapshot: BuiltSnapshot;

beforeAll(async () => {
  fixture = cleanFixture('sandbox_gone', 'git clean -f junk.txt');
  snapshot = await buildFixtureRepository(fixture, driver);
}, 300_000);

describe("an agent's sandbox that fails under a call", { timeout: 120_000 }, () => {
  it("is the step's error, and the call's output does not pretend the command printed it", async () => {
    const running = executeAttempt({
      fixture,
      snapshot,
      driver,
      model: scriptedAgent('sandbox-gone', ['echo started; sleep 30']),
      modelName: 'sandbox-gone',
      mode: 'agent',
      agent: { config: { limits: { commandTimeoutMs: 60_000 } } },
      labels: { 'org.gitbench.attempt': 'agent-sandbox-gone' },
    });
    const killed = await killFromOutsideOnce(driver, labels, 'sleep 30');
    const run = await running;
    expect(killed).toBe(true);
    expect(run).toMatchObject({ status: 'INFRA_FAILURE', errorClass: 'sandbox_error' });
    const agent = run.agent!;
    expect(agent.summary).toMatchObject({ exitStatus: 'sandbox_error', exitStep: 0 });
    const [result] = agent.steps[0]!.results;
    expect(result).toMatchObject({ isError: true, exitCode: null, output: sandboxFailedUnder('bash') });
    expect(result!.sandboxError).toMatch(/the container stopped/);
    expect(agent.summary.exitDetail).toContain(result!.sandboxError);
  });
});
