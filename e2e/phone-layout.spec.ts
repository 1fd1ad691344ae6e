import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { DashboardSeed } from '../packages/test-support/src/campaign-plans';
import { DASHBOARD_SEED_FILE, shot } from './support';

// At 390 px wide (a phone) the page itself never scrolls sideways: wide tables scroll inside their own
// box. Screenshots at 390×844 and 1280×800 are kept under test-results/screens to be looked at.

let seed: DashboardSeed;
test.beforeAll(() => {
  seed = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '..', DASHBOARD_SEED_FILE), 'utf8'),
  ) as DashboardSeed;
});

async function pageWidth(page: Page): Promise<number> {
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => document.documentElement.scrollWidth);
}

const pages = (s: DashboardSeed) => {
  const campaign = s.campaigns.find((c) => !c.legacy)!;
  const attempt = s.attempts.find((a) => a.campaignId === campaign.id && a.status === 'VALID_FAIL')!;
  return [
    ['leaderboard', '/?incomplete=1&legacy=1'],
    ['campaign', `/campaigns/${campaign.id}`],
    ['attempt', `/attempts/${attempt.id}`],
  ] as const;
};

for (const [width, height] of [
  [390, 844],
  [1280, 800],
] as const) {
  test(`the leaderboard, a campaign and an attempt fit ${width} px without sideways page scroll`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    // An imported campaign carries a full 64-character config hash, the line that widened the page.
    await page.goto('/campaigns');
    const imported = (await page
      .getByRole('link', { name: /^Legacy import: .*\(text/ })
      .first()
      .getAttribute('href'))!;
    for (const [name, url] of [...pages(seed), ['imported-campaign', imported] as const]) {
      await page.goto(url);
      await expect(page.locator('main h1').first()).toBeVisible();
      await shot(page, `layout-${name}-${width}`);
      expect(await pageWidth(page), `${name} page width at ${width} px`).toBeLessThanOrEqual(width);
    }
  });
}
