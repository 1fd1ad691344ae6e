import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { markCampaignCancelled, insertCampaign, loadSnapshotArchive, planningShape, savePlannedFixtures } from '../src';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'planning_write');
});
afterAll(async () => {
  await t?.drop();
});

/** A campaign of two targets x the given fixtures x two trials, nothing built yet. */
async function unplannedCampaign(fixtureIds: string[]) {
  const campaignId = await insertCampaign(t.db, {
    name: 'planning',
    createdBy: 'test',
    config: {},
    configHash: 'h',
    seed: 0,
    suiteVersion: 'test',
    trials: 2,
    targets: [
      { modelId: 'mock-b', baseModel: 'mock', reasoningEffort: null, outputMode: 'text', profile: 'builtin' },
      { modelId: 'mock-a', baseModel: 'mock', reasoningEffort: 'low', outputMode: 'json_schema', profile: 'builtin' },
    ],
    fixtures: fixtureIds.map((fixtureId) => ({
      domain: 'log',
      fixtureId,
      difficulty: 'easy',
      tags: [],
      scoringType: 'exact_match',
      definition: {},
    })),
  });
  const snaps = await t.db.fixtureSnapshot.findMany({ where: { campaignId }, select: { id: true, fixtureId: true } });
  return { campaignId, snapshotOf: (fixtureId: string) => snaps.find((s) => s.fixtureId === fixtureId)!.id };
}

const facts = { inputHash: 'in', repoState: 'state', setupLog: 'log', buildInfo: { image: 'x' } };
const newBuild = (key: string, fixtureId: string) => ({
  key,
  domain: 'log',
  fixtureId,
  ...facts,
  tar: Buffer.from(`tar of ${fixtureId}`),
});

describe("planning's write of built fixtures (one statement)", () => {
  it('two planners writing the same fixture at once write its attempts and its shared build once', async () => {
    const { campaignId, snapshotOf } = await unplannedCampaign(['a', 'b']);
    const key = `key-${campaignId}`;
    const write = () =>
      savePlannedFixtures(t.db, campaignId, [{ snapshotId: snapshotOf('a'), ...facts, buildKey: key }], {
        newBuilds: [newBuild(key, 'a')],
      });
    const [one, two] = await Promise.all([write(), write()]);
    expect([one!.jobs.length, two!.jobs.length].sort()).toEqual([0, 4]);
    // Only the write that stored the snapshot says so (the worker primes its cache with it).
    expect([...one!.written, ...two!.written]).toEqual([snapshotOf('a')]);
    expect(await t.db.attempt.count({ where: { campaignId } })).toBe(4);
    expect(await t.db.fixtureBuild.count({ where: { key } })).toBe(1);
    // The snapshot references the build, and an attempt reads the archive through it.
    expect((await loadSnapshotArchive(t.db, snapshotOf('a'))).toString()).toBe('tar of a');
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
    expect(campaign.status).toBe('PLANNING');
    expect(campaign.startedAt).not.toBeNull();
  });

  it("sends the jobs in planAttempts' order: trial, then fixture by domain and id, then target by model", async () => {
    const { campaignId, snapshotOf } = await unplannedCampaign(['z', 'm']);
    // Given in the opposite order, with its own archive (a build that may not be shared).
    const { jobs, written } = (await savePlannedFixtures(
      t.db,
      campaignId,
      ['z', 'm'].map((f) => ({ snapshotId: snapshotOf(f), ...facts, tar: Buffer.from(f) })),
    ))!;
    expect(written.sort()).toEqual([snapshotOf('m'), snapshotOf('z')].sort());
    const rows = await t.db.attempt.findMany({
      where: { campaignId },
      select: {
        id: true,
        trial: true,
        fixtureId: true,
        modelId: true,
        outputMode: true,
        reasoningEffort: true,
        difficulty: true,
        status: true,
        dispatchCount: true,
      },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(
      jobs.map((j) => {
        const r = byId.get(j.attemptId)!;
        return `${r.trial} ${r.fixtureId} ${r.modelId}`;
      }),
    ).toEqual([
      '1 m mock-a',
      '1 m mock-b',
      '1 z mock-a',
      '1 z mock-b',
      '2 m mock-a',
      '2 m mock-b',
      '2 z mock-a',
      '2 z mock-b',
    ]);
    expect(jobs.every((j) => j.dispatch === 1)).toBe(true);
    // Each attempt carries its target's and fixture's facts, QUEUED as dispatch 1.
    expect(rows.every((r) => r.status === 'QUEUED' && r.dispatchCount === 1 && r.difficulty === 'easy')).toBe(true);
    expect(
      rows
        .filter((r) => r.modelId === 'mock-a')
        .every((r) => r.outputMode === 'json_schema' && r.reasoningEffort === 'low'),
    ).toBe(true);
    expect((await loadSnapshotArchive(t.db, snapshotOf('z'))).toString()).toBe('z');
    expect((await planningShape(t.db, campaignId)).targets.map((x) => x.modelId)).toEqual(['mock-a', 'mock-b']);
  });

  it(
    'stores an archive the sandbox compressed as it came, and ' +
      'one that came plain compressed; both read back as the tar',
    async () => {
      const { campaignId, snapshotOf } = await unplannedCampaign(['packed', 'plain']);
      const tar = (name: string) => Buffer.from(`tar of ${name} `.repeat(200));
      const packed = gzipSync(tar('packed'), { level: 1 });
      const key = `key-${campaignId}`;
      await savePlannedFixtures(
        t.db,
        campaignId,
        [
          { snapshotId: snapshotOf('packed'), ...facts, buildKey: key },
          { snapshotId: snapshotOf('plain'), ...facts, tar: tar('plain') },
        ],
        {
          newBuilds: [{ ...newBuild(key, 'packed'), tar: packed }],
        },
      );
      const stored = await t.db.fixtureBuild.findUniqueOrThrow({ where: { key } });
      expect(Buffer.from(stored.repoArchive)).toEqual(packed);
      expect(await loadSnapshotArchive(t.db, snapshotOf('packed'))).toEqual(tar('packed'));
      const own = await t.db.fixtureSnapshot.findUniqueOrThrow({ where: { id: snapshotOf('plain') } });
      expect(own.repoArchive!.length).toBeLessThan(tar('plain').length);
      expect(await loadSnapshotArchive(t.db, snapshotOf('plain'))).toEqual(tar('plain'));
    },
  );

  it(
    'writes no attempt once the campaign left planning, and ' + 'still keeps the new shared build for other campaigns',
    async () => {
      const { campaignId, snapshotOf } = await unplannedCampaign(['a']);
      await markCampaignCancelled(t.db, campaignId);
      const key = `key-${campaignId}`;
      const jobs = await savePlannedFixtures(
        t.db,
        campaignId,
        [{ snapshotId: snapshotOf('a'), ...facts, buildKey: key }],
        { newBuilds: [newBuild(key, 'a')] },
      );
      expect(jobs).toBeNull();
      expect(await t.db.attempt.count({ where: { campaignId } })).toBe(0);
      expect((await t.db.fixtureSnapshot.findUniqueOrThrow({ where: { id: snapshotOf('a') } })).builtAt).toBeNull();
      expect(await t.db.fixtureBuild.count({ where: { key } })).toBe(1);
    },
  );
});
