import { expect, test } from '@playwright/test';
import { shot } from './support';

// On a phone (390 px) the leaderboard's table scrolls sideways inside its own box; the key figure, each
// target's mean success, must be in view before any scrolling, beside the rank and the target's name.

test('at 390 px the leaderboard shows Mean success without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?incomplete=1&legacy=1');
  const table = page.getByTestId('leaderboard').first();
  await expect(table).toBeVisible();
  // Down to the table, and not sideways: its box has not scrolled either.
  await table.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120));
  const box = table.locator('xpath=..');
  expect(await box.evaluate((el) => el.scrollLeft)).toBe(0);
  const header = table.getByRole('columnheader', { name: /Mean success/ });
  const index = await header.evaluate((th) => (th as HTMLTableCellElement).cellIndex);
  const frame = (await box.boundingBox())!;
  expect(frame.x + frame.width).toBeLessThanOrEqual(390);
  // The figure itself, not only the start of its cell: the percentage of every row is wholly in view.
  await expect(header).toBeInViewport({ ratio: 0.5 });
  const rates = await table.locator(`tbody tr td:nth-child(${index + 1}) span.font-medium`).all();
  expect(rates.length).toBeGreaterThan(1);
  for (const rate of rates) {
    await expect(rate).toHaveText(/^\d+(\.\d+)?%$/);
    await expect(rate).toBeInViewport({ ratio: 1 });
    const figure = (await rate.boundingBox())!;
    expect(figure.x + figure.width).toBeLessThanOrEqual(frame.x + frame.width);
  }
  await shot(page, 'leaderboard-phone-mean-success');
});
