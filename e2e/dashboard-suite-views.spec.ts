import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { DashboardSeed } from '../packages/test-support/src/campaign-plans';
import * as ref from '../apps/web/test/support/dashboard-reference';
import { DASHBOARD_SEED_FILE, shot } from './support';

// The quadrant and a model's page give one figure per target, so each is over one suite version and
// says which; a model's by-domain and by-difficulty tables follow the page's filters.

let seed: DashboardSeed;
test.beforeAll(() => {
  seed = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '..', DASHBOARD_SEED_FILE), 'utf8'),
  ) as DashboardSeed;
});

const ALPHA = 'figures/alpha';
const SUITE = 'figures-suite';

test('a model’s by-domain and by-difficulty tables keep to the chosen domain and difficulty', async ({ page }) => {
  const f = { legacy: '1', incomplete: '1', suite: SUITE, domain: 'figures-merge', difficulty: 'medium' } as const;
  await page.goto(
    `/models?id=${encodeURIComponent(ALPHA)}&legacy=1&incomplete=1&domain=${f.domain}&difficulty=${f.difficulty}`,
  );
  const domains = page.getByTestId('model-by-domain');
  await expect(domains.getByRole('row')).toHaveCount(2);
  await expect(domains.getByRole('row').nth(1)).toContainText(f.domain);
  const difficulties = page.getByTestId('model-by-difficulty');
  await expect(difficulties.getByRole('row')).toHaveCount(2);
  await expect(difficulties.getByRole('row').nth(1)).toContainText(f.difficulty);
  const expected = ref.modelSlices(seed, ALPHA, f, 'domain');
  const text = expected.find((c) => c.outputMode === 'text')!;
  await expect(domains.getByRole('row').nth(1)).toContainText(`${text.passes}/${text.valid}`);
  await shot(page, 'model-filtered-slices');
});

test('the quadrant says which suite its points are over, and pools only when asked', async ({ page }) => {
  await page.goto(`/quadrant?suite=${SUITE}&incomplete=1`);
  await expect(page.getByTestId('suite-note')).toContainText(`over suite version ${SUITE}`);
  await page.goto('/quadrant?suite=all&legacy=1&incomplete=1');
  await expect(page.getByTestId('suite-note')).toContainText('pooled over every suite version');
  // The default is one suite, never the pool.
  await page.goto('/quadrant?legacy=1&incomplete=1');
  await expect(page.getByTestId('suite-note')).toContainText('over suite version');
  await expect(page.getByLabel('Suite version')).toHaveValue('');
});

test('the quadrant’s axes say what they measure and in which unit; cost can be drawn on a log scale', async ({
  page,
}) => {
  await page.goto(`/quadrant?suite=${SUITE}&incomplete=1&scale=linear`);
  const chart = page.getByTestId('quadrant-chart');
  await expect(chart).toHaveAttribute('data-x-scale', 'linear');
  await expect(chart.getByText('Mean one-attempt success (%)')).toBeVisible();
  await expect(chart.getByText('Cost per complete trial (USD)', { exact: true })).toBeVisible();
  await page.getByLabel('x scale').selectOption('log');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/scale=log/);
  await expect(chart).toHaveAttribute('data-x-scale', 'log');
  await expect(chart.getByText('Cost per complete trial (USD), log scale')).toBeVisible();
  await shot(page, 'quadrant-log-scale');
});
