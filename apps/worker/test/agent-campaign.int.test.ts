import { describe, expect, it } from 'vitest';
import { parseAttemptEvidence } from '@gitbench/core';
import { listTrajectories, readTrajectory, readTrajectorySteps } from '@gitbench/db';
import { campaignTestBed, expectOneOutcomeEach, finished, launch, loadFixtures, UPSTREAM_FIXTURES } from './harness';

/**
 * An agent campaign through the real pipeline: worker processes, the queue, Docker session sandboxes,
 * and every step of every try stored in the trajectory tables as the loop goes.
 */
const bed = campaignTestBed('agentcamp');
const fixtures = await loadFixtures(UPSTREAM_FIXTURES);
const FIXTURE_IDS = [
  'merge_conflicts/f002', // resolved_file_blocks: scored on the files the agent left
  'git_clean/f002', // state_assertions: scored on the repository
  'commit_squash/f001', // commit_selection: scored on the submitted answer
  'blame_forensics/f001', // exact_match
];

describe('agent campaigns', () => {
  it('oracle, nop and a simulated agent: scored once each, trajectories stored step by step', async () => {
    const { queue, name } = bed.newQueue('agent-camp');
    await bed.startWorkers(2, name);
    const campaignId = await launch(bed.t.db, queue, fixtures, {
      models: ['oracle', 'nop', 'simulated:2'],
      outputModes: ['agent'],
      agent: { toolSet: 'bash+editor', limits: { maxTurns: 12 } },
      trials: 1,
      fixtures: { suiteDir: 'upstream', ids: FIXTURE_IDS },
    });
    await finished(bed.t.db, campaignId, bed.workers, 240_000);
    const attempts = await expectOneOutcomeEach(bed.t.db, campaignId, 3 * FIXTURE_IDS.length);
    expect(attempts.filter((a) => a.modelId === 'oracle').map((a) => a.status)).toEqual(
      Array(FIXTURE_IDS.length).fill('VALID_PASS'),
    );
    // nop changes nothing: the resolved file and the answer fixtures fail (git_clean/f002 only checks files still
    // exist).
    const nop = Object.fromEntries(
      attempts.filter((a) => a.modelId === 'nop').map((a) => [`${a.domain}/${a.fixtureId}`, a.status]),
    );
    expect(nop).toMatchObject({
      'merge_conflicts/f002': 'VALID_FAIL',
      'commit_squash/f001': 'VALID_FAIL',
      'blame_forensics/f001': 'VALID_FAIL',
    });
    // simulated:2 is seeded (see simulatedAgent): on trial 1 it plays the reference solution on three
    // fixtures and answers "I could not find it." on blame_forensics/f001 (medium).
    const simulated = Object.fromEntries(
      attempts.filter((a) => a.modelId === 'simulated:2').map((a) => [`${a.domain}/${a.fixtureId}`, a.status]),
    );
    expect(simulated).toEqual({
      'merge_conflicts/f002': 'VALID_PASS',
      'git_clean/f002': 'VALID_PASS',
      'commit_squash/f001': 'VALID_PASS',
      'blame_forensics/f001': 'VALID_FAIL',
    });
    for (const a of attempts) {
      expect(a.outputMode).toBe('agent');
      const [info] = await listTrajectories(bed.t.db, a.id);
      expect(info, `trajectory of ${a.id}`).toMatchObject({
        status: 'finished',
        tryNumber: 1,
        protocol: 'native',
        toolSet: 'bash+editor',
      });
      const read = (await readTrajectory(bed.t.db, a.id))!;
      const steps = await readTrajectorySteps(bed.t.db, read.trajectory.id);
      expect(steps.map((s) => s.index)).toEqual(read.heads.map((h) => h.index));
      expect(steps.length).toBe(read.trajectory.summary!.steps);
      expect(steps.every((s) => s.repo !== null)).toBe(true);
      const evidence = parseAttemptEvidence(a.tries[0]!.evidence);
      expect(evidence.origin === 'gitbench' && evidence.agent).toMatchObject({
        exitStatus: read.trajectory.exitStatus,
        steps: steps.length,
      });
      if (a.modelId === 'nop') expect(steps).toHaveLength(1);
    }
    // The oracle's resolved file went through the editor, and the repository state shows the change.
    const merge = attempts.find((a) => a.modelId === 'oracle' && a.domain === 'merge_conflicts')!;
    const mergeSteps = await readTrajectorySteps(bed.t.db, (await readTrajectory(bed.t.db, merge.id))!.trajectory.id);
    const write = mergeSteps.find((s) => s.toolCalls.some((c) => c.name === 'write_file'))!;
    expect(write.repo!.diff).toMatch(/^diff --git/m);
    expect(mergeSteps[0]!.repo!.operations).toContain('merge');
  }, 300_000);
});
