import { expect, test, type Locator, type Page } from '@playwright/test';
import { shot } from './support';

/** WCAG relative luminance of an element's computed colour property, read through a canvas (any CSS colour syntax). */
async function luminance(target: Locator, property: 'color' | 'backgroundColor'): Promise<number> {
  return target.evaluate((el, prop) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.fillStyle = getComputedStyle(el)[prop];
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = Array.from(ctx.getImageData(0, 0, 1, 1).data).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  }, property);
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

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
    test(scheme === 'dark' ? 'the pages turn dark and keep their contrast' : 'the pages stay light', async ({ page }) => {
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
    });
  });
}
