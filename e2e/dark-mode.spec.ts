import { expect, test, type Page } from '@playwright/test';
import { contrast, luminance } from './colours';
import { shot } from './support';

async function leaderboardColours(page: Page) {
  await page.goto('/');
  const table = page.locator('table').first();
  const card = table.locator('xpath=ancestor::div[contains(@class, "bg-white")][1]');
  const link = table.locator('tbody a').first();
  return {
    page: await luminance(page.locator('body'), 'backgroundColor'),
    text: await luminance(page.locator('body'), 'color'),
    card: await luminance(card, 'backgroundColor'),
    link: await luminance(link, 'color'),
  };
}

for (const scheme of ['dark', 'light'] as const) {
  test.describe(`with the system in ${scheme} mode`, () => {
    test.use({ colorScheme: scheme });
    test(
      scheme === 'dark' ? 'the pages turn dark and keep their contrast' : 'the pages stay light',
      async ({ page }) => {
        const c = await leaderboardColours(page);
        if (scheme === 'dark') {
          expect(c.page).toBeLessThan(0.02);
          expect(c.card).toBeLessThan(0.05);
        } else {
          expect(c.page).toBeGreaterThan(0.9);
          expect(c.card).toBeGreaterThan(0.95);
        }
        expect(contrast(c.text, c.page)).toBeGreaterThan(12);
        // Links (indigo) stay readable on the cards.
        expect(contrast(c.link, c.card)).toBeGreaterThan(4.5);
        await shot(page, `leaderboard-${scheme}`);
        await page.goto('/campaigns');
        await shot(page, `campaigns-${scheme}`);
      },
    );
  });
}
