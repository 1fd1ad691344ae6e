import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { DashboardSeed } from '../packages/test-support/src/campaign-plans';
import { DASHBOARD_SEED_FILE, shot, signedInAs } from './support';

// The addresses a person types or a browser asks for on its own: /favicon.ico, /settings, /fixtures.

test('the favicon is served, as an icon', async ({ request }) => {
  const res = await request.get('/favicon.ico');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^image\//);
  expect((await res.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
});

test('/settings opens a member’s first settings tab', async ({ page }) => {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  await expect(page.getByRole('navigation', { name: 'Settings' })).toBeVisible();
});

test.describe('as a viewer', () => {
  test.use(signedInAs('viewer'));
  test('/settings says there is nothing to set', async ({ page }) => {
    const res = await page.goto('/settings');
    expect(res!.status()).toBe(200);
    await expect(page.getByTestId('settings-viewer')).toContainText('nothing to set here');
  });
});

test('/fixtures lists every suite version, its domains and fixtures, each linking to its page', async ({ page }) => {
  const seed = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '..', DASHBOARD_SEED_FILE), 'utf8'),
  ) as DashboardSeed;
  const res = await page.goto('/fixtures');
  expect(res!.status()).toBe(200);
  for (const suite of new Set(seed.campaigns.map((c) => c.suiteVersion))) {
    const section = page.locator(`[data-testid=fixture-index-suite][data-suite="${suite}"]`);
    const fixtures = new Set(
      seed.campaigns
        .filter((c) => c.suiteVersion === suite)
        .flatMap((c) => c.fixtures.map((f) => `${f.domain}/${f.fixtureId}`)),
    );
    const domains = new Set([...fixtures].map((f) => f.split('/')[0]!));
    await expect(section.getByRole('heading')).toContainText(
      `${domains.size} domain${domains.size === 1 ? '' : 's'}, ${fixtures.size} fixtures`,
    );
    await expect(section.getByTestId('fixture-index-domain')).toHaveCount(domains.size);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  const first = page.getByTestId('fixture-index-domain').first();
  await first.locator('summary').click();
  await shot(page, 'fixtures-index-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'fixtures-index-390');
  const link = first.getByRole('link').first();
  const id = (await link.textContent())!.trim();
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(id);
});
