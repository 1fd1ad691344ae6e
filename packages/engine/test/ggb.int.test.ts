import { join } from 'node:path';
import { renderPrompt, type Fixture, type GgbOutcome } from '@gitbench/core';
import { DockerSandboxDriver } from '@gitbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, judgeGgbAttempt, loadSuiteDir, scoreAttempt, selfcheckSuite } from '../src';

const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image) throw new Error('GITBENCH_SANDBOX_IMAGE must be set for engine integration tests (scripts/test.sh sets it)');

const SUITE = join(import.meta.dirname, '../../../fixtures/ggb');
const runLabel = { 'org.gitbench.test': `ggb-${process.pid}` };
let driver: DockerSandboxDriver;
let fixtures: Fixture[];

const pick = (key: string) => {
  const f = fixtures.find((x) => `${x.domain}/${x.id}` === key);
  if (!f) throw new Error(`${key} not found`);
  return f;
};

beforeAll(async () => {
  driver = await new DockerSandboxDriver({ image, labels: runLabel }).init();
  const loaded = await loadSuiteDir(SUITE);
  expect(loaded.errors).toEqual([]);
  fixtures = loaded.fixtures;
});
afterAll(async () => {
  await driver?.close();
  await driver?.removeByLabels(runLabel);
});

describe('GitGoodBench suite', () => {
  it('holds at least 20 scenarios of each type, in every band', () => {
    for (const type of ['mcr', 'ir', 'icc']) {
      const of = fixtures.filter((f) => f.domain === type);
      expect(of.length).toBeGreaterThanOrEqual(20);
      expect(new Set(of.map((f) => f.difficulty))).toEqual(new Set(['easy', 'medium', 'hard']));
    }
  });

  it('self-checks a sample of every type in three runs: references solve, nops and wrong answers fail, hashes stable', async () => {
    const sample = ['mcr/click-m01', 'mcr/requests-m04', 'ir/click-ir01', 'ir/requests-ir04', 'icc/click-icc01', 'icc/requests-icc04'].map(pick);
    const summary = await selfcheckSuite(sample, driver, { runs: 3, workers: 2, labels: runLabel });
    expect(summary.fixtures.filter((f) => f.status !== 'passed').map((f) => `${f.benchmark}/${f.id}: ${f.reason}`)).toEqual([]);
    expect(summary.stableHashes).toBe(sample.length);
    expect(summary.negativesChecked).toBe(sample.length * 2);
  }, 600_000);

  it('records the MCR diff to the merge commit and both IR verdicts as evidence', async () => {
    const mcr = pick('mcr/click-m01');
    const snap = await buildFixtureRepository(mcr, driver, { labels: runLabel });
    const wrong = await scoreAttempt({ fixture: mcr, snapshot: snap, driver, outputMode: 'text', prompt: renderPrompt(mcr, snap.context, 'text'), output: mcr.negatives![1]!.answer, labels: runLabel });
    const m = wrong.family as GgbOutcome;
    expect(m).toMatchObject({ family: 'ggb', scenario: 'mcr', success: true, solved: false, mcr: { unmerged: [] } });
    expect(m.mcr!.diff).toMatch(/^diff --git /);

    const ir = pick('ir/click-ir01');
    const irSnap = await buildFixtureRepository(ir, driver, { labels: runLabel });
    const attempt = await scoreAttempt({ fixture: ir, snapshot: irSnap, driver, outputMode: 'text', prompt: renderPrompt(ir, irSnap.context, 'text'), output: 'git rebase --continue', labels: runLabel });
    expect(attempt.outcome).toBe('NEEDS_JUDGE');
    const { attempt: judged } = await judgeGgbAttempt({ attempt, ask: 'scripted' });
    const h = judged.family as GgbOutcome;
    expect(judged.outcome).toBe('FAIL');
    expect(h.judge?.verdicts.map((v) => [v.agentAs, v.result])).toEqual([['HISTORY-1', 'TIE'], ['HISTORY-2', 'TIE']]);
    expect(h.histories!.agent.map((c) => c.message)).toEqual(h.histories!.original.map((c) => c.message));
  }, 300_000);
});
