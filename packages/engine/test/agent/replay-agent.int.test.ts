import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toAtif } from '@gitbench/core';
import { ProviderRegistry } from '@gitbench/providers';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import {
  buildFixtureRepositories,
  executeAttempt,
  loadSuiteDir,
  type AttemptRun,
  type FixtureSnapshot,
} from '../../src';
import { UPSTREAM_RESULTS } from '../../../core/test/fixtures/upstream-data';
import { useTestDriver } from '../test-driver';

/**
 * Replay in agent mode: a trajectory exported as ATIF is played back through the real loop, tools and
 * Docker session on a freshly built repository, and scored again. The recording here is the oracle's
 * own run of a fixture that changes the repository, so the replay must make the same calls and pass;
 * a broken copy of it must not.
 */
const replayDir = mkdtempSync(join(tmpdir(), 'gitbench-replay-agent-'));
let driver: DockerSandboxDriver;
const runLabel = useTestDriver('replay-agent', (d) => (driver = d));

afterAll(async () => {
  rmSync(replayDir, { recursive: true, force: true });
});

const calls = (run: AttemptRun) => run.agent!.steps.flatMap((s) => s.toolCalls.map((c) => [c.name, c.rawArguments]));

describe('replay in agent mode', () => {
  it('plays an exported ATIF trajectory back through the loop on a rebuilt repository, scored again', async () => {
    const suite = await loadSuiteDir(join(import.meta.dirname, '../../../../fixtures'));
    const fixture = suite.fixtures.find((f) => f.domain === 'rebase' && f.scoring.type === 'state_assertions')!;
    const [build] = await buildFixtureRepositories([fixture], driver, { sandboxes: 1 });
    const snapshot = build!.snapshot as FixtureSnapshot;
    const noSingleAnswers = { complete: () => Promise.reject(new Error('no single answers here')) };

    const oracle = await executeAttempt({
      fixture,
      snapshot,
      driver,
      model: { name: 'oracle', ...noSingleAnswers },
      modelName: 'oracle',
      mode: 'agent',
      labels: runLabel,
    });
    expect(oracle.status).toBe('VALID_PASS');
    const atif = toAtif({
      sessionId: 'recorded',
      version: 'test',
      agent: 'oracle',
      model: 'oracle',
      toolSet: oracle.agent!.summary.toolSet,
      summary: oracle.agent!.summary,
      steps: oracle.agent!.steps,
    });
    writeFileSync(join(replayDir, 'oracle.atif.json'), JSON.stringify(atif));

    const registry = new ProviderRegistry({ replay: { dirs: [replayDir] } });
    const target = await registry.resolve({ model: 'replay:oracle.atif.json' });
    expect(target.provider.kind).toBe('replay');
    const replayed = await executeAttempt({
      fixture,
      snapshot,
      driver,
      model: target.provider,
      modelName: 'replay:oracle.atif.json',
      mode: 'agent',
      labels: runLabel,
    });
    expect(replayed.status).toBe('VALID_PASS');
    expect(replayed.agent!.summary.exitStatus).toBe('submitted');
    expect(calls(replayed)).toEqual(calls(oracle));

    // The same recording without its state-changing calls: replayed, it submits on an unchanged repository and fails.
    const cut = {
      ...atif,
      steps: atif.steps.filter(
        (s) => s.source !== 'agent' || (s.tool_calls ?? []).every((c) => c.function_name === 'submit'),
      ),
    };
    writeFileSync(join(replayDir, 'cut.atif.json'), JSON.stringify(cut));
    const cutTarget = await registry.resolve({ model: 'replay:cut.atif.json' });
    const failed = await executeAttempt({
      fixture,
      snapshot,
      driver,
      model: cutTarget.provider,
      modelName: 'replay:cut.atif.json',
      mode: 'agent',
      labels: runLabel,
    });
    expect(failed.status).toBe('VALID_FAIL');
  }, 180_000);

  it('refuses, by name and without running anything, a result file of single answers in agent mode', async () => {
    const suite = await loadSuiteDir(join(import.meta.dirname, '../../../../fixtures'));
    const fixture = suite.fixtures.find((f) => f.domain === 'rebase' && f.scoring.type === 'state_assertions')!;
    const [build] = await buildFixtureRepositories([fixture], driver, { sandboxes: 1 });
    const registry = new ProviderRegistry({ replay: { dirs: [UPSTREAM_RESULTS] } });
    const target = await registry.resolve({ model: `replay:${UPSTREAM_RESULTS}` });
    expect(target.provider.chat).toBeUndefined();
    const run = await executeAttempt({
      fixture,
      snapshot: build!.snapshot as FixtureSnapshot,
      driver,
      model: target.provider,
      modelName: 'replay:results',
      mode: 'agent',
      labels: runLabel,
    });
    expect(run.status).not.toMatch(/^VALID_/);
    expect(run.errorMessage).toMatch(/needs an ATIF trajectory file/);
  }, 180_000);
});
