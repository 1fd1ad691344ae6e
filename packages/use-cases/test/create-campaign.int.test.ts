import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '@gitbench/core';
import type { PlanJob } from '@gitbench/db';
import type { JobName, JobPayload } from '@gitbench/queue';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { createCampaign, type CreateCampaignDeps } from '../src';

/**
 * Creating a campaign, as the API and the CLI both do it: checked, written, audited, then handed to a
 * worker by plan job 1. Real Postgres; the queue is a stand-in that keeps what is sent, or refuses it.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'uc_create');
});
afterAll(async () => {
  await t?.drop();
});

const fixtures = [
  { domain: 'git_clean', id: 'f001', difficulty: 'easy', tags: [], scoring: { type: 'exact_match' } },
  { domain: 'git_clean', id: 'f002', difficulty: 'easy', tags: [], scoring: { type: 'exact_match' } },
] as unknown as Fixture[];
const actor = { userId: null, email: 'ada@example.com', via: 'token' } as const;

function deps(sent: PlanJob[], queueDown = false): CreateCampaignDeps {
  return {
    db: t.db,
    queue: {
      enqueue: async <N extends JobName>(name: N, job: JobPayload<N>) => {
        if (queueDown) throw new Error('Redis is away');
        expect(name).toBe('campaign.plan');
        sent.push(job as PlanJob);
        return 'sent';
      },
    },
    loadSuite: async () => ({ version: 'v1', fixtures, invalid: [] }),
    profileFor: () => ({ profile: 'builtin' }),
    productVersion: { version: 'abc1234', dirty: false, source: 'GITBENCH_VERSION' },
    safetyReviewConfigured: true,
  };
}

describe('createCampaign', () => {
  it('writes the campaign, audits it once and sends plan job 1', async () => {
    const sent: PlanJob[] = [];
    const config = {
      name: 'two models',
      createdBy: 'ada',
      models: ['oracle', 'mock'],
      trials: 2,
      fixtures: { suiteDir: 'x' },
    };
    const created = await createCampaign(deps(sent), config, actor);
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    expect(created).toMatchObject({ attempts: 8, targets: 2, fixtures: 2, queued: true });
    expect(sent).toEqual([{ campaignId: created.campaignId, dispatch: 1 }]);
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { id: created.campaignId } });
    expect(campaign).toMatchObject({
      status: 'PLANNING',
      planDispatchCount: 1,
      safetyReview: 'pending',
      productVersion: 'abc1234',
    });
    const audits = await t.db.auditEvent.findMany({ where: { targetId: created.campaignId } });
    expect(audits.map((a) => [a.action, a.actorEmail, a.via, a.detail])).toEqual([
      ['campaign.create', 'ada@example.com', 'token', { attempts: 8 }],
    ]);
  });

  it('writes nothing and sends nothing for an invalid configuration', async () => {
    const sent: PlanJob[] = [];
    const before = await t.db.campaign.count();
    const refused = await createCampaign(
      deps(sent),
      { name: '', createdBy: 'ada', models: ['oracle'], fixtures: { suiteDir: 'x' } },
      actor,
    );
    expect(refused.ok).toBe(false);
    expect(await t.db.campaign.count()).toBe(before);
    expect(sent).toEqual([]);
  });

  it('keeps the campaign when the queue is away, and says so (the reaper sends plan job 1 later)', async () => {
    const created = await createCampaign(
      deps([], true),
      { name: 'queue away', createdBy: 'ada', models: ['oracle'], fixtures: { suiteDir: 'x' } },
      actor,
    );
    expect(created).toMatchObject({ ok: true, queued: false, queueError: 'Redis is away' });
    if (!created.ok) return;
    expect(await t.db.campaign.findUniqueOrThrow({ where: { id: created.campaignId } })).toMatchObject({
      status: 'PLANNING',
      planDispatchCount: 1,
    });
  });
});
