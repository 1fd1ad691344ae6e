import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@gitbench/core';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { getAttemptEvidence } from '../lib/queries/attempt';

// What the attempt page may show a viewer of a campaign whose raw outputs are not released: nothing
// that quotes the model's answer, error messages included.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const ANSWER = 'git reset --hard && echo the whole secret answer';
let t: TestDatabase;
let campaignId: string;
let attemptId: string;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'attvis');
  campaignId = newId('campaign');
  const targetId = newId('target');
  const snapshotId = newId('fixtureSnapshot');
  attemptId = newId('attempt');
  const db = t.db;
  await db.campaign.create({
    data: {
      id: campaignId,
      name: 'c',
      createdBy: 'u',
      status: 'COMPLETED',
      config: {},
      configHash: 'h',
      seed: 0,
      suiteVersion: 'v',
      trials: 1,
    },
  });
  await db.campaignTarget.create({
    data: { id: targetId, campaignId, modelId: 'm', baseModel: 'm', outputMode: 'text', profile: 'p' },
  });
  await db.fixtureSnapshot.create({
    data: {
      id: snapshotId,
      campaignId,
      domain: 'merge',
      fixtureId: 'f001',
      difficulty: 'easy',
      tags: [],
      definition: {},
      scoringType: 'exact',
    },
  });
  const message = `Expected 'git merge main', got '${ANSWER}'`;
  await db.attempt.create({
    data: {
      id: attemptId,
      campaignId,
      targetId,
      fixtureSnapshotId: snapshotId,
      trial: 1,
      modelId: 'm',
      outputMode: 'text',
      domain: 'merge',
      fixtureId: 'f001',
      difficulty: 'easy',
      status: 'VALID_FAIL',
      errorClass: 'wrong_answer',
      errorMessage: message,
    },
  });
  await db.attemptTry.create({
    data: {
      id: newId('attemptTry'),
      attemptId,
      tryNumber: 1,
      workerId: 'w',
      status: 'VALID_FAIL',
      startedAt: new Date(),
      errorClass: 'wrong_answer',
      errorMessage: message,
      evidence: { output: ANSWER },
    },
  });
});
afterAll(async () => {
  await t?.drop();
});

describe('attempt evidence by role', () => {
  it('gives a viewer of an unpublished campaign the error class only, and no evidence', async () => {
    const found = (await getAttemptEvidence(t.db, attemptId, 'viewer'))!;
    expect(found.rawHidden).toBe(true);
    expect(found.attempt.errorClass).toBe('wrong_answer');
    expect(JSON.stringify(found)).not.toContain('secret answer');
  });

  it('gives members everything, and viewers everything once the campaign is published', async () => {
    expect(JSON.stringify(await getAttemptEvidence(t.db, attemptId, 'member'))).toContain('secret answer');
    await t.db.campaign.update({ where: { id: campaignId }, data: { publishedAt: new Date(), publishedBy: 'u' } });
    const found = (await getAttemptEvidence(t.db, attemptId, 'viewer'))!;
    expect(found.rawHidden).toBe(false);
    expect(found.attempt.errorMessage).toContain('secret answer');
    expect(found.attempt.tries[0]!.errorMessage).toContain('secret answer');
  });

  it('hides them again from viewers when the review of a published campaign is not approved', async () => {
    await t.db.campaign.update({
      where: { id: campaignId },
      data: { publishedAt: new Date(), publishedBy: 'u', safetyReview: 'pending' },
    });
    const found = (await getAttemptEvidence(t.db, attemptId, 'viewer'))!;
    expect(found.rawHidden).toBe(true);
    expect(JSON.stringify(found)).not.toContain('secret answer');
  });
});
