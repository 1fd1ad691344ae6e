import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentScoredOn, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import {
  buildFixtureRepositories,
  executeAttempt,
  loadSuiteDir,
  mapPool,
  type AttemptRun,
  type FixtureSnapshot,
} from '../../src';
import { UPSTREAM_FIXTURES } from '../../../core/test/fixtures/upstream-data';
import { useTestDriver } from '../test-driver';

/**
 * The built-in agents through the real loop, tools and Docker session sandboxes, on our suite and
 * upstream's: the oracle passes every non-judge fixture; nop fails every fixture whose reference
 * changes the repository or that is scored on the answer. By default one fixture per domain and
 * scoring type of each suite (every scorer, every family); GITBENCH_AGENT_FULL_SUITES=1 runs every
 * fixture (about ten minutes per suite on two cores; `gitbench run <suite> --mode agent --model
 * oracle` does the same from the command line).
 */
const FULL = process.env.GITBENCH_AGENT_FULL_SUITES === '1';
let driver: DockerSandboxDriver;
const runLabel = useTestDriver('agent-suites', (d) => (driver = d));

function sample(fixtures: Fixture[]): Fixture[] {
  const scored = fixtures.filter((f) => f.scoring.type !== 'llm_judge');
  if (FULL) return scored;
  const seen = new Set<string>();
  return scored.filter((f) => {
    const key = `${f.domain}|${f.scoring.type}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether the oracle's own trajectory changed the repository (a diff or a moved ref at some step). */
const changedRepository = (run: AttemptRun) =>
  run.agent!.steps.some((s) => s.repo !== null && (s.repo.diffBytes > 0 || s.repo.refsChanged.length > 0));

async function checkSuite(dir: string) {
  const suite = await loadSuiteDir(dir);
  const fixtures = sample(suite.fixtures);
  const builds = await buildFixtureRepositories(fixtures, driver, { sandboxes: 2 });
  const failures: string[] = [];
  const nopPasses: string[] = [];
  const exits = new Map<string, number>();
  await mapPool(builds, 3, async (b) => {
    const key = `${b.fixture.domain}/${b.fixture.id} (${b.fixture.scoring.type})`;
    if (b.error) {
      failures.push(`${key}: build failed: ${b.error.message}`);
      return;
    }
    const snapshot: FixtureSnapshot = b.snapshot;
    const run = (modelName: string) =>
      executeAttempt({
        fixture: b.fixture,
        snapshot,
        driver,
        model: { name: modelName, complete: () => Promise.reject(new Error('no single answers here')) },
        modelName,
        mode: 'agent',
        labels: runLabel,
      });
    const oracle = await run('oracle');
    const exit = oracle.agent?.summary.exitStatus ?? 'none';
    exits.set(exit, (exits.get(exit) ?? 0) + 1);
    if (oracle.status !== 'VALID_PASS') {
      failures.push(
        `${key}: oracle ${oracle.status} ${exit} ${oracle.errorMessage ?? ''} ` +
          JSON.stringify(oracle.attempt?.checks.filter((c) => !c.ok) ?? []),
      );
      return;
    }
    const nop = await run('nop');
    const needsChange = agentScoredOn(b.fixture) === 'answer' || changedRepository(oracle);
    if (needsChange && nop.status !== 'VALID_FAIL') nopPasses.push(`${key}: nop ${nop.status}`);
  });
  return { fixtures: fixtures.length, failures, nopPasses, exits: Object.fromEntries(exits) };
}

describe('built-in agents on whole suites', () => {
  it('our suite: the oracle passes, nop fails what needs a change', async () => {
    const r = await checkSuite(join(import.meta.dirname, '../../../../fixtures'));
    expect(r.failures).toEqual([]);
    expect(r.nopPasses).toEqual([]);
    expect(r.exits).toEqual({ submitted: r.fixtures });
  }, 1_800_000);

  it("upstream's suite: the oracle passes, nop fails what needs a change", async () => {
    const r = await checkSuite(UPSTREAM_FIXTURES);
    expect(r.failures).toEqual([]);
    expect(r.nopPasses).toEqual([]);
  }, 1_800_000);
});
