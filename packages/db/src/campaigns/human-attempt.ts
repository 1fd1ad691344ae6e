import { newId, type TrajectoryStep, type TrajectorySummary } from '@gitbench/core';
import type { Db } from '../client';
import { jsonbSafe } from '../jsonb-text';
import type { Prisma } from '../generated/prisma/client';
import { appendTrajectoryStep, finishTrajectory, startTrajectory } from '../trajectories/trajectory-store';
import type { AttemptWrite } from './attempt-store';
import type { NewCampaign } from './campaign-store';

/**
 * A person's attempt (`gitbench human`) as a finished one-attempt campaign, written once the session
 * is over: the campaign, its `human:<name>` target and frozen fixture, the attempt with its try and
 * evidence exactly as the worker writes a model's, then the trajectory's steps. Nothing is written
 * while the person works: a RUNNING attempt without a worker's heartbeat would be taken back by a
 * reaper and sent to a worker, which cannot play the person.
 */
export interface HumanAttemptRecord {
  campaign: Omit<NewCampaign, 'targets' | 'fixtures' | 'legacy'>;
  target: NewCampaign['targets'][number];
  fixture: NewCampaign['fixtures'][number];
  startedAt: Date;
  finishedAt: Date;
  outcome: AttemptWrite;
  trajectory: {
    agent: string;
    model: string;
    toolSet: string;
    protocol: 'native' | 'text';
    steps: readonly TrajectoryStep[];
    summary: TrajectorySummary;
  } | null;
}

export async function recordHumanAttempt(
  db: Db,
  r: HumanAttemptRecord,
): Promise<{ campaignId: string; attemptId: string }> {
  const campaignId = newId('campaign');
  const targetId = newId('target');
  const snapshotId = newId('fixtureSnapshot');
  const attemptId = newId('attempt');
  const { campaign, outcome } = r;
  await db.$transaction(async (tx) => {
    await tx.campaign.create({
      data: {
        id: campaignId,
        name: campaign.name,
        createdBy: campaign.createdBy,
        config: campaign.config,
        configHash: campaign.configHash,
        seed: campaign.seed,
        suiteVersion: campaign.suiteVersion,
        trials: campaign.trials,
        productVersion: campaign.product?.version ?? null,
        productDirty: campaign.product?.dirty ?? null,
        status: 'COMPLETED',
        createdAt: r.startedAt,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
      },
    });
    await tx.campaignTarget.create({ data: { ...r.target, id: targetId, campaignId } });
    await tx.fixtureSnapshot.create({ data: { ...r.fixture, id: snapshotId, campaignId } });
    await tx.attempt.create({
      data: {
        id: attemptId,
        campaignId,
        targetId,
        fixtureSnapshotId: snapshotId,
        trial: 1,
        modelId: r.target.modelId,
        reasoningEffort: null,
        outputMode: r.target.outputMode,
        domain: r.fixture.domain,
        fixtureId: r.fixture.fixtureId,
        difficulty: r.fixture.difficulty,
        status: outcome.status,
        passed: outcome.passed ?? null,
        score: outcome.score ?? null,
        tryCount: 1,
        queuedAt: r.startedAt,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
        ...(outcome.summary as Partial<Prisma.AttemptUncheckedCreateInput>),
      },
    });
    // A person's attempt calls no model through a gateway: its record has no calls to store.
    const { gatewayCalls: _none, ...record } = outcome.record;
    await tx.attemptTry.create({
      data: {
        ...jsonbSafe(record),
        id: newId('attemptTry'),
        attemptId,
        tryNumber: 1,
        workerId: 'human',
        status: outcome.status,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
      },
    });
  });
  if (r.trajectory) {
    const t = r.trajectory;
    const id = await startTrajectory(db, {
      attemptId,
      tryNumber: 1,
      agent: t.agent,
      model: t.model,
      toolSet: t.toolSet,
      startedAt: r.startedAt,
    });
    for (const step of t.steps) await appendTrajectoryStep(db, id, step, t.protocol);
    await finishTrajectory(db, id, t.summary);
  }
  return { campaignId, attemptId };
}
