import { expect, test } from '@playwright/test';
import { shot, signedInAs } from './support';

// The pages the phone-layout spec does not cover, at 390 px: none may scroll sideways as a whole
// (wide tables scroll inside their own box).
test.use({ ...signedInAs('admin'), viewport: { width: 390, height: 844 } });

test('settings, status and a fixture page fit 390 px', async ({ page }) => {
  await page.goto('/fixtures');
  const fixture = (await page.locator('main a[href^="/fixtures/"]').first().getAttribute('href'))!;
  for (const path of [
    '/settings/tokens',
    '/settings/users',
    '/settings/provider-keys',
    '/settings/audit',
    '/status',
    fixture,
  ]) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${path} is ${width} px wide`).toBeLessThanOrEqual(390);
    await shot(page, `phone${path.replace(/[^a-z0-9]+/gi, '-')}`);
  }
});
