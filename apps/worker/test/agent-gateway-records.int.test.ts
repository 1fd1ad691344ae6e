import { describe, expect, it } from 'vitest';
import { readGatewayCalls, readTrajectory, readTrajectorySteps } from '@gitbench/db';
import { createCampaign } from '@gitbench/use-cases';
import {
  campaignTestBed,
  deps,
  expectOneOutcomeEach,
  finished,
  loadFixtures,
  TEST_ACTOR,
  UPSTREAM_FIXTURES,
} from './harness';

/**
 * A real third-party agent attempt through a worker (Claude Code driven by the oracle through the model
 * gateway, in the agent image apps/cli/test/third-party-agents.int.test.ts builds; the worker builds it
 * on first use when that file has not run): every call the agent made is stored with the try, and the
 * trajectory rebuilt from those calls is stored step by step, the repository as GitBench read it.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const bed = campaignTestBed('agentrecords');
const fixtures = await loadFixtures(UPSTREAM_FIXTURES);
// state_assertions: the reference solution creates the tag v1.0 on HEAD, one command.
const FIXTURE = 'tag_management/f001';

describe("a third-party agent's records", () => {
  it(
    'stores its gateway calls with the try and a trajectory ' +
      'whose repository changes at the step that ran the command',
    async () => {
      const { queue, name } = bed.newQueue('agent-records');
      await bed.startWorkers(1, name);
      const config = {
        name: 'agent records',
        createdBy: 'test',
        models: ['oracle'],
        outputModes: ['agent'],
        agents: ['claude-code'],
        trials: 1,
        fixtures: { suiteDir: 'upstream', ids: [FIXTURE] },
      };
      const created = await createCampaign(
        { ...deps(bed.t.db, fixtures, queue), agents: ['claude-code'] },
        config,
        TEST_ACTOR,
      );
      if (!created.ok) throw new Error(JSON.stringify(created.errors));
      const { campaignId } = created;
      await finished(bed.t.db, campaignId, bed.workers, 600_000);
      const [attempt] = await expectOneOutcomeEach(bed.t.db, campaignId, 1);
      expect(attempt!.status, `${attempt!.errorClass} ${attempt!.errorMessage}`).toBe('VALID_PASS');

      // Every call, in order, with the try: Claude Code speaks Messages; the oracle's command is in an answer.
      const calls = await readGatewayCalls(bed.t.db, attempt!.id);
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls.map((c) => c.record.seq)).toEqual(calls.map((_, i) => i + 1));
      expect(
        calls.every(
          (c) =>
            c.record.protocol === 'messages' &&
            c.record.status === 200 &&
            c.record.model === 'oracle' &&
            c.cutBytes === 0,
        ),
      ).toBe(true);
      const commandCall = calls.find((c) => c.record.answer?.toolCalls.some((t) => t.name === 'Bash'))!;
      expect(commandCall.record.answer!.toolCalls[0]!.arguments).toContain('git tag v1.0');
      // The request is stored as the agent sent it: its messages and its own tools.
      expect((commandCall.record.request as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
      expect(commandCall.record.tools).toContain('Bash');
      const rows = await bed.t.db.gatewayCall.findMany({ where: { attemptId: attempt!.id }, orderBy: { seq: 'asc' } });
      expect(rows.map((r) => r.tryNumber)).toEqual(calls.map(() => 1));
      // The repository was read before every call the backend answered.
      expect(rows.every((r) => r.hookMs > 0)).toBe(true);

      // The trajectory, rebuilt from those calls and stored as steps: the tag appears at the step that ran it.
      const read = (await readTrajectory(bed.t.db, attempt!.id))!;
      expect(read.trajectory).toMatchObject({
        status: 'finished',
        agent: expect.stringMatching(/^claude-code@/),
        model: 'oracle',
        exitStatus: 'model_stopped',
      });
      const steps = await readTrajectorySteps(bed.t.db, read.trajectory.id);
      expect(steps.length).toBe(read.trajectory.summary!.steps);
      expect(steps.length).toBeGreaterThanOrEqual(2);
      const tagStep = steps.findIndex((s) => s.toolCalls.some((c) => c.rawArguments.includes('git tag v1.0')));
      expect(tagStep).toBeGreaterThanOrEqual(0);
      expect(steps[tagStep]!.results[0]).toMatchObject({ agentReported: true, exitCode: null });
      expect(steps[tagStep]!.repo!.refsChanged.map((r) => r.ref)).toContain('refs/tags/v1.0');
      // No step before it moved a ref; none after it did either (the oracle then only answers).
      for (const [i, s] of steps.entries()) if (i !== tagStep) expect(s.repo!.refsChanged, `step ${i}`).toEqual([]);
      // The stored heads say which step changed the repository.
      expect(read.heads.map((h) => h.repo!.refsChanged)).toEqual(steps.map((_, i) => (i === tagStep ? 1 : 0)));
    },
    660_000,
  );
});
