import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { DashboardSeed, SeededAttempt } from '../packages/test-support/src/campaign-plans';
import * as ref from '../apps/web/test/support/dashboard-reference';
import { DASHBOARD_SEED_FILE, shot } from './support';

// The numbers a reader reads on the compare, quadrant, model, fixture, campaign list and attempt pages
// and in the leaderboard export, each against the same figure computed by plain loops over the attempts
// global-setup seeded (e2e/seed-dashboard.ts; apps/web/test/support/dashboard-reference.ts).

// Read in the worker: the runner lists the tests before global-setup has written the file.
let seed: DashboardSeed;
test.beforeAll(() => {
  seed = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '..', DASHBOARD_SEED_FILE), 'utf8'),
  ) as DashboardSeed;
});

const ALPHA = 'figures/alpha';
const BETA = 'figures/beta';
const SUITE = 'figures-suite';

const pct = (passes: number, valid: number) => (valid === 0 ? '—' : `${((passes / valid) * 100).toFixed(1)}%`);
const rate = (c: ref.Count) => `${pct(c.passes, c.valid)}${c.passes}/${c.valid}`;
const pValue = (p: number) => (p < 0.0001 ? p.toExponential(2) : p.toFixed(4));
/** As the dashboard prints dollars: two significant digits under a cent, else three decimals (under $10). */
const dollars = (v: number) => (v < 0.01 ? `$${v.toPrecision(2)}` : `$${v.toFixed(3)}`);

const rowWith = (table: Locator, text: string) => table.getByRole('row').filter({ hasText: text });
/** The line under a target's name: output mode, and effort when it has one. */
const details = (modelId: string, outputMode: string) =>
  [outputMode, modelId.includes('#') ? `effort ${modelId.split('#')[1]}` : null].filter(Boolean).join(' · ');
const cells = (row: Locator) => row.getByRole('cell');

async function openCompare(page: Page, a: string, b: string, query = '') {
  await page.goto(`/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}${query}`);
  await expect(page.getByTestId('mcnemar')).toBeVisible();
}

test('compare: the McNemar p value, the pair counts, each domain’s rates and each fixture’s tallies', async ({
  page,
}) => {
  for (const [query, f] of [
    ['', {}],
    ['&legacy=1&incomplete=1', { legacy: '1', incomplete: '1' }],
  ] as const) {
    const e = ref.compareReference(
      seed,
      f,
      { modelId: ALPHA, outputMode: 'text' },
      { modelId: BETA, outputMode: 'text' },
    );
    await openCompare(page, `${ALPHA}|text`, `${BETA}|text`, query);
    const box = page.getByTestId('mcnemar');
    const ran = ref
      .includedCampaigns(seed, f)
      .filter((c) => c.targets.some((t) => t.outputMode === 'text' && (t.modelId === ALPHA || t.modelId === BETA)));
    await expect(box).toContainText(
      `A = ${ALPHA} · text, B = ${BETA} · text, over ${ran.length} included campaign(s).`,
    );
    await expect(box).toContainText(`Exact McNemar test: p = ${pValue(e.pValue)} (`);
    await expect(box).toContainText(
      `Of ${e.pairs.length} fixtures both ran: A passed and B failed ` +
        `on ${e.b}; A failed and B passed on ${e.c}; both passed ${e.bothPassed}; ` +
        `both failed ${e.bothFailed}; ${e.ties} left out because a side ` +
        `split evenly. Only A ran ${e.onlyA}; only B ran ${e.onlyB}.`,
    );
    const domains = page.getByTestId('compare-domains');
    await expect(domains.getByRole('row')).toHaveCount(e.byDomain.length + 1);
    for (const d of e.byDomain) {
      const row = cells(rowWith(domains, d.domain));
      await expect(row.nth(1)).toHaveText(rate(d.a));
      await expect(row.nth(2)).toHaveText(rate(d.b));
      const diff = d.a.valid && d.b.valid ? (d.a.passes / d.a.valid - d.b.passes / d.b.valid) * 100 : null;
      await expect(row.nth(3)).toHaveText(diff === null ? '—' : `${diff > 0 ? '+' : ''}${diff.toFixed(1)} pts`);
    }
    const fixtures = page.getByTestId('compare-fixtures');
    await expect(fixtures.getByRole('row')).toHaveCount(e.pairs.length + 1);
    for (const p of e.pairs) {
      const row = cells(rowWith(fixtures, p.fixture));
      const t = e.tallies[p.fixture]!;
      await expect(row.nth(1)).toHaveText(`${p.a} (${t.a!.pass} passed / ${t.a!.fail} failed)`);
      await expect(row.nth(2)).toHaveText(`${p.b} (${t.b!.pass} passed / ${t.b!.fail} failed)`);
    }
    // The seed is built so that these differ, and the p value means something.
    expect(e.b).not.toBe(e.c);
  }
  await shot(page, 'compare-figures');
});

test('cost vs quality: each target’s cost per complete trial, its rounds and its mean success', async ({ page }) => {
  for (const [metric, label] of [
    ['cost', 'cost'],
    ['api', 'API time'],
  ] as const) {
    await page.goto(`/quadrant?suite=${SUITE}&incomplete=1&x=${metric}`);
    const list = page.getByTestId('quadrant-list');
    const rows = ref.targetRows(seed, { suite: SUITE, incomplete: '1' });
    const placed = rows.filter(
      (r) => r.valid > 0 && (metric === 'cost' ? r.perTrial.costUsd : r.perTrial.apiDurationMs).value !== null,
    );
    expect(placed.length, label).toBeGreaterThan(1);
    await expect(list.getByRole('row')).toHaveCount(placed.length + 1);
    for (const r of placed) {
      const m = metric === 'cost' ? r.perTrial.costUsd : r.perTrial.apiDurationMs;
      // The chart's list names the target by model id (effort included) and output mode.
      const row = cells(
        list
          .getByRole('row')
          .filter({ hasText: r.modelId })
          .filter({ has: page.getByText(r.outputMode, { exact: true }) }),
      );
      const x = metric === 'cost' ? `$${m.value!.toPrecision(3)}` : `${(m.value! / 1000).toFixed(1)} s`;
      await expect(row.nth(3)).toHaveText(
        `${x}${m.partial ? ' partial' : ''}over ${r.completeTrials} complete trial round(s)`,
      );
      await expect(row.nth(4)).toHaveText(`${pct(r.passes, r.valid)} (${r.passes}/${r.valid})`);
    }
  }
  await shot(page, 'quadrant-figures');
});

test('a model: rates and flaky counts by domain and difficulty, and every campaign over time', async ({ page }) => {
  // Over the suite of the newest current campaign that ran the model, the page's default.
  const f = { legacy: '1', incomplete: '1', suite: SUITE } as const;
  await page.goto(`/models?id=${encodeURIComponent(ALPHA)}&legacy=1&incomplete=1`);
  await expect(page.getByTestId('suite-note')).toContainText(`over suite version ${SUITE}`);
  for (const [dim, testId] of [
    ['domain', 'model-by-domain'],
    ['difficulty', 'model-by-difficulty'],
  ] as const) {
    const table = page.getByTestId(testId);
    const expected = ref.modelSlices(seed, ALPHA, f, dim);
    const modes = [...new Set(expected.map((c) => c.outputMode))].sort();
    const keys = [...new Set(expected.map((c) => c.key))];
    await expect(table.getByRole('row')).toHaveCount(keys.length + 1);
    for (const key of keys) {
      const row = cells(table.getByRole('row').filter({ has: page.getByRole('cell', { name: key, exact: true }) }));
      for (const [i, mode] of modes.entries()) {
        const c = expected.find((x) => x.key === key && x.outputMode === mode);
        await expect(row.nth(i + 1), `${key} ${mode}`).toHaveText(
          c ? `${rate(c)}${c.classified > 0 ? `${c.flaky}/${c.classified} flaky` : ''}` : '—',
        );
      }
    }
  }
  const overTime = page.getByTestId('model-over-time');
  const expected = ref.modelOverTime(seed, ALPHA);
  await expect(overTime.getByRole('row')).toHaveCount(expected.length + 1);
  for (const [i, r] of expected.entries()) {
    const row = cells(overTime.getByRole('row').nth(i + 1));
    await expect(row.nth(0)).toContainText(seed.campaigns.find((c) => c.id === r.campaignId)!.name);
    await expect(row.nth(1)).toHaveText(seed.campaigns.find((c) => c.id === r.campaignId)!.suiteVersion);
    await expect(row.nth(3)).toHaveText(r.outputMode);
    // The agent column: single answers have none.
    await expect(row.nth(4)).toHaveText('—');
    await expect(row.nth(5)).toHaveText(rate(r));
  }
  await shot(page, 'model-figures');
});

test('a fixture: each series’ classification, valid passes, mean success and pass_any@n', async ({ page }) => {
  const [domain, fixtureId] = ['figures-merge', 'f003'];
  const campaigns = ref.campaignsWithFixture(seed, domain, fixtureId);
  const series = ref.fixtureSeries(seed, domain, fixtureId, campaigns);
  await page.goto(`/fixtures/${domain}/${fixtureId}`);
  const table = page.getByTestId('fixture-attempts');
  await expect(table.getByRole('row')).toHaveCount(series.length + 1);
  expect(series.some((s) => s.class === 'flaky')).toBe(true);
  for (const s of series) {
    const c = seed.campaigns.find((x) => x.id === s.campaignId)!;
    const row = cells(
      table
        .getByRole('row')
        .filter({ hasText: c.name })
        .filter({ hasText: s.modelId })
        .filter({ has: page.getByText(details(s.modelId, s.outputMode), { exact: true }) }),
    );
    if (s.class === null) await expect(row.nth(2)).toHaveText('n/a (legacy, one trial)');
    else
      await expect(row.nth(2)).toHaveText(
        new RegExp(`(^|\\D)${s.passes}/${s.valid} valid passed${s.partial ? ` \\(of ${c.trials} planned\\)` : ''}$`),
      );
    await expect(row.nth(3)).toHaveText(`${pct(s.passes, s.valid)} ${s.passes}/${s.valid}`);
    await expect(row.nth(4)).toHaveText(
      s.passAny === null
        ? 'n/a (legacy)'
        : s.passAny.map((v, i) => `@${i + 1} ${v === null ? '—' : v ? 'yes' : 'no'}`).join(' · '),
    );
    await expect(row.nth(5).getByRole('link')).toHaveCount(s.trials.length);
  }
  await shot(page, 'fixture-figures');
});

test('the campaign list: which campaigns are complete, and the attempts each planned', async ({ page }) => {
  await page.goto('/campaigns');
  const table = page.getByTestId('campaign-list');
  for (const c of seed.campaigns) {
    const row = cells(table.getByRole('row').filter({ has: page.getByRole('link', { name: c.name, exact: true }) }));
    await expect(row.nth(2), c.name).toHaveText(ref.isComplete(seed, c) ? 'yes' : 'no');
    await expect(row.nth(4), c.name).toHaveText(String(c.trials));
    await expect(row.nth(5), c.name).toHaveText(ref.plannedAttempts(c).toLocaleString('en-US'));
  }
});

test('an attempt’s cost as recorded: dollars when known, a dash when not', async ({ page }) => {
  const answered = (a: SeededAttempt) => a.status === 'VALID_PASS' || a.status === 'VALID_FAIL';
  const known = seed.attempts.find((a) => answered(a) && a.costUsd !== null && a.costUsd >= 0.01 && !a.costEstimated)!;
  const small = seed.attempts.find((a) => answered(a) && a.costUsd !== null && a.costUsd < 0.01 && a.costEstimated)!;
  const unknown = seed.attempts.find((a) => answered(a) && a.costUsd === null)!;
  for (const [a, text] of [
    [known, dollars(known.costUsd!)],
    [small, `${dollars(small.costUsd!)} (estimated)`],
    [unknown, '— unknown'],
  ] as const) {
    await page.goto(`/attempts/${a.id}`);
    await expect(page.getByTestId('metric-cost')).toHaveText(text);
  }
});

test('the leaderboard export: per complete trial and total cost, rounds and rates of each target', async ({
  request,
}) => {
  const res = await request.get(`/api/export/leaderboard?suite=${SUITE}&incomplete=1&format=csv`);
  expect(res.ok()).toBe(true);
  const [header, ...lines] = (await res.text()).trimEnd().split('\n');
  const columns = header!.split(',');
  const expected = ref.targetRows(seed, { suite: SUITE, incomplete: '1' });
  expect(lines).toHaveLength(expected.length);
  for (const e of expected) {
    const line = lines.find(
      (l) =>
        l.split(',')[columns.indexOf('model')] === e.modelId &&
        l.split(',')[columns.indexOf('output_mode')] === e.outputMode,
    )!;
    expect(line, e.modelId).toBeDefined();
    const cell = (name: string) => line.split(',')[columns.indexOf(name)]!;
    expect([
      cell('passes'),
      cell('valid'),
      cell('complete_trials'),
      cell('cost_per_complete_trial_partial'),
      cell('total_cost_partial'),
    ]).toEqual([
      String(e.passes),
      String(e.valid),
      String(e.completeTrials),
      String(e.perTrial.costUsd.partial),
      String(e.totals.costUsd.partial),
    ]);
    for (const [name, m] of [
      ['cost_per_complete_trial_usd', e.perTrial.costUsd],
      ['total_cost_usd', e.totals.costUsd],
    ] as const) {
      if (m.value === null) expect(cell(name), `${e.modelId} ${name}`).toBe('');
      else expect(Number(cell(name)), `${e.modelId} ${name}`).toBeCloseTo(m.value, 9);
    }
  }
});
