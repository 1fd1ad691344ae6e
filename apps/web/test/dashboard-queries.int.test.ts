import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignAaExport, campaignAttemptsExport, collectExport } from '@gitbench/db';
import {
  createTestDatabase,
  seedDashboardCampaigns,
  type DashboardSeed,
  type TestDatabase,
} from '@gitbench/test-support';
import { includedCampaigns, listCampaigns } from '../lib/queries/campaigns';
import { compareModels } from '../lib/queries/compare';
import { leaderboardCsv } from '../lib/queries/export';
import { getFixtureReport } from '../lib/queries/fixture';
import type { DashboardFilters } from '../lib/queries/filters';
import { getLeaderboard } from '../lib/queries/leaderboard';
import { getModelReport } from '../lib/queries/model';
import { getQuadrant, type QuadrantMetric } from '../lib/queries/quadrant';
import * as ref from './support/dashboard-reference';

// The dashboard's query modules beyond the leaderboard (campaign list, compare, quadrant, model,
// fixture, exports) against the same figures computed by plain loops over the seeded attempts
// (support/dashboard-reference.ts). The seed reaches the edges: excluded and never-written attempts,
// retried attempts, flaky fixtures, unknown costs, several campaigns and a legacy import.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';

let t: TestDatabase;
let seed: DashboardSeed;
const ALPHA = 'fig/alpha';
const BETA = 'fig/beta';
const GAMMA = 'fig/gamma#high';

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'dashq');
  seed = await seedDashboardCampaigns(t.db, 'fig');
});
afterAll(async () => {
  await t?.drop();
});

const FILTERS: [string, DashboardFilters][] = [
  ['the defaults (complete, not legacy)', {}],
  ['incomplete included', { incomplete: '1' }],
  ['legacy included', { legacy: '1' }],
  ['everything', { legacy: '1', incomplete: '1' }],
  ['one domain', { legacy: '1', incomplete: '1', domain: 'fig-merge' }],
  ['one difficulty', { incomplete: '1', difficulty: 'medium' }],
];

const closeOrNull = (actual: number | null, expected: number | null, what: string) => {
  if (expected === null) expect(actual, what).toBeNull();
  else expect(actual, what).toBeCloseTo(expected, 9);
};

describe('the seed reaches the edges it is meant to', () => {
  it('has retried, excluded, unpriced, flaky and legacy attempts', () => {
    const statuses = new Set(seed.attempts.map((a) => a.status));
    for (const s of ['VALID_PASS', 'VALID_FAIL', 'INFRA_FAILURE', 'UNSCORED', 'CANCELLED', 'SAFETY_BLOCKED', 'QUEUED'])
      expect(statuses, s).toContain(s);
    expect(seed.attempts.filter((a) => a.tries.length > 1 && ref.count([a]).valid === 1).length).toBeGreaterThan(10);
    expect(seed.attempts.filter((a) => a.costUsd === null && a.status === 'VALID_PASS').length).toBeGreaterThan(5);
    const incomplete = seed.campaigns.find((c) => c.name === 'fig incomplete')!;
    expect(seed.attempts.filter((a) => a.campaignId === incomplete.id).length).toBeLessThan(
      ref.plannedAttempts(incomplete),
    );
    const flaky = ref.targetRows(seed, {}).reduce((n, r) => n + r.classes.flaky, 0);
    expect(flaky).toBeGreaterThan(5);
  });
});

describe('the campaign list', () => {
  it('says which campaigns are complete and how many attempts each planned', async () => {
    const listed = await listCampaigns(t.db);
    expect(listed.map((c) => c.id)).toEqual([...seed.campaigns].reverse().map((c) => c.id));
    for (const c of seed.campaigns) {
      const row = listed.find((x) => x.id === c.id)!;
      expect({ complete: row.complete, planned: row.plannedAttempts, stats: row.statsAttempts }, c.name).toEqual({
        complete: ref.isComplete(seed, c),
        planned: ref.plannedAttempts(c),
        stats: seed.attempts.filter((a) => a.campaignId === c.id).length,
      });
    }
    // One kept out by missing and excluded attempts, one by its pending review, one by an attempt never
    // written, and the legacy import has excluded attempts.
    expect(seed.campaigns.map((c) => ref.isComplete(seed, c))).toEqual([true, true, false, false, false, false]);
  });

  it.each(FILTERS)('%s: includes the same campaigns', async (_, f) => {
    const included = includedCampaigns(await listCampaigns(t.db), f);
    expect(included.map((c) => c.id).sort()).toEqual(
      ref
        .includedCampaigns(seed, f)
        .map((c) => c.id)
        .sort(),
    );
  });
});

function expectMeasure(actual: { value: number | null; partial: boolean }, expected: ref.Measure, what: string) {
  closeOrNull(actual.value, expected.value, what);
  expect(actual.partial, `${what} partial`).toBe(expected.partial);
}

describe('the leaderboard export (CSV)', () => {
  it.each(FILTERS)('%s: every column of every row', async (_, f) => {
    const csv = leaderboardCsv((await getLeaderboard(t.db, f)).rows);
    const [header, ...lines] = csv.trimEnd().split('\n');
    const columns = header!.split(',');
    const expected = ref.targetRows(seed, f);
    expect(lines).toHaveLength(expected.length);
    for (const e of expected) {
      const what = `${e.modelId} ${e.outputMode}`;
      const line = lines.find((l) => {
        const x = l.split(',');
        return (
          x[columns.indexOf('model')] === e.modelId &&
          x[columns.indexOf('output_mode')] === e.outputMode &&
          x[columns.indexOf('suite_version')] === (e.suiteVersion ?? '')
        );
      });
      expect(line, what).toBeDefined();
      const cells = line!.split(',');
      const cell = (name: string) => cells[columns.indexOf(name)]!;
      const number = (name: string) => (cell(name) === '' ? null : Number(cell(name)));
      expect(
        [
          'passes',
          'valid',
          'attempts',
          'excluded_infra',
          'excluded_unscored',
          'excluded_other',
          'trial_rounds',
          'complete_trials',
        ].map(number),
        what,
      ).toEqual([e.passes, e.valid, e.attempts, e.infra, e.unscored, e.otherExcluded, e.trialRounds, e.completeTrials]);
      closeOrNull(number('mean_success'), e.valid === 0 ? null : e.passes / e.valid, `${what} mean_success`);
      const current = e.classes.stable_pass + e.classes.stable_fail + e.classes.flaky + e.classes.unknown;
      if (current > 0) {
        expect(['stable_pass', 'flaky', 'stable_fail', 'unknown'].map(number), what).toEqual([
          e.classes.stable_pass,
          e.classes.flaky,
          e.classes.stable_fail,
          e.classes.unknown,
        ]);
        expect(['pass_any_n', 'pass_any_num', 'pass_any_den'].map(number), what).toEqual([
          e.passAnyLast!.n,
          e.passAnyLast!.passes,
          e.passAnyLast!.of,
        ]);
      } else {
        // Only legacy series: no stability, no pass_any.
        expect(['stable_pass', 'flaky', 'pass_any_n'].map(cell), what).toEqual(['', '', '']);
      }
      closeOrNull(number('cost_per_complete_trial_usd'), e.perTrial.costUsd.value, `${what} cost per complete trial`);
      expect(cell('cost_per_complete_trial_partial'), what).toBe(String(e.perTrial.costUsd.partial));
      closeOrNull(number('tokens_per_complete_trial'), e.perTrial.tokens.value, `${what} tokens per complete trial`);
      closeOrNull(
        number('api_ms_per_complete_trial'),
        e.perTrial.apiDurationMs.value,
        `${what} API time per complete trial`,
      );
      closeOrNull(number('total_cost_usd'), e.totals.costUsd.value, `${what} total cost`);
      expect(cell('total_cost_partial'), what).toBe(String(e.totals.costUsd.partial));
      closeOrNull(number('total_tokens'), e.totals.tokens.value, `${what} total tokens`);
      closeOrNull(number('total_api_ms'), e.totals.apiDurationMs.value, `${what} total API time`);
    }
  });
});

describe('cost vs quality', () => {
  it.each<[string, DashboardFilters, QuadrantMetric]>([
    ['cost, defaults', {}, 'cost'],
    ['tokens, everything', { legacy: '1', incomplete: '1' }, 'tokens'],
    ['API time, incomplete, one domain', { incomplete: '1', domain: 'fig-rebase' }, 'api'],
    ['cost, legacy only campaigns too', { legacy: '1' }, 'cost'],
    ['cost, every suite pooled when asked', { legacy: '1', suite: 'all' }, 'cost'],
  ])('%s: each point where its figures put it, split at the medians', async (_, f, metric) => {
    const q = await getQuadrant(t.db, f, metric);
    // One point per target within one suite version: the newest included unless one is chosen.
    const suite = ref.suiteOfView(seed, f);
    expect(q.suite).toBe(suite === 'all' ? null : suite);
    const rows = ref.targetRows(seed, { ...f, suite });
    const pick = (r: ref.TargetReference) =>
      metric === 'cost' ? r.perTrial.costUsd : metric === 'tokens' ? r.perTrial.tokens : r.perTrial.apiDurationMs;
    const points = rows.map((r) => {
      const m = pick(r);
      return {
        r,
        x: m.value === null ? null : metric === 'api' ? m.value / 1000 : m.value,
        y: r.valid === 0 ? null : r.passes / r.valid,
        partial: m.partial,
      };
    });
    const placed = points.filter((p) => p.x !== null && p.y !== null);
    expect(q.placed).toHaveLength(placed.length);
    expect(q.unplaced).toHaveLength(points.length - placed.length);
    expect(placed.length).toBeGreaterThan(0);
    const mx = ref.median(placed.map((p) => p.x!));
    const my = ref.median(placed.map((p) => p.y!));
    closeOrNull(q.medianX, mx, 'median x');
    closeOrNull(q.medianY, my, 'median y');
    for (const p of placed) {
      const what = `${p.r.modelId} ${p.r.outputMode}`;
      const got = q.placed.find((x) => x.modelId === p.r.modelId && x.outputMode === p.r.outputMode)!;
      expect(got, what).toBeDefined();
      closeOrNull(got.x, p.x, `${what} x`);
      expect([got.passes, got.valid, got.partial, got.completeTrials], what).toEqual([
        p.r.passes,
        p.r.valid,
        p.partial,
        p.r.completeTrials,
      ]);
      const quadrant = p.y! >= my ? (p.x! <= mx ? 'best_value' : 'premium') : p.x! <= mx ? 'economy' : 'poor_value';
      expect(got.quadrant, what).toBe(quadrant);
    }
    for (const m of ['cost', 'tokens', 'api'] as const) {
      const n = rows.filter(
        (r) =>
          r.valid > 0 &&
          (m === 'cost' ? r.perTrial.costUsd : m === 'tokens' ? r.perTrial.tokens : r.perTrial.apiDurationMs).value !==
            null,
      ).length;
      expect(q.placeable[m], `placeable by ${m}`).toBe(n);
    }
  });
});

describe('compare two targets', () => {
  it.each<[string, DashboardFilters, string, string, string, string]>([
    ['alpha text vs beta text, defaults', {}, ALPHA, 'text', BETA, 'text'],
    ['alpha text vs beta text, everything', { legacy: '1', incomplete: '1' }, ALPHA, 'text', BETA, 'text'],
    ['beta text vs alpha json_schema, incomplete', { incomplete: '1' }, BETA, 'text', ALPHA, 'json_schema'],
    ['one model, text vs json_schema', {}, ALPHA, 'text', ALPHA, 'json_schema'],
    ['alpha text vs gamma, one domain', { legacy: '1', domain: 'fig-rebase' }, ALPHA, 'text', GAMMA, 'text'],
    [
      'alpha text vs beta text, one difficulty',
      { incomplete: '1', legacy: '1', difficulty: 'hard' },
      ALPHA,
      'text',
      BETA,
      'text',
    ],
  ])('%s: tallies, pairs, McNemar and per-domain rates', async (_, f, am, ao, bm, bo) => {
    const a = { modelId: am, outputMode: ao as 'text' };
    const b = { modelId: bm, outputMode: bo as 'text' };
    const report = await compareModels(t.db, a, b, f);
    const e = ref.compareReference(seed, f, a, b);
    // "over N included campaign(s)": the included ones that ran either side.
    const ran = (c: (typeof seed.campaigns)[number]) =>
      c.targets.some((x) => [a, b].some((s) => x.modelId === s.modelId && x.outputMode === s.outputMode));
    expect(report.included.map((c) => c.id).sort()).toEqual(
      ref
        .includedCampaigns(seed, f)
        .filter(ran)
        .map((c) => c.id)
        .sort(),
    );
    expect(report.tallies).toEqual(e.tallies);
    const c = report.comparison;
    expect({
      b: c.b,
      c: c.c,
      bothPassed: c.bothPassed,
      bothFailed: c.bothFailed,
      ties: c.tiesLeftOut,
      onlyA: c.onlyFirst,
      onlyB: c.onlySecond,
    }).toEqual({
      b: e.b,
      c: e.c,
      bothPassed: e.bothPassed,
      bothFailed: e.bothFailed,
      ties: e.ties,
      onlyA: e.onlyA,
      onlyB: e.onlyB,
    });
    expect(
      c.pairs
        .map((p) => ({ fixture: `${p.domain}/${p.fixtureId}`, a: p.first, b: p.second }))
        .sort((x, y) => x.fixture.localeCompare(y.fixture)),
    ).toEqual([...e.pairs].sort((x, y) => x.fixture.localeCompare(y.fixture)));
    expect(c.pValue).toBeCloseTo(e.pValue, 12);
    expect(
      report.byDomain.map((d) => ({
        domain: d.domain,
        a: [d.a.numerator, d.a.denominator],
        b: [d.b.numerator, d.b.denominator],
      })),
    ).toEqual(e.byDomain.map((d) => ({ domain: d.domain, a: [d.a.passes, d.a.valid], b: [d.b.passes, d.b.valid] })));
    for (const d of report.byDomain) {
      const x = e.byDomain.find((y) => y.domain === d.domain)!;
      closeOrNull(
        d.diff,
        x.a.valid && x.b.valid ? x.a.passes / x.a.valid - x.b.passes / x.b.valid : null,
        `${d.domain} A − B`,
      );
    }
  });

  it('has discordant pairs both ways and a tie in the seed, so the test above means something', () => {
    const e = ref.compareReference(
      seed,
      { legacy: '1', incomplete: '1' },
      { modelId: ALPHA, outputMode: 'text' },
      { modelId: BETA, outputMode: 'text' },
    );
    expect(e.b).toBeGreaterThan(0);
    expect(e.c).toBeGreaterThan(0);
    expect(e.ties).toBeGreaterThan(0);
    expect(e.pValue).toBeLessThan(1);
  });
});

describe('a model', () => {
  it.each<[string, string, DashboardFilters]>([
    ['alpha, defaults', ALPHA, {}],
    ['alpha, everything', ALPHA, { legacy: '1', incomplete: '1' }],
    ['alpha, json_schema only', ALPHA, { incomplete: '1', mode: 'json_schema' }],
    ['beta, legacy', BETA, { legacy: '1' }],
    ['gamma, defaults', GAMMA, {}],
    ['alpha, one domain', ALPHA, { legacy: '1', incomplete: '1', domain: 'fig-merge' }],
    ['alpha, one difficulty', ALPHA, { incomplete: '1', difficulty: 'medium' }],
    ['beta, the legacy import suite', BETA, { legacy: '1', suite: 'fig-upstream' }],
    ['beta, every suite pooled when asked', BETA, { legacy: '1', suite: 'all' }],
  ])('%s: by domain, by difficulty, over time and its targets', async (_, modelId, f) => {
    const report = (await getModelReport(t.db, modelId, f))!;
    const withModel = seed.campaigns.filter((c) => c.targets.some((x) => x.modelId === modelId));
    expect(report.campaignsWithModel.map((c) => c.id).sort()).toEqual(withModel.map((c) => c.id).sort());
    // One suite version: the newest this model ran in an included campaign unless one is chosen.
    const suite = ref.suiteOfView(seed, f, (c) => withModel.includes(c));
    expect(report.suite).toBe(suite === 'all' ? null : suite);
    const inSuite = { ...f, suite };
    const included = ref.includedCampaigns(seed, inSuite).filter((c) => withModel.includes(c));
    expect(report.included.map((c) => c.id).sort()).toEqual(included.map((c) => c.id).sort());

    for (const dim of ['domain', 'difficulty'] as const) {
      const got = (dim === 'domain' ? report.byDomain : report.byDifficulty).map((c) => ({
        outputMode: c.outputMode,
        key: c.key,
        passes: c.rate.numerator,
        valid: c.rate.denominator,
        flaky: c.flaky,
        classified: c.classified,
      }));
      const byKey = (x: { outputMode: string; key: string }, y: { outputMode: string; key: string }) =>
        `${x.key}|${x.outputMode}`.localeCompare(`${y.key}|${y.outputMode}`);
      expect(got.sort(byKey), dim).toEqual(ref.modelSlices(seed, modelId, inSuite, dim).sort(byKey));
    }

    const overTime = ref.modelOverTime(seed, modelId);
    expect(
      report.overTime.map((r) => ({
        campaignId: r.campaignId,
        outputMode: r.outputMode,
        passes: r.rate.numerator,
        valid: r.rate.denominator,
      })),
    ).toEqual(overTime);

    const targets = ref.targetRows(seed, inSuite).filter((r) => r.modelId === modelId);
    expect(
      report.targets
        .map((r) => [r.outputMode, r.meanSuccess.numerator, r.meanSuccess.denominator, r.completeTrials])
        .sort(),
    ).toEqual(targets.map((r) => [r.outputMode, r.passes, r.valid, r.completeTrials]).sort());
    for (const r of report.targets) {
      const e = targets.find((x) => x.outputMode === r.outputMode)!;
      expectMeasure(r.perTrial.costUsd, e.perTrial.costUsd, `${modelId} ${r.outputMode} cost per complete trial`);
    }
  });

  it('lists every fixture of a chosen campaign with its classification and valid passes', async () => {
    for (const c of seed.campaigns.filter((x) => x.targets.some((y) => y.modelId === ALPHA))) {
      const report = (await getModelReport(t.db, ALPHA, {}, c.id))!;
      expect(report.fixtures.campaign!.id).toBe(c.id);
      const expected = ref.modelFixtureRows(seed, ALPHA, c);
      const got = report.fixtures.rows.map((r) => ({
        fixture: `${r.summary.series.domain}/${r.summary.series.fixtureId}`,
        outputMode: r.outputMode,
        passes: r.summary.meanSuccess.numerator,
        valid: r.summary.meanSuccess.denominator,
        class: r.summary.classification.applicable ? r.summary.classification.class : null,
        trials: r.attempts.map((a) => ({ trial: a.trial, status: a.status })),
      }));
      const order = (x: { fixture: string; outputMode: string }, y: { fixture: string; outputMode: string }) =>
        `${x.fixture}|${x.outputMode}`.localeCompare(`${y.fixture}|${y.outputMode}`);
      expect(got.sort(order), c.name).toEqual(expected.sort(order));
    }
  });
});

describe('a fixture', () => {
  it.each<[string, string, string]>([
    ['merge f003: in four campaigns, legacy included', 'fig-merge', 'f003'],
    ['rebase f001: with the pending review', 'fig-rebase', 'f001'],
    ['log f002: two trials and legacy', 'fig-log', 'f002'],
  ])('%s: every series with its classification, rate and pass_any@n', async (_, domain, fixtureId) => {
    const campaigns = ref.campaignsWithFixture(seed, domain, fixtureId);
    expect(campaigns.length).toBeGreaterThan(1);
    for (const opts of [{}, { campaignLimit: 1 }, { campaignId: campaigns.at(-1)!.id }]) {
      const report = (await getFixtureReport(t.db, domain, fixtureId, opts))!;
      expect(report.campaigns.map((c) => c.id)).toEqual(campaigns.map((c) => c.id));
      const shown =
        'campaignId' in opts
          ? campaigns.filter((c) => c.id === opts.campaignId)
          : campaigns.slice(0, opts.campaignLimit ?? 10);
      expect(report.shownCampaigns).toBe(shown.length);
      expect(report.snapshot.campaignId).toBe(shown[0]!.id);
      const got = report.series.map((s) => ({
        campaignId: s.campaignId,
        modelId: s.modelId,
        outputMode: s.outputMode,
        passes: s.summary.meanSuccess.numerator,
        valid: s.summary.meanSuccess.denominator,
        class: s.summary.classification.applicable ? s.summary.classification.class : null,
        partial: s.summary.classification.applicable
          ? s.summary.classification.evidence === 'partial'
          : s.summary.meanSuccess.denominator < 1,
        passAny: Array.isArray(s.summary.passAnyAtN) ? s.summary.passAnyAtN : null,
        trials: s.attempts.map((a) => ({ trial: a.trial, status: a.status })),
      }));
      const key = (x: { campaignId: string; modelId: string; outputMode: string }) =>
        `${x.campaignId}|${x.modelId}|${x.outputMode}`;
      expect(got.sort((x, y) => key(x).localeCompare(key(y)))).toEqual(
        ref.fixtureSeries(seed, domain, fixtureId, shown).sort((x, y) => key(x).localeCompare(key(y))),
      );
      // Newest campaign first.
      expect([...new Set(report.series.map((s) => s.campaignId))]).toEqual(
        shown.map((c) => c.id).filter((id) => got.some((g) => g.campaignId === id)),
      );
    }
  });
});

describe('campaign exports', () => {
  it(
    'attempts (CSV and JSON): one row per attempt with its ' + 'settling status, try count and unknown cost left empty',
    async () => {
      for (const c of seed.campaigns) {
        const csv = await collectExport((await campaignAttemptsExport(t.db, c.id, 'csv'))!);
        const [header, ...lines] = csv.trimEnd().split('\n');
        const columns = header!.split(',');
        const mine = seed.attempts.filter((a) => a.campaignId === c.id);
        expect(lines).toHaveLength(mine.length);
        for (const a of mine) {
          const cells = lines.find((l) => l.startsWith(`${a.id},`))!.split(',');
          const cell = (name: string) => cells[columns.indexOf(name)];
          expect([cell('status'), cell('tryCount'), cell('costUsd'), cell('totalTokens'), cell('trial')], a.id).toEqual(
            [
              a.status,
              String(a.tries.length),
              a.costUsd === null ? '' : String(a.costUsd),
              a.tokens === null ? '' : String(a.tokens),
              String(a.trial),
            ],
          );
        }
        const json = JSON.parse(await collectExport((await campaignAttemptsExport(t.db, c.id, 'json'))!)) as {
          attempts: { id: string; costUsd: number | null }[];
        };
        expect(json.attempts.map((a) => [a.id, a.costUsd]).sort()).toEqual(mine.map((a) => [a.id, a.costUsd]).sort());
      }
    },
  );

  it(
    'artificialanalysis: per target and domain, passes of ' + 'valid attempts, and the excluded counted apart',
    async () => {
      for (const c of seed.campaigns) {
        const csv = (await campaignAaExport(t.db, c.id))!;
        const [header, ...lines] = csv.trimEnd().split('\n');
        const columns = header!.split(',');
        const mine = seed.attempts.filter((a) => a.campaignId === c.id);
        const groups = new Map<string, typeof mine>();
        for (const a of mine)
          groups.set(`${a.modelId}|${a.outputMode}|${a.domain}`, [
            ...(groups.get(`${a.modelId}|${a.outputMode}|${a.domain}`) ?? []),
            a,
          ]);
        expect(lines).toHaveLength(groups.size);
        for (const [key, list] of groups) {
          const [modelId, outputMode, domain] = key.split('|');
          const line = lines.find((l) => {
            const x = l.split(',');
            return (
              x[columns.indexOf('model')] === modelId!.split('#')[0] &&
              x[columns.indexOf('output_mode')] === outputMode &&
              x[columns.indexOf('benchmark')] === domain
            );
          });
          expect(line, key).toBeDefined();
          const cells = line!.split(',');
          const { passes, valid } = ref.count(list);
          expect(
            ['passed', 'total', 'excluded', 'score'].map((n) => cells[columns.indexOf(n)]),
            key,
          ).toEqual([
            String(passes),
            String(valid),
            String(list.length - valid),
            valid === 0 ? '' : String(Math.round((passes / valid) * 10000) / 10000),
          ]);
        }
      }
    },
  );
});
