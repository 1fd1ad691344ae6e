import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, stepFailed, type TrajectoryStep } from '@gitbench/core';
import { appendTrajectoryStep, startTrajectory, storeTrajectory } from '@gitbench/db';
import { createTestDatabase, randomTrajectory, type TestDatabase } from '@gitbench/test-support';
import {
  getStepPart,
  getStepRange,
  getStepsAfter,
  getTrajectoryView,
  searchTrajectory,
} from '../lib/queries/trajectory';
import { compareCandidates, getTrajectoryComparison } from '../lib/queries/trajectory-compare';
import { searchStep, VIEW_LIMITS } from '../lib/trajectory/view-model';

// The viewer's reads against a stored trajectory: what they return must agree with the records as
// written (the factory's steps), with bodies cut only where the view model says.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;
let campaignId: string;
let targetId: string;
let snapshotId: string;

async function attempt(trial: number): Promise<string> {
  const id = newId('attempt');
  await t.db.attempt.create({
    data: {
      id,
      campaignId,
      targetId,
      fixtureSnapshotId: snapshotId,
      trial,
      modelId: 'm',
      outputMode: 'text',
      domain: 'merge',
      fixtureId: 'f001',
      difficulty: 'easy',
      status: 'VALID_FAIL',
    },
  });
  return id;
}

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'trajq');
  campaignId = newId('campaign');
  targetId = newId('target');
  snapshotId = newId('fixtureSnapshot');
  await t.db.campaign.create({
    data: {
      id: campaignId,
      name: 'c',
      createdBy: 'u',
      status: 'COMPLETED',
      config: {},
      configHash: 'h',
      seed: 0,
      suiteVersion: 'v',
      trials: 3,
    },
  });
  await t.db.campaignTarget.create({
    data: { id: targetId, campaignId, modelId: 'm', baseModel: 'm', outputMode: 'text', profile: 'p' },
  });
  await t.db.fixtureSnapshot.create({
    data: {
      id: snapshotId,
      campaignId,
      domain: 'merge',
      fixtureId: 'f001',
      difficulty: 'easy',
      tags: [],
      definition: {},
      scoringType: 'state_assertions',
    },
  });
});
afterAll(async () => {
  await t?.drop();
});

describe('trajectory queries', () => {
  let attemptId: string;
  let steps: TrajectoryStep[];
  beforeAll(async () => {
    attemptId = await attempt(1);
    // One step in ten carries a big output; the rest have failing commands, conflicts, typos to find.
    const seeded = randomTrajectory({ seed: 4, steps: 60, bigOutputBytes: 40_000, maxToolOutputBytes: 40_000 });
    steps = seeded.steps;
    await storeTrajectory(t.db, attemptId, 1, seeded.summary, steps);
    expect(steps.some(stepFailed)).toBe(true);
  });

  it('gives heads for every step and jump targets that match the records', async () => {
    const view = (await getTrajectoryView(t.db, attemptId))!;
    expect(view.heads).toHaveLength(60);
    const failures = steps.filter(stepFailed).map((s) => s.index);
    expect(view.jumps.failures).toEqual(failures);
    expect(view.jumps.firstFailure).toBe(failures[0] ?? null);
    expect(view.meta).not.toHaveProperty('summary');
  });

  it('reads a range with outputs cut to previews, and one output whole on its own', async () => {
    const range = (await getStepRange(t.db, attemptId, { from: 0, to: 60 }))!;
    expect(range.map((s) => s.index)).toEqual(steps.map((s) => s.index));
    const s = range.find((x) => Object.keys(x.clipped.output).length > 0)!;
    const r = s.results.find((x) => s.clipped.output[x.callId])!;
    expect(Buffer.byteLength(r.output)).toBeLessThan(VIEW_LIMITS.outputBytes + 200);
    const whole = steps[s.index]!.results.find((x) => x.callId === r.callId)!.output;
    expect(whole.length).toBeGreaterThan(VIEW_LIMITS.outputBytes);
    expect(await getStepPart(t.db, attemptId, s.index, { kind: 'output', callId: r.callId })).toBe(whole);
    expect(await getStepPart(t.db, attemptId, s.index, { kind: 'output', callId: 'nope' })).toBeNull();
  });

  it('searches every step on the server, as the view model searches one', async () => {
    for (const q of ['chekout', 'CONFLICT', 'src/util.py', 'no such text anywhere']) {
      const found = (await searchTrajectory(t.db, attemptId, q))!;
      expect(found.hits).toEqual(steps.map((s) => searchStep(s, q)).filter((h) => h !== null));
    }
  });

  it('gives a running trajectory’s new steps after the last index the browser holds', async () => {
    const live = await attempt(2);
    const { summary, steps: all } = randomTrajectory({ seed: 8, steps: 5 });
    const id = await startTrajectory(t.db, {
      attemptId: live,
      tryNumber: 1,
      agent: summary.agent,
      model: summary.model,
      toolSet: summary.toolSet,
    });
    for (const s of all.slice(0, 2)) await appendTrajectoryStep(t.db, id, s);
    expect((await getStepsAfter(t.db, live, -1))!.heads.map((h) => h.index)).toEqual([0, 1]);
    for (const s of all.slice(2)) await appendTrajectoryStep(t.db, id, s);
    const after = (await getStepsAfter(t.db, live, 1))!;
    expect(after).toMatchObject({ status: 'running', steps: 5 });
    expect(after.heads.map((h) => h.index)).toEqual([2, 3, 4]);
  });

  it('offers the other attempts of the fixture that have a trajectory', async () => {
    const without = await attempt(3);
    const others = await compareCandidates(
      t.db,
      { id: attemptId, domain: 'merge', fixtureId: 'f001' },
      { onlyPublished: false },
    );
    expect(others.map((o) => o.id)).not.toContain(attemptId);
    expect(others.map((o) => o.id)).not.toContain(without);
    expect(others).toHaveLength(1);
  });
});

describe('trajectory comparison and campaign visibility', () => {
  // Raw steps reach viewers only from published campaigns. An unpublished campaign's attempt of the
  // same fixture, finished last and with the other verdict, is what the picker would choose by
  // default: a viewer must get the published one instead, and never see the unpublished one offered.
  const fixtureId = 'f002';
  let published: string;
  let unpublished: string;
  let a: string;
  let publishedB: string;
  let unpublishedB: string;
  let unpublishedA: string;

  async function campaign(name: string, publishedAt: Date | null): Promise<string> {
    const id = newId('campaign');
    await t.db.campaign.create({
      data: {
        id,
        name,
        createdBy: 'u',
        status: 'COMPLETED',
        config: {},
        configHash: 'h',
        seed: 0,
        suiteVersion: 'v',
        trials: 3,
        publishedAt,
        publishedBy: publishedAt ? 'u' : null,
      },
    });
    await t.db.campaignTarget.create({
      data: { id: `${id}_t`, campaignId: id, modelId: 'm', baseModel: 'm', outputMode: 'text', profile: 'p' },
    });
    await t.db.fixtureSnapshot.create({
      data: {
        id: `${id}_s`,
        campaignId: id,
        domain: 'merge',
        fixtureId,
        difficulty: 'easy',
        tags: [],
        definition: {},
        scoringType: 'state_assertions',
      },
    });
    return id;
  }

  async function run(
    campaign: string,
    trial: number,
    status: 'VALID_PASS' | 'VALID_FAIL',
    finishedAt: Date,
  ): Promise<string> {
    const id = newId('attempt');
    await t.db.attempt.create({
      data: {
        id,
        campaignId: campaign,
        targetId: `${campaign}_t`,
        fixtureSnapshotId: `${campaign}_s`,
        trial,
        modelId: 'm',
        outputMode: 'text',
        domain: 'merge',
        fixtureId,
        difficulty: 'easy',
        status,
        finishedAt,
      },
    });
    const { summary, steps } = randomTrajectory({ seed: trial, steps: 3 });
    await storeTrajectory(t.db, id, 1, summary, steps);
    return id;
  }

  beforeAll(async () => {
    published = await campaign('published', new Date());
    unpublished = await campaign('unpublished', null);
    const now = Date.now();
    a = await run(published, 1, 'VALID_FAIL', new Date(now - 3_600_000));
    publishedB = await run(published, 2, 'VALID_PASS', new Date(now - 1_800_000));
    unpublishedB = await run(unpublished, 1, 'VALID_PASS', new Date(now));
    unpublishedA = await run(unpublished, 2, 'VALID_FAIL', new Date(now - 60_000));
  });

  it('gives a viewer the published B and only published candidates', async () => {
    const cmp = await getTrajectoryComparison(t.db, a, undefined, { onlyPublished: true });
    expect(cmp && !cmp.hidden).toBe(true);
    if (!cmp || cmp.hidden) return;
    expect(cmp.b?.attemptId).toBe(publishedB);
    expect(cmp.b?.campaignId).toBe(published);
    expect(cmp.candidates.map((c) => c.id)).toEqual([publishedB]);
  });

  it('gives a member every campaign’s attempts, the unpublished default among them', async () => {
    const cmp = await getTrajectoryComparison(t.db, a, undefined, { onlyPublished: false });
    expect(cmp && !cmp.hidden).toBe(true);
    if (!cmp || cmp.hidden) return;
    expect(cmp.b?.attemptId).toBe(unpublishedB);
    expect(cmp.candidates.map((c) => c.id)).toEqual(expect.arrayContaining([publishedB, unpublishedB, unpublishedA]));
  });

  it('refuses a viewer an unpublished B named explicitly, or an unpublished A', async () => {
    expect(await getTrajectoryComparison(t.db, a, unpublishedB, { onlyPublished: true })).toEqual({ hidden: true });
    expect(await getTrajectoryComparison(t.db, unpublishedA, undefined, { onlyPublished: true })).toEqual({
      hidden: true,
    });
    expect(await getTrajectoryComparison(t.db, unpublishedA, publishedB, { onlyPublished: true })).toEqual({
      hidden: true,
    });
    // A published B named explicitly is the viewer's to open.
    const cmp = await getTrajectoryComparison(t.db, a, publishedB, { onlyPublished: true });
    expect(cmp && !cmp.hidden && cmp.b?.attemptId).toBe(publishedB);
  });
});
