import { expect, test } from '@playwright/test';
import { fillCampaignForm, shot } from './support';

// Launching asks first, with the number of attempts, the cost and the time it would take; the time
// comes from the same models' finished attempts and the live workers.

test('launching asks for confirmation with the attempts, the cost and the time estimate', async ({ page }) => {
  test.setTimeout(180_000);
  const name = `e2e confirm ${Date.now()}`;
  await fillCampaignForm(page, { name, models: ['oracle'], domain: 'git_clean', trials: '1' });
  const attempts = Number((await page.getByTestId('estimate').locator('strong').first().textContent())!.trim());
  expect(attempts).toBeGreaterThan(0);
  await expect(page.getByTestId('estimate-time')).toBeVisible();

  await page.getByRole('button', { name: 'Launch campaign' }).click();
  const confirm = page.getByTestId('launch-confirmation');
  await expect(confirm).toContainText(`${attempts} attempts = 1 target(s) ×`);
  await expect(confirm.getByTestId('confirm-cost')).toHaveText('none (no paid calls)');
  await expect(confirm.getByTestId('confirm-time')).not.toBeEmpty();
  const launchButton = confirm.getByRole('button', { name: `Launch ${attempts} attempt${attempts === 1 ? '' : 's'}` });
  await expect(launchButton).toBeFocused();
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'launch-confirmation-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'launch-confirmation-390');
  await page.setViewportSize({ width: 1280, height: 720 });

  // Backing out launches nothing; a changed selection would ask again.
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  await page.getByRole('button', { name: 'Launch campaign' }).click();
  await confirm.getByRole('button', { name: /^Launch \d+ attempts?$/ }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_/);
  await expect(page.getByTestId('campaign-status')).toHaveText('completed', { timeout: 120_000 });

  // The oracle has finished attempts in this output mode now: the time is estimated from them.
  await fillCampaignForm(page, { name: `${name} again`, models: ['oracle'], domain: 'git_clean', trials: '2' });
  await expect(page.getByTestId('estimate-time')).toHaveText(/^about \d+ (s|min) at \d+ attempt\(s\) at once$/);
  await page.getByRole('button', { name: 'Launch campaign' }).click();
  await expect(page.getByTestId('confirm-time')).toHaveText(/^about \d+ (s|min) at \d+ attempt\(s\) at once$/);
  await shot(page, 'launch-confirmation-with-time');
});
