import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrajectoryStep } from '@gitbench/core';
import {
  appendTrajectoryStep,
  claimAttempt,
  finishTrajectory,
  listTrajectories,
  readTrajectory,
  readTrajectorySteps,
  reapStaleAttempts,
  releaseAttempt,
  startTrajectory,
  MAX_STORED_FIELD_BYTES,
} from '../src';
import { createTestDatabase, randomTrajectory, seedTrajectory, type TestDatabase } from '@gitbench/test-support';
import { queuedAttempt } from './queued-attempt';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

/** A campaign with one queued attempt, as planning leaves it. */
const attemptRow = () => queuedAttempt(t.db, { modelId: 'm', outputMode: 'text', profile: 'p' });

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'traj');
});
afterAll(async () => {
  await t?.drop();
});

describe('trajectory storage', () => {
  it('shows each step as soon as it is written, keeps the counters, and writes a step only once', async () => {
    const attemptId = await attemptRow();
    const { summary, steps } = randomTrajectory({ seed: 3, steps: 12 });
    const id = await startTrajectory(t.db, {
      attemptId,
      tryNumber: 1,
      agent: summary.agent,
      model: summary.model,
      toolSet: summary.toolSet,
    });
    expect(await startTrajectory(t.db, { attemptId, tryNumber: 1, agent: 'x', model: 'x', toolSet: 'x' })).toBe(id);
    for (const [i, step] of steps.entries()) {
      expect(await appendTrajectoryStep(t.db, id, step, 'native')).toBe(true);
      const live = await readTrajectory(t.db, attemptId);
      expect(live?.trajectory).toMatchObject({ status: 'running', steps: i + 1 });
      expect(live?.heads.at(-1)?.index).toBe(i);
    }
    expect(await appendTrajectoryStep(t.db, id, steps[0]!)).toBe(false);
    const failing = steps.filter(
      (s) =>
        s.toolCalls.some((c) => c.parseError) ||
        s.results.some((r) => r.isError || r.timedOut || (r.exitCode ?? 0) !== 0),
    );
    const row = (await readTrajectory(t.db, attemptId))!.trajectory;
    expect(row).toMatchObject({
      steps: 12,
      toolCalls: steps.reduce((n, s) => n + s.toolCalls.length, 0),
      failedSteps: failing.length,
      firstFailedStep: failing[0]?.index ?? null,
      formatStrikes: steps.filter((s) => s.formatStrike).length,
      protocol: 'native',
    });
    await finishTrajectory(t.db, id, summary);
    const done = (await readTrajectory(t.db, attemptId))!.trajectory;
    expect(done).toMatchObject({ status: 'finished', exitStatus: summary.exitStatus, summary });
    expect(await readTrajectorySteps(t.db, id)).toEqual(steps);
    expect((await readTrajectorySteps(t.db, id, { from: 4, to: 7 })).map((s) => s.index)).toEqual([4, 5, 6]);
  });

  it('calls a total unknown once a step did not report it, never a smaller number', async () => {
    const attemptId = await attemptRow();
    const { steps } = randomTrajectory({ seed: 5, steps: 3 });
    const id = await startTrajectory(t.db, { attemptId, tryNumber: 1, agent: 'a', model: 'm', toolSet: 'bash' });
    await appendTrajectoryStep(t.db, id, steps[0]!);
    await appendTrajectoryStep(t.db, id, {
      ...steps[1]!,
      usage: { ...steps[1]!.usage, inputTokens: null, costUsd: null },
    });
    await appendTrajectoryStep(t.db, id, steps[2]!);
    const row = (await readTrajectory(t.db, attemptId))!.trajectory;
    expect(row.inputTokens).toBeNull();
    expect(row.costUsd).toBeNull();
    expect(row.outputTokens).toBe(steps.reduce((n, s) => n + (s.usage.outputTokens ?? 0), 0));
  });

  it('caps a huge body, keeping head and tail, and stores it compressed', async () => {
    const attemptId = await attemptRow();
    const [step] = randomTrajectory({ seed: 7, steps: 1 }).steps as [TrajectoryStep];
    const huge = `HEAD${'x'.repeat(3 * MAX_STORED_FIELD_BYTES)}TAIL`;
    const big: TrajectoryStep = {
      ...step,
      toolCalls: [{ id: 'c', name: 'bash', rawArguments: '{}', arguments: {}, parseError: null }],
      results: [
        {
          callId: 'c',
          name: 'bash',
          isError: false,
          exitCode: 0,
          timedOut: false,
          durationMs: 1,
          output: huge,
          outputBytes: huge.length,
          truncatedBytes: 0,
        },
      ],
    };
    const id = await startTrajectory(t.db, { attemptId, tryNumber: 1, agent: 'a', model: 'm', toolSet: 'bash' });
    await appendTrajectoryStep(t.db, id, big);
    const [stored] = await readTrajectorySteps(t.db, id);
    const output = stored!.results[0]!.output;
    expect(output.startsWith('HEAD')).toBe(true);
    expect(output.endsWith('TAIL')).toBe(true);
    expect(output.length).toBeLessThan(MAX_STORED_FIELD_BYTES + 200);
    expect(output).toContain('bytes not stored');
    const row = await t.db.trajectoryStep.findFirstOrThrow({
      where: { trajectoryId: id },
      select: { body: true, bodyBytes: true },
    });
    expect(row.body.length).toBeLessThan(row.bodyBytes / 20);
  });

  it(
    'keeps the trajectory of a try given back or abandoned by a ' +
      'dead worker, marked abandoned; the next try writes its own',
    async () => {
      const attemptId = await attemptRow();
      const { steps } = randomTrajectory({ seed: 1, steps: 2 });
      const claim = (await claimAttempt(t.db, attemptId, 'w1'))!;
      const first = await startTrajectory(t.db, {
        attemptId,
        tryNumber: claim.tryNumber,
        agent: 'a',
        model: 'm',
        toolSet: 'bash',
      });
      await appendTrajectoryStep(t.db, first, steps[0]!);
      await releaseAttempt(t.db, claim, 'w1', { errorClass: 'given_back', errorMessage: 'shutdown' }, 'reaper-sends');
      const again = (await claimAttempt(t.db, attemptId, 'w2'))!;
      expect(again.tryNumber).toBe(claim.tryNumber + 1);
      const second = await startTrajectory(t.db, {
        attemptId,
        tryNumber: again.tryNumber,
        agent: 'a',
        model: 'm',
        toolSet: 'bash',
      });
      await appendTrajectoryStep(t.db, second, steps[0]!);
      await t.db.attempt.update({ where: { id: attemptId }, data: { heartbeatAt: new Date(Date.now() - 60_000) } });
      expect(await reapStaleAttempts(t.db, 10_000)).toContain(attemptId);
      expect((await listTrajectories(t.db, attemptId)).map((x) => [x.tryNumber, x.status, x.steps])).toEqual([
        [1, 'abandoned', 1],
        [2, 'abandoned', 1],
      ]);
    },
  );

  it('seeds a trajectory of N steps with M bytes of output each, readable whole or in ranges', async () => {
    const attemptId = await attemptRow();
    const { trajectoryId, steps } = await seedTrajectory(t.db, {
      attemptId,
      steps: 40,
      outputBytesPerStep: 100_000,
      seed: 9,
    });
    const read = (await readTrajectory(t.db, attemptId))!;
    expect(read.trajectory).toMatchObject({ id: trajectoryId, steps: 40, status: 'finished' });
    expect(read.heads).toHaveLength(40);
    expect(read.trajectory.outputBytes).toBe(
      steps.reduce((n, s) => n + s.results.reduce((m, r) => m + r.outputBytes, 0), 0),
    );
    expect(read.trajectory.outputBytes).toBeGreaterThan(30 * 100_000);
    expect(await readTrajectorySteps(t.db, trajectoryId, { from: 38 })).toEqual(steps.slice(38));
  });
});
