import { expect, test } from '@playwright/test';
import * as ref from '../apps/web/test/support/dashboard-reference';
import { figuresOf } from './database-figures';
import { LEGACY_MODEL, shot } from './support';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// The upstream result files are imported as legacy campaigns by global-setup.

test('legacy campaigns appear on the leaderboard only with the legacy toggle, without stability claims', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
  await expect(page.getByTestId('inclusion-note')).toContainText('legacy campaign(s) left out');
  await expect(page.locator('[data-testid=leaderboard]', { hasText: LEGACY_MODEL })).toHaveCount(0);
  await shot(page, 'leaderboard-default');

  await page.getByLabel('Include legacy campaigns').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/legacy=1/);
  const row = page.getByTestId('leaderboard').getByRole('row').filter({ hasText: LEGACY_MODEL }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('legacy');
  await expect(row).toContainText('n/a (legacy)');
  // Every rate shows numerator and denominator: each mode's, counted again from the attempts in the database.
  const figures = await figuresOf([LEGACY_MODEL]);
  const rows = page.getByTestId('leaderboard').getByRole('row').filter({ hasText: LEGACY_MODEL });
  for (const mode of ['text', 'json_schema']) {
    const { passes, valid } = ref.count(
      figures.attempts.filter((a) => a.modelId === LEGACY_MODEL && a.outputMode === mode),
    );
    expect(valid, mode).toBeGreaterThan(0);
    const shown = new RegExp(`${escape(((passes / valid) * 100).toFixed(1))}%\\s*${passes}/${valid}(?!\\d)`);
    await expect(rows.filter({ hasText: shown }), `${mode}: ${passes}/${valid}`).toHaveCount(1);
  }
  await shot(page, 'leaderboard-legacy');
});

test('drill down leaderboard → model → fixture → attempt and find the evidence', async ({ page }) => {
  await page.goto('/?legacy=1');
  await page.getByTestId('leaderboard').getByRole('link', { name: LEGACY_MODEL }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: LEGACY_MODEL })).toBeVisible();
  await expect(page.getByTestId('model-by-domain')).toBeVisible();
  // Across campaigns over time: both upstream files (text, then json_schema) in order, with a chart.
  const overTime = page.getByTestId('model-over-time');
  await expect(overTime.getByRole('row').filter({ hasText: 'Legacy import' })).toHaveCount(2);
  await expect(overTime.getByRole('row').nth(1)).toContainText('text');
  await expect(overTime.getByRole('row').nth(2)).toContainText('json_schema');
  await expect(page.getByTestId('over-time-chart')).toBeVisible();
  await expect(page.getByTestId('model-by-difficulty')).toBeVisible();
  await shot(page, 'model');

  const fixtureLink = page.getByTestId('model-fixtures').getByRole('link').first();
  const fixtureName = (await fixtureLink.textContent())!.trim();
  await fixtureLink.click();
  await expect(page.getByRole('heading', { level: 1, name: fixtureName })).toBeVisible();
  await expect(page.getByTestId('fixture-attempts')).toContainText('n/a (legacy, one trial)');
  await expect(page.getByRole('heading', { name: 'Prompt' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Expected' })).toBeVisible();
  await shot(page, 'fixture');

  await page
    .getByTestId('fixture-attempts')
    .getByRole('link', { name: /Trial 1/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: /Attempt: trial 1 of 1/ })).toBeVisible();
  for (const section of [
    'Rendered prompt',
    'Model output vs expected',
    'Score and scorer evidence',
    'Sandbox commands and output',
    'Transcript',
    'Hashes, route and sandbox',
  ]) {
    await expect(page.getByRole('heading', { name: section })).toBeVisible();
  }
  await expect(page.getByTestId('output-diff')).toBeVisible();
  await expect(page.getByTestId('transcript')).toContainText('user');
  await expect(page.getByTestId('try-history')).toContainText('upstream');
  await expect(page.getByText('OpenAIAdapter').first()).toBeVisible();
  // The cost recorded for this attempt, in dollars; an unknown one would be "— unknown", never $0.
  const attemptId = new URL(page.url()).pathname.split('/').at(-1);
  const attempt = (await figuresOf([LEGACY_MODEL])).attempts.find((a) => a.id === attemptId)!;
  const cost = attempt.costUsd;
  await expect(page.getByTestId('metric-cost')).toHaveText(
    cost === null
      ? '— unknown'
      : (cost < 0.01 ? `$${cost.toPrecision(2)}` : `$${cost.toFixed(3)}`) +
          (attempt.costEstimated ? ' (estimated)' : ''),
  );
  await shot(page, 'attempt');

  await page
    .getByRole('link', { name: /Legacy import/ })
    .first()
    .click();
  await expect(page.getByTestId('completeness')).toBeVisible();
  await expect(page.getByText('A legacy campaign imported from an upstream result file')).toBeVisible();
  await expect(page.getByTestId('heatmap')).toBeVisible();
  await expect(page.getByTestId('fixture-table')).toBeVisible();
  await shot(page, 'campaign-legacy');
});

test('the other pages render with kind empty states or data', async ({ page }) => {
  for (const [url, heading, name] of [
    ['/campaigns', 'Campaigns', 'campaigns'],
    ['/methodology', 'How GitBench counts', 'methodology'],
    ['/quadrant?legacy=1', 'Cost vs quality', 'quadrant'],
    ['/compare', 'Compare two targets', 'compare-empty'],
    ['/models', 'Models', 'models'],
    ['/campaigns/new', 'New campaign', 'campaign-new'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await shot(page, name);
  }
  await page.goto('/campaigns/cmp_doesnotexist');
  await expect(page.getByRole('heading', { name: 'Nothing here' })).toBeVisible();
});

test('the cost-vs-quality quadrant switches its x axis between cost, tokens and API time', async ({ page }) => {
  // Every suite pooled: the chart is over the newest current suite by default, and the import has its own.
  await page.goto('/quadrant?legacy=1&suite=all');
  await expect(page.getByTestId('quadrant-chart')).toBeVisible();
  await expect(page.getByTestId('quadrant-list')).toContainText(LEGACY_MODEL);
  await expect(page.getByTestId('quadrant-list')).toContainText('Cost per complete trial');
  for (const [label, x, header] of [
    ['Tokens per complete trial', 'tokens', 'Tokens per complete trial'],
    ['API time per complete trial (s)', 'api', 'API time per complete trial'],
  ] as const) {
    await page.getByLabel('x axis').selectOption({ label });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(new RegExp(`x=${x}`));
    await expect(page).toHaveURL(/legacy=1/);
    await expect(page).toHaveURL(/suite=all/);
    await expect(page.getByTestId('quadrant-chart')).toBeVisible();
    await expect(page.getByTestId('quadrant-list')).toContainText(header);
    await expect(page.getByTestId('quadrant-list').getByRole('row').filter({ hasText: LEGACY_MODEL })).toHaveCount(2);
  }
  await shot(page, 'quadrant-api-time');
});

test('compare two legacy targets: per-domain differences and an exact McNemar test', async ({ page }) => {
  await page.goto('/compare');
  await page.getByLabel('First (A)').selectOption(`${LEGACY_MODEL}|text`);
  await page.getByLabel('Second (B)').selectOption(`${LEGACY_MODEL}|json_schema`);
  await page.getByLabel('Include legacy').check();
  await page.getByRole('button', { name: 'Compare' }).click();
  // The p value and the pair counts, from the attempts in the database: one pair per fixture, each side's majority.
  const e = ref.compareReference(
    await figuresOf([LEGACY_MODEL]),
    { legacy: '1' },
    { modelId: LEGACY_MODEL, outputMode: 'text' },
    { modelId: LEGACY_MODEL, outputMode: 'json_schema' },
  );
  expect(e.pairs.length).toBeGreaterThan(0);
  await expect(page.getByTestId('mcnemar')).toContainText(
    `Exact McNemar test: p = ${e.pValue < 0.0001 ? e.pValue.toExponential(2) : e.pValue.toFixed(4)} (`,
  );
  await expect(page.getByTestId('mcnemar')).toContainText(
    `A passed and B failed on ${e.b}; A failed and B passed on ${e.c}; ` +
      `both passed ${e.bothPassed}; both failed ${e.bothFailed}`,
  );
  await expect(page.getByTestId('compare-domains')).toBeVisible();
  await shot(page, 'compare');
});

test('exports: leaderboard CSV and JSON, campaign attempts', async ({ request }) => {
  const csv = await request.get('/api/export/leaderboard?legacy=1&format=csv');
  expect(csv.ok()).toBe(true);
  const text = await csv.text();
  expect(text.split('\n')[0]).toContain('mean_success');
  expect(text).toContain(LEGACY_MODEL);
  const json = await request.get('/api/export/leaderboard?legacy=1&format=json');
  const body = (await json.json()) as {
    rows: { modelId: string; meanSuccess: { numerator: number; denominator: number } }[];
    campaigns: { id: string }[];
  };
  expect(body.rows.some((r) => r.modelId === LEGACY_MODEL)).toBe(true);
  const attempts = await request.get(`/api/export/campaigns/${body.campaigns[0]!.id}?format=csv`);
  expect(attempts.ok()).toBe(true);
  expect((await attempts.text()).split('\n')[0]).toContain('inputHash');
});
