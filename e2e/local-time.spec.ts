import { expect, test } from '@playwright/test';
import { shot } from './support';

// Times as a reader in Kolkata reads them (UTC+5:30 all year, so the expectation needs no summer-time
// rule), the zone named beside them and UTC on hover.
test.describe('in Asia/Kolkata', () => {
  test.use({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });

  test("the campaign list shows times in the browser's zone, with UTC on hover", async ({ page }) => {
    await page.goto('/campaigns');
    const times = page.getByTestId('campaign-list').locator('time');
    await expect(times.first()).toContainText('GMT+5:30');
    const count = await times.count();
    expect(count).toBeGreaterThan(2);
    for (let i = 0; i < count; i++) {
      const iso = (await times.nth(i).getAttribute('datetime'))!;
      const shifted = new Date(new Date(iso).getTime() + 330 * 60_000).toISOString();
      await expect(times.nth(i)).toHaveText(`${shifted.slice(0, 10)} ${shifted.slice(11, 16)} GMT+5:30`);
      // ICU may still call the zone by its older name.
      await expect(times.nth(i)).toHaveAttribute(
        'title',
        new RegExp(`^${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC \\(shown in Asia/(Kolkata|Calcutta)\\)$`),
      );
    }
    await shot(page, 'campaigns-kolkata');
  });

  test('the status page says when each check ran, and checks again on request', async ({ page }) => {
    await page.goto('/status');
    const checked = page.getByTestId('service-PostgreSQL').getByTestId('checked-at').locator('time');
    await expect(checked).toContainText('GMT+5:30');
    const first = await checked.getAttribute('datetime');
    const ranAt = new Date(first!).getTime();
    expect(Math.abs(Date.now() - ranAt)).toBeLessThan(60_000);
    await page.waitForTimeout(1_100);
    await page.getByTestId('status-refresh').click();
    await expect(checked).not.toHaveAttribute('datetime', first!);
    expect(new Date((await checked.getAttribute('datetime'))!).getTime()).toBeGreaterThan(ranAt);
    await shot(page, 'status-kolkata');
  });
});

test.describe('in UTC', () => {
  test.use({ timezoneId: 'UTC' });

  test('a reader in UTC sees UTC', async ({ page }) => {
    await page.goto('/campaigns');
    const time = page.getByTestId('campaign-list').locator('time').first();
    const iso = (await time.getAttribute('datetime'))!;
    await expect(time).toHaveText(`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`);
  });
});
