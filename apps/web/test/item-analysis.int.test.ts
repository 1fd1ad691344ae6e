import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  seedDashboardCampaigns,
  type DashboardSeed,
  type SeededAttempt,
  type TestDatabase,
} from '@gitbench/test-support';
import {
  getFixtureItemAnalysis,
  getSuiteItemAnalysis,
  itemAnalysisCsv,
  listSuites,
} from '../lib/queries/item-analysis';
import { itemReference } from './support/item-analysis-reference';

// Item analysis as the suite page, the fixture page and the export read it, against the figures
// computed again with loops over the dashboard seed's attempts (retried, excluded, flaky, legacy, an
// incomplete campaign). One campaign is moved to a suite of its own so the scope is tested too.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const OTHER = 'fixtures/other';
const ORACLE_WAS = 'ia/beta';
// A target of the main campaigns becomes a person (gitbench human): shown beside, never counted.
const HUMAN_WAS = 'ia/gamma#high';
const HUMAN = 'human:gamma';

let t: TestDatabase;
let seed: DashboardSeed;
let other: string;
let main: string[];

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'itemq');
  seed = await seedDashboardCampaigns(t.db, 'ia');
  other = seed.campaigns.find((c) => c.name === 'ia incomplete')!.id;
  main = seed.campaigns.map((c) => c.id).filter((id) => id !== other);
  await t.db.$executeRaw`UPDATE "Campaign" SET "config" = ${JSON.stringify({ fixtures: { suiteDir: OTHER } })}::jsonb
      WHERE "id" = ${other}`;
  // One of its targets becomes the built-in oracle, a control left out unless asked for.
  await t.db
    .$executeRaw`UPDATE "Attempt" SET "modelId" = 'oracle' WHERE "campaignId" = ${other} AND "modelId" = ${ORACLE_WAS}`;
  const moved = await t.db.$executeRaw`UPDATE "Attempt" SET "modelId" = ${HUMAN}, "reasoningEffort" = NULL
      WHERE "campaignId" = ANY(${main}::text[]) AND "modelId" = ${HUMAN_WAS}`;
  expect(moved).toBeGreaterThan(0);
});
afterAll(async () => {
  await t?.drop();
});

const key = (i: { domain: string; fixtureId: string }) => `${i.domain}/${i.fixtureId}`;

describe('item analysis', () => {
  it('lists the suites campaigns ran, a configuration without one as the default', async () => {
    const suites = await listSuites(t.db);
    expect(suites.map((s) => [s.suite, s.campaigns])).toEqual([
      ['fixtures', main.length],
      [OTHER, 1],
    ]);
  });

  const isOracle = (a: SeededAttempt) => a.campaignId === other && a.modelId === ORACLE_WAS;
  const isHuman = (a: SeededAttempt) => main.includes(a.campaignId) && a.modelId === HUMAN_WAS;
  it.each([
    ['fixtures', false, () => main],
    [OTHER, false, () => [other]],
    [OTHER, true, () => [other]],
  ])(
    '%s (controls counted: %s): every fixture has the pass rate, discrimination and flags computed by hand',
    async (suite, includeControls, ids) => {
      const got = (await getSuiteItemAnalysis(t.db, suite, { includeControls }))!;
      const want = itemReference(seed, ids(), (a) => isHuman(a) || (!includeControls && isOracle(a)));
      expect(got.controls).toEqual({ included: includeControls, models: suite === OTHER ? ['oracle'] : [] });
      expect(got.items.map(key).sort()).toEqual(want.map(key).sort());
      expect(got.campaigns.map((c) => c.id).sort()).toEqual([...ids()].sort());
      for (const w of want) {
        const g = got.items.find((i) => key(i) === key(w))!;
        expect(
          {
            targets: g.targets,
            targetsPassing: g.targetsPassing,
            passes: g.passRate.numerator,
            scored: g.passRate.denominator,
            ...g.flags,
          },
          key(w),
        ).toEqual({
          targets: w.targets,
          targetsPassing: w.targetsPassing,
          passes: w.passes,
          scored: w.scored,
          saturated: w.saturated,
          unsolved: w.unsolved,
          flaky: w.flaky,
        });
        if (w.discrimination === null) expect(g.discrimination, key(w)).toBeNull();
        else expect(g.discrimination, key(w)).toBeCloseTo(w.discrimination, 9);
        expect(g.difficulty, key(w)).toBe(seed.attempts.find((a) => key(a) === key(w))!.difficulty);
      }
      // The seed is meant to reach the edges: these must not all be vacuous.
      if (suite === 'fixtures') {
        expect(want.filter((w) => w.flaky).length).toBeGreaterThan(0);
        expect(want.filter((w) => w.discrimination !== null).length).toBeGreaterThan(3);
        expect(
          want.some(
            (w) => w.scored < seed.attempts.filter((a) => key(a) === key(w) && main.includes(a.campaignId)).length,
          ),
        ).toBe(true);
      }
    },
  );

  it('shows people beside the targets: their passes per fixture, never counted as a target', async () => {
    const a = (await getSuiteItemAnalysis(t.db, 'fixtures'))!;
    expect(a.people).toEqual([HUMAN]);
    const theirs = seed.attempts.filter((x) => isHuman(x) && (x.status === 'VALID_PASS' || x.status === 'VALID_FAIL'));
    expect(theirs.length).toBeGreaterThan(0);
    for (const i of a.items) {
      const mine = theirs.filter((x) => key(x) === key(i));
      const passes = mine.filter((x) => x.status === 'VALID_PASS').length;
      expect(i.people, key(i)).toEqual({
        people: mine.length > 0 ? 1 : 0,
        passing: passes > 0 ? 1 : 0,
        passes,
        scored: mine.length,
      });
    }
    expect(a.items.some((i) => i.people.people === 1)).toBe(true);
    // The targets counted are the models, without the person.
    expect(a.targets).toBe(
      new Set(
        seed.attempts
          .filter((x) => main.includes(x.campaignId) && !isHuman(x))
          .map((x) => `${x.modelId}|${x.effort}|${x.outputMode}`),
      ).size,
    );
  });

  it('sorts by signal: defined discrimination first, highest first', async () => {
    const { items } = (await getSuiteItemAnalysis(t.db, 'fixtures'))!;
    const defined = items.filter((i) => i.discrimination !== null).map((i) => i.discrimination!);
    expect(items.slice(0, defined.length).every((i) => i.discrimination !== null)).toBe(true);
    expect(defined).toEqual([...defined].sort((a, b) => b - a));
  });

  it('gives the fixture page the same figure as its suite', async () => {
    const suite = (await getSuiteItemAnalysis(t.db, 'fixtures'))!;
    const first = suite.items[0]!;
    const onPage = await getFixtureItemAnalysis(t.db, first.domain, first.fixtureId);
    expect(onPage.rows.find((p) => p.suite === 'fixtures')?.item).toEqual(first);
    expect(onPage.controlsOnly).toEqual([]);
    expect(await getFixtureItemAnalysis(t.db, 'no-such', 'f')).toEqual({ rows: [], controlsOnly: [] });
    expect(await getSuiteItemAnalysis(t.db, 'no-such-suite')).toBeNull();
  });

  it('says so when only built-in controls scored a fixture, rather than that nothing did', async () => {
    // One fixture of the other suite's campaign, every attempt of it turned into the oracle's, then restored.
    const f = seed.attempts.find((a) => a.campaignId === other)!;
    const rows = await t.db.$queryRaw<{ id: string; modelId: string }[]>`
      SELECT "id", "modelId" FROM "Attempt"
       WHERE "campaignId" = ${other} AND "domain" = ${f.domain} AND "fixtureId" = ${f.fixtureId}`;
    expect(rows.length).toBeGreaterThan(0);
    await t.db
      .$executeRaw`UPDATE "Attempt" SET "modelId" = 'oracle' WHERE "id" = ANY(${rows.map((r) => r.id)}::text[])`;
    try {
      const left = await getFixtureItemAnalysis(t.db, f.domain, f.fixtureId);
      expect(left.rows.find((r) => r.suite === OTHER)).toBeUndefined();
      expect(left.controlsOnly).toEqual([{ suite: OTHER, controls: { included: false, models: ['oracle'] } }]);
      const counted = await getFixtureItemAnalysis(t.db, f.domain, f.fixtureId, { includeControls: true });
      expect(counted.rows.find((r) => r.suite === OTHER)?.item.targets).toBe(1);
      expect(counted.controlsOnly).toEqual([]);
    } finally {
      for (const r of rows) await t.db.$executeRaw`UPDATE "Attempt" SET "modelId" = ${r.modelId} WHERE "id" = ${r.id}`;
    }
  });

  it('exports one CSV row per fixture, an undefined discrimination empty', async () => {
    const a = (await getSuiteItemAnalysis(t.db, 'fixtures'))!;
    const lines = itemAnalysisCsv(a).trim().split('\n');
    expect(lines[0]).toBe(
      'suite,domain,fixture,difficulty,targets,targets_passing,passes,scored,' +
        'pass_rate,ci_low,ci_high,discrimination,discrimination_targets,saturated,' +
        'unsolved,flaky,people,people_passing,people_passes,people_scored',
    );
    expect(lines.length).toBe(a.items.length + 1);
    const undefinedRow = a.items.findIndex((i) => i.discrimination === null);
    if (undefinedRow >= 0) expect(lines[undefinedRow + 1]!.split(',')[11]).toBe('');
  });
});
