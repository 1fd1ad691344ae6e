import { describe, expect, it } from 'vitest';
import {
  campaignConfigSchema,
  CampaignPlanError,
  estimateCampaignTime,
  estimateEta,
  planAttempts,
  plannedAttemptCount,
  selectFixtures,
  type SelectableFixture,
} from '../../src/campaign';

const suite: SelectableFixture[] = [
  { domain: 'merge', id: 'f001', difficulty: 'hard', tags: ['conflict'] },
  { domain: 'log', id: 'f002', difficulty: 'easy', tags: ['history'] },
  { domain: 'log', id: 'f001', difficulty: 'easy', tags: ['history', 'format'] },
  { domain: 'branch', id: 'f001', difficulty: 'medium', tags: [] },
];

const config = (extra: object = {}) =>
  campaignConfigSchema.parse({
    name: 'c',
    createdBy: 'u',
    models: ['m#high', 'a'],
    outputModes: ['text', 'json_schema'],
    trials: 2,
    ...extra,
  });

describe('selectFixtures', () => {
  const all = { domains: [], difficulties: [], tags: [], ids: [] };
  it('selects everything when no list is given, sorted by domain then id', () => {
    expect(selectFixtures(all, suite).fixtures.map((f) => `${f.domain}/${f.id}`)).toEqual([
      'branch/f001',
      'log/f001',
      'log/f002',
      'merge/f001',
    ]);
  });

  it('narrows with every non-empty list', () => {
    const picked = selectFixtures(
      { ...all, domains: ['log', 'merge'], tags: ['format', 'conflict'], difficulties: ['easy'] },
      suite,
    );
    expect(picked.fixtures.map((f) => `${f.domain}/${f.id}`)).toEqual(['log/f001']);
  });

  it('reports explicit ids that do not exist', () => {
    const picked = selectFixtures({ ...all, ids: ['log/f002', 'log/f999'] }, suite);
    expect(picked.fixtures).toHaveLength(1);
    expect(picked.unknownIds).toEqual(['log/f999']);
  });
});

describe('planAttempts', () => {
  it('plans target × fixture × trial in a stable, trial-major order', () => {
    const plan = planAttempts(config(), suite);
    expect(plan.targets.map((t) => `${t.modelId}/${t.outputMode}`)).toEqual([
      'a/json_schema',
      'a/text',
      'm#high/json_schema',
      'm#high/text',
    ]);
    expect(plan.targets[2]).toEqual({
      modelId: 'm#high',
      baseModel: 'm',
      reasoningEffort: 'high',
      outputMode: 'json_schema',
      agent: null,
    });
    expect(plan.attempts).toHaveLength(4 * 4 * 2);
    expect(plannedAttemptCount(config(), 4)).toBe(32);
    expect(plan.attempts.slice(0, 5).map((a) => [a.trial, a.domain, a.fixtureId, a.modelId, a.outputMode])).toEqual([
      [1, 'branch', 'f001', 'a', 'json_schema'],
      [1, 'branch', 'f001', 'a', 'text'],
      [1, 'branch', 'f001', 'm#high', 'json_schema'],
      [1, 'branch', 'f001', 'm#high', 'text'],
      [1, 'log', 'f001', 'a', 'json_schema'],
    ]);
    expect(plan.attempts.at(-1)).toMatchObject({
      trial: 2,
      domain: 'merge',
      fixtureId: 'f001',
      modelId: 'm#high',
      outputMode: 'text',
    });
    const identities = plan.attempts.map((a) => `${a.trial}|${a.targetIndex}|${a.fixtureIndex}`);
    expect(new Set(identities).size).toBe(identities.length);
  });

  it('does not depend on the order of models or of the suite', () => {
    const a = planAttempts(config(), suite);
    const b = planAttempts(
      config({ models: ['a', 'm:high'], outputModes: ['json_schema', 'text'] }),
      [...suite].reverse(),
    );
    expect(b.attempts).toEqual(a.attempts);
  });

  it('refuses unknown explicit ids and empty selections', () => {
    expect(() => planAttempts(config({ fixtures: { ids: ['log/nope'] } }), suite)).toThrow(CampaignPlanError);
    try {
      planAttempts(config({ fixtures: { domains: ['rebase'] } }), suite);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'no_fixtures_selected', field: 'fixtures' });
    }
  });
});

describe('estimateEta', () => {
  it('extrapolates the mean duration over the remaining attempts and the concurrency', () => {
    expect(estimateEta({ remainingAttempts: 10, completedDurationsMs: [1000, 3000], concurrency: 4 })).toEqual({
      remainingMs: 5000,
      basedOn: 2,
    });
  });

  it('knows nothing before the first attempt finishes and nothing is left when done', () => {
    expect(estimateEta({ remainingAttempts: 5, completedDurationsMs: [], concurrency: 2 }).remainingMs).toBeNull();
    expect(estimateEta({ remainingAttempts: 0, completedDurationsMs: [], concurrency: 2 }).remainingMs).toBe(0);
    expect(estimateEta({ remainingAttempts: 3, completedDurationsMs: [100], concurrency: 0 }).remainingMs).toBe(300);
  });
});

describe('estimateCampaignTime', () => {
  it("sums each target's attempts × its mean time over the attempts that run at once", () => {
    expect(
      estimateCampaignTime(
        [
          { attempts: 10, meanMs: 2000 },
          { attempts: 4, meanMs: 500 },
        ],
        4,
      ),
    ).toEqual({ ms: 5500, unknownTargets: 0, concurrency: 4 });
  });
  it('counts the targets with a history only, and says how many have none', () => {
    expect(
      estimateCampaignTime(
        [
          { attempts: 10, meanMs: 1000 },
          { attempts: 99, meanMs: null },
        ],
        2,
      ),
    ).toEqual({ ms: 5000, unknownTargets: 1, concurrency: 2 });
    expect(estimateCampaignTime([{ attempts: 10, meanMs: null }], 2).ms).toBeNull();
  });
  it('gives no time when no worker runs', () => {
    expect(estimateCampaignTime([{ attempts: 10, meanMs: 1000 }], 0)).toEqual({
      ms: null,
      unknownTargets: 0,
      concurrency: 0,
    });
  });
});
