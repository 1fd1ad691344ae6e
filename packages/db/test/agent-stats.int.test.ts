import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCodeUnits, newId, type AgentExitStatus } from '@gitbench/core';
import { agentTargetStats, storeTrajectory, summarizeCampaign } from '../src';
import { createTestDatabase, randomTrajectory, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'agentstats');
});
afterAll(async () => {
  await t?.drop();
});

/** A campaign with one agent target and one text target; returns ids to hang attempts on. */
async function campaign() {
  const campaignId = newId('campaign');
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
      trials: 2,
    },
  });
  const target = async (modelId: string) => {
    const id = newId('target');
    await t.db.campaignTarget.create({
      data: { id, campaignId, modelId, baseModel: modelId, outputMode: 'text', profile: 'p' },
    });
    return id;
  };
  const fixture = async (fixtureId: string) => {
    const id = newId('fixtureSnapshot');
    await t.db.fixtureSnapshot.create({
      data: {
        id,
        campaignId,
        domain: 'merge',
        fixtureId,
        difficulty: 'easy',
        tags: [],
        definition: {},
        scoringType: 'state_assertions',
      },
    });
    return { id, fixtureId };
  };
  return {
    campaignId,
    agent: await target('agent/a'),
    plain: await target('plain/b'),
    f1: await fixture('f001'),
    f2: await fixture('f002'),
  };
}

async function attempt(
  c: Awaited<ReturnType<typeof campaign>>,
  targetId: string,
  modelId: string,
  f: { id: string; fixtureId: string },
  trial: number,
  opts: { passed: boolean; cost: number | null; exit?: AgentExitStatus; steps?: number },
) {
  const id = newId('attempt');
  await t.db.attempt.create({
    data: {
      id,
      campaignId: c.campaignId,
      targetId,
      fixtureSnapshotId: f.id,
      trial,
      modelId,
      outputMode: 'text',
      domain: 'merge',
      fixtureId: f.fixtureId,
      difficulty: 'easy',
      status: opts.passed ? 'VALID_PASS' : 'VALID_FAIL',
      passed: opts.passed,
      costUsd: opts.cost,
    },
  });
  if (opts.exit) {
    const { summary, steps } = randomTrajectory({
      seed: trial * 10 + opts.steps!,
      steps: opts.steps!,
      exitStatus: opts.exit,
    });
    // An abandoned first try, then the try that counts.
    await storeTrajectory(t.db, id, 1, summary, steps.slice(0, 2), 'running');
    await t.db.trajectory.updateMany({ where: { attemptId: id, tryNumber: 1 }, data: { status: 'abandoned' } });
    await storeTrajectory(t.db, id, 2, summary, steps);
  }
  return id;
}

describe('agentTargetStats', () => {
  it('counts steps, exit statuses and cost per solved fixture over the latest try of each agent attempt', async () => {
    const c = await campaign();
    await attempt(c, c.agent, 'agent/a', c.f1, 1, { passed: true, cost: 0.5, exit: 'submitted', steps: 10 });
    await attempt(c, c.agent, 'agent/a', c.f1, 2, { passed: false, cost: 0.25, exit: 'turn_limit', steps: 30 });
    await attempt(c, c.agent, 'agent/a', c.f2, 1, { passed: false, cost: 0.25, exit: 'submitted', steps: 20 });
    await attempt(c, c.plain, 'plain/b', c.f1, 1, { passed: true, cost: 0.1 });

    const rows = await agentTargetStats(t.db, { campaignId: c.campaignId });
    expect(rows).toHaveLength(1); // the text target has no trajectory
    const [r] = rows;
    expect(r).toMatchObject({
      campaignId: c.campaignId,
      modelId: 'agent/a',
      attempts: 3,
      stepsMax: 30,
      solvedFixtures: 1,
      fixtures: 2,
      costUsd: 1,
      costPerSolvedFixture: 1,
    });
    expect(r!.stepsMean).toBeCloseTo(20);
    expect(r!.exits).toMatchObject({ submitted: 2, turn_limit: 1, abandoned: 0, running: 0 });
    expect((await summarizeCampaign(t.db, c.campaignId))!.agentTargets).toEqual(rows);
  });

  it(
    'says the cost is unknown, not zero, when an attempt has no ' +
      'cost, and has no cost per fixture when nothing was solved',
    async () => {
      const c = await campaign();
      await attempt(c, c.agent, 'agent/a', c.f1, 1, { passed: false, cost: null, exit: 'cost_limit', steps: 5 });
      await t.db.trajectory.updateMany({ where: { attempt: { campaignId: c.campaignId } }, data: { costUsd: null } });
      const [r] = await agentTargetStats(t.db, { campaignId: c.campaignId });
      expect(r).toMatchObject({ costUsd: null, costPerSolvedFixture: null, solvedFixtures: 0 });
      expect(r!.exits.cost_limit).toBe(1);
    },
  );

  it("keeps only the campaigns, domain, difficulty and mode asked for (the leaderboard's filters)", async () => {
    const c = await campaign();
    const other = await campaign();
    const kept = await attempt(c, c.agent, 'agent/a', c.f1, 1, {
      passed: true,
      cost: 0.5,
      exit: 'submitted',
      steps: 10,
    });
    await attempt(c, c.agent, 'agent/a', c.f2, 1, { passed: false, cost: 0.25, exit: 'turn_limit', steps: 30 });
    await attempt(other, other.agent, 'agent/a', other.f1, 1, {
      passed: true,
      cost: 0.5,
      exit: 'submitted',
      steps: 10,
    });
    await t.db.attempt.update({
      where: { id: kept },
      data: { outputMode: 'agent', domain: 'rebase', difficulty: 'hard' },
    });
    const attempts = async (scope: Parameters<typeof agentTargetStats>[1]) =>
      (await agentTargetStats(t.db, scope)).map((r) => [r.campaignId, r.outputMode, r.attempts]);

    expect(await attempts({ campaignIds: [c.campaignId, other.campaignId], perCampaign: true })).toEqual(
      [
        [c.campaignId, 'agent', 1],
        [c.campaignId, 'text', 1],
        [other.campaignId, 'text', 1],
        // The query orders by campaign id in the database's C collation (byte order), which localeCompare
        // does not follow when two random ids first differ in letter case (a < B here, B < a there).
      ].sort((x, y) => compareCodeUnits(String(x[0]), String(y[0]))),
    );
    expect(await attempts({ campaignIds: [c.campaignId], mode: 'agent' })).toEqual([[null, 'agent', 1]]);
    expect(await attempts({ campaignIds: [c.campaignId], domain: 'rebase' })).toEqual([[null, 'agent', 1]]);
    expect(await attempts({ campaignIds: [c.campaignId], difficulty: 'easy' })).toEqual([[null, 'text', 1]]);
    expect(await attempts({ campaignIds: [other.campaignId], mode: 'agent' })).toEqual([]);
  });
});
