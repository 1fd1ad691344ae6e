import { expect, test, type Page } from '@playwright/test';

// These run the real thing: the form posts to the campaign API, the worker from global-setup runs
// every attempt in a sandbox, the page polls the API until the campaign is done.

async function shot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Loading the figures from the database')).toHaveCount(0);
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

async function fillForm(page: Page, name: string, models: string[], trials: string) {
  await page.goto('/campaigns/new');
  await expect(page.getByRole('heading', { name: 'New campaign' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Created by').fill('e2e');
  for (const m of models) await page.getByLabel(m, { exact: true }).check();
  const domains = page.getByRole('group', { name: 'Domains' });
  await domains.getByRole('checkbox').first().check();
  await page.getByLabel('Trials').fill(trials);
  await expect(page.getByTestId('estimate')).toContainText(/\d+ attempts/);
}

test('the form shows inline errors and does not launch an invalid campaign', async ({ page }) => {
  await page.goto('/campaigns/new');
  await page.getByLabel('oracle', { exact: true }).check();
  await page.getByLabel('Trials').fill('0');
  await page.getByRole('button', { name: 'Launch campaign' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  await shot(page, 'campaign-new-errors');
});

test('launch from the form with the oracle and mock models, watch it finish, see it on the leaderboard, drill to evidence', async ({ page }) => {
  test.setTimeout(180_000);
  const name = `e2e oracle vs mock ${Date.now()}`;
  await fillForm(page, name, ['oracle', 'mock'], '2');
  await shot(page, 'campaign-new-filled');
  await page.getByRole('button', { name: 'Launch campaign' }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await shot(page, 'campaign-running');
  await expect(page.getByTestId('campaign-status')).toHaveText('completed', { timeout: 150_000 });
  await page.reload();
  await expect(page.getByTestId('completeness')).toContainText('Complete: this campaign counts in default rankings.');
  await expect(page.getByTestId('fixture-table')).toContainText(/stable pass|stable fail|flaky/);
  await shot(page, 'campaign-completed');

  await page.goto('/');
  const oracle = page.getByTestId('leaderboard').getByRole('row').filter({ hasText: 'oracle' }).first();
  await expect(oracle).toBeVisible();
  await expect(oracle).toContainText(/\d+\/\d+/);
  await shot(page, 'leaderboard-with-campaign');
  await oracle.getByRole('link', { name: 'oracle' }).click();
  await page.getByTestId('model-fixtures').getByRole('link').first().click();
  await page.getByTestId('fixture-attempts').getByRole('link', { name: /Trial 1/ }).first().click();
  await expect(page.getByRole('heading', { name: /Attempt: trial/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Score and scorer evidence' })).toBeVisible();
  await shot(page, 'attempt-oracle');
});

test('cancel a running campaign', async ({ page }) => {
  test.setTimeout(120_000);
  await fillForm(page, `e2e cancel ${Date.now()}`, ['simulated'], '10');
  await page.getByRole('button', { name: 'Launch campaign' }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_/);
  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('cancelled', { timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId('completeness')).toContainText('Incomplete');
  await shot(page, 'campaign-cancelled');
});
