import { join } from 'node:path';
import { getScorer, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepositories, executePlan, loadSuiteDir, scoreAttempt, type BuiltSnapshot } from '../src';
import { pristinePlanOf } from '../src/pristine-probes';
import { UPSTREAM_FIXTURES } from '../../core/test/fixtures/upstream-data';
import { useTestDriver } from './test-driver';

const OURS = join(import.meta.dirname, '../../../fixtures');
let driver: DockerSandboxDriver;
useTestDriver('pristine', (d) => (driver = d), { prestart: 4 });
let built: { fixture: Fixture; snapshot: BuiltSnapshot }[] = [];

beforeAll(async () => {
  const fixtures = [...(await loadSuiteDir(UPSTREAM_FIXTURES)).fixtures, ...(await loadSuiteDir(OURS)).fixtures].filter(
    (f) => pristinePlanOf(f),
  );
  const outcomes = await buildFixtureRepositories(fixtures, driver, { sandboxes: 2 });
  expect(outcomes.filter((o) => o.error).map((o) => o.error!.message)).toEqual([]);
  built = outcomes.map((o) => ({ fixture: o.fixture, snapshot: o.snapshot! }));
}, 300_000);

/** What a probe's record says, without its timing. */
const said = (r: { exitCode: number; stdout: string; stderr: string; timedOut: boolean; truncated: boolean }) => ({
  exitCode: r.exitCode,
  stdout: r.stdout,
  stderr: r.stderr,
  timedOut: r.timedOut,
  truncated: r.truncated,
});

describe('look-ups read by the build for answers that run nothing', () => {
  it('print exactly what they print in a sandbox of the attempt’s own, for every fixture that has them', async () => {
    // Upstream's 22 and our suite's 86 fixtures whose scorer reads the repository for an empty answer.
    expect(built.length).toBeGreaterThanOrEqual(100);
    const differ: string[] = [];
    for (const { fixture, snapshot } of built) {
      const plan = pristinePlanOf(fixture)!;
      expect(snapshot.pristine, `${fixture.domain}/${fixture.id} has no look-ups read by its build`).toBeDefined();
      const own = await executePlan(plan, driver, snapshot);
      expect(own.stateRead).toBe(true);
      const key = `${fixture.domain}/${fixture.id}`;
      for (const p of snapshot.pristine!.probes) {
        const mine = own.evidence.probes[p.id];
        if (!mine || JSON.stringify(said(mine)) !== JSON.stringify(said(p.record)))
          differ.push(
            `${key} ${p.id}: build ${JSON.stringify(said(p.record))} vs own ${JSON.stringify(mine && said(mine))}`,
          );
      }
      if (own.evidence.repoStateAfter !== snapshot.pristine!.repoStateAfter)
        differ.push(`${key}: repository state after the look-ups differs`);
    }
    expect(differ).toEqual([]);
  }, 600_000);

  it('score an answer that runs nothing without a sandbox of its own, to the same outcome and checks', async () => {
    const cases = built
      .filter(({ fixture }) =>
        ['bisect_regression', 'reflog_recovery', 'state_assertions'].includes(fixture.scoring.type),
      )
      .slice(0, 9);
    for (const { fixture, snapshot } of cases) {
      // The reference for the scorers that never run an answer; an empty answer for the others.
      const output = getScorer(fixture.scoring.type).plan(fixture, String(fixture.expected))?.answerCommands.length
        ? ''
        : String(fixture.expected);
      const input = { fixture, driver, outputMode: 'text' as const, prompt: 'p', output };
      const atBuild = await scoreAttempt({ ...input, snapshot });
      const { pristine: _pristine, ...older } = snapshot;
      const own = await scoreAttempt({ ...input, snapshot: older });
      const key = `${fixture.domain}/${fixture.id}`;
      expect(atBuild.sandbox.kind === 'docker' && atBuild.sandbox.atBuild, key).toBe(true);
      expect(own.sandbox.kind === 'docker' && own.sandbox.atBuild, key).toBeUndefined();
      expect(
        { outcome: atBuild.outcome, score: atBuild.score, checks: atBuild.checks, input: atBuild.hashes.input },
        key,
      ).toEqual({
        outcome: own.outcome,
        score: own.score,
        checks: own.checks,
        input: own.hashes.input,
      });
    }
    expect(cases.some(({ fixture }) => fixture.scoring.type === 'state_assertions')).toBe(true);
  }, 300_000);

  it(
    'are not taken by an attempt whose limits give its ' + 'look-ups other output caps, nor by one that runs a command',
    async () => {
      const { fixture, snapshot } = built.find(
        ({ fixture }) =>
          fixture.scoring.type === 'state_assertions' &&
          getScorer('state_assertions').plan(fixture, 'git status')!.answerCommands.length === 1,
      )!;
      const input = { fixture, snapshot, driver, outputMode: 'text' as const, prompt: 'p' };
      const capped = await scoreAttempt({ ...input, output: '', exec: { maxAttemptOutputBytes: 64 * 1024 } });
      expect(capped.sandbox.kind === 'docker' && capped.sandbox.sandboxId).toBeTruthy();
      expect(capped.sandbox.kind === 'docker' && capped.sandbox.atBuild).toBeUndefined();
      const runs = await scoreAttempt({ ...input, output: '```bash\ngit status\n```' });
      expect(runs.sandbox.kind === 'docker' && runs.sandbox.atBuild).toBeUndefined();
      expect(runs.sandbox.kind === 'docker' && runs.sandbox.evidence.answer.length).toBe(1);
    },
    120_000,
  );
});
