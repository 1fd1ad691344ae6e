import { newId } from '@gitbench/core';
import type { Db } from '../src';

/** A running campaign with one queued attempt, as planning leaves it: the row storage tests claim and finish. */
export async function queuedAttempt(
  db: Db,
  target: { modelId: string; outputMode: 'text' | 'agent'; profile: string },
): Promise<string> {
  const campaignId = newId('campaign');
  const targetId = newId('target');
  const snapshotId = newId('fixtureSnapshot');
  const attemptId = newId('attempt');
  const { modelId, outputMode } = target;
  await db.campaign.create({
    data: {
      id: campaignId,
      name: 'c',
      createdBy: 'u',
      status: 'RUNNING',
      config: {},
      configHash: 'h',
      seed: 0,
      suiteVersion: 'v',
      trials: 1,
    },
  });
  await db.campaignTarget.create({
    data: { id: targetId, campaignId, modelId, baseModel: modelId, outputMode, profile: target.profile },
  });
  await db.fixtureSnapshot.create({
    data: {
      id: snapshotId,
      campaignId,
      domain: 'd',
      fixtureId: 'f001',
      difficulty: 'easy',
      tags: [],
      definition: {},
      scoringType: 'state_assertions',
    },
  });
  await db.attempt.create({
    data: {
      id: attemptId,
      campaignId,
      targetId,
      fixtureSnapshotId: snapshotId,
      trial: 1,
      modelId,
      outputMode,
      domain: 'd',
      fixtureId: 'f001',
      difficulty: 'easy',
    },
  });
  return attemptId;
}
