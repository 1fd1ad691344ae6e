import { expect, test } from '@playwright/test';
import { shot } from './support';

// Chromium lets a page read the clipboard once granted, so the test reads back what a button copied.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test("a fixture's scoring reads as YAML and its blocks copy whole", async ({ page }) => {
  // The index folds its domains away; the first fixture's own page.
  await page.goto('/fixtures');
  await page.goto((await page.locator('main a[href^="/fixtures/"]').first().getAttribute('href'))!);
  await expect(page.getByRole('heading', { name: 'Scoring' })).toBeVisible();
  const scoring = page.getByLabel('scoring', { exact: true });
  const text = (await scoring.textContent())!;
  expect(text).toMatch(/^type: /);
  expect(text).not.toContain('\\n');
  expect(text).not.toContain('{');
  await page.getByRole('button', { name: 'Copy scoring' }).click();
  await expect(page.getByRole('button', { name: 'Copy scoring' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
  const prompt = (await page.getByLabel('prompt', { exact: true }).textContent())!;
  await page.getByRole('button', { name: 'Copy prompt' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(prompt);
  await shot(page, 'fixture-copy');
});

test("a campaign's id and config hash copy with one click", async ({ page }) => {
  await page.goto('/campaigns');
  await page.getByTestId('campaign-list').locator('tbody a').first().click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_/);
  const id = page.url().split('/').pop()!.split('?')[0]!;
  await page.getByRole('button', { name: 'Copy campaign id' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
  await page.getByRole('button', { name: 'Copy config hash' }).click();
  const hash = await page.evaluate(() => navigator.clipboard.readText());
  expect(hash.length).toBeGreaterThan(0);
  await expect(page.getByTestId('campaign-hashes')).toContainText(`config hash ${hash}`);
});
