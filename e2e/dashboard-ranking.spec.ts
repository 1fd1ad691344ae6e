import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { DashboardSeed } from '../packages/test-support/src/campaign-plans';
import { DASHBOARD_SEED_FILE, LEGACY_MODEL, shot } from './support';

// The leaderboard says how it ranks, ranks each suite version apart (the dashboard seed's suite and the
// upstream results' legacy suite), pools them only when asked, and a one-trial campaign's fixtures read
// "single trial", never "stable".

let seed: DashboardSeed;
test.beforeAll(() => {
  seed = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '..', DASHBOARD_SEED_FILE), 'utf8'),
  ) as DashboardSeed;
});

const percent = (s: string | null) => (s === null || s.trim() === '—' ? -1 : Number(s.replace('%', '')));

/** Every ranked table on the page: its ranks and its "Rank by" figures, in the order shown. */
async function rankings(page: Page) {
  const out: { suite: string | null; ranks: number[]; bounds: number[]; text: string }[] = [];
  for (const section of await page.getByTestId('suite-ranking').all()) {
    const rows = section.getByTestId('leaderboard').locator('tbody tr');
    const ranks = (await rows.locator('td:nth-child(1)').allTextContents()).map(Number);
    const bounds = (await rows.locator('td:nth-child(2)').allTextContents()).map(percent);
    out.push({
      suite: await section.getAttribute('data-suite'),
      ranks,
      bounds,
      text: (await section.textContent()) ?? '',
    });
  }
  return out;
}

test('the leaderboard says it ranks by the Wilson lower bound, each suite apart unless pooled', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/?legacy=1');
  const rule = page.getByTestId('ranking-rule');
  await expect(rule).toContainText('Ranked by the lower bound of the Wilson 95% interval of mean success');
  await expect(rule).toContainText('Each suite version is ranked on its own');
  const suite = seed.campaigns.find((c) => !c.legacy)!.suiteVersion;
  const tables = await rankings(page);
  expect(tables.length).toBeGreaterThanOrEqual(2);
  expect(tables.map((t) => t.suite)).toContain(suite);
  for (const t of tables) {
    // Ranks restart at 1 in every suite, and follow the bound shown beside them.
    expect(t.ranks, t.suite!).toEqual(t.ranks.map((_, i) => i + 1));
    expect(t.bounds, t.suite!).toEqual([...t.bounds].sort((a, b) => b - a));
    // A row sums one suite: the seed's models only under its suite, the upstream model only under its own.
    if (t.suite === suite) expect(t.text).not.toContain(LEGACY_MODEL);
    if (t.text.includes(LEGACY_MODEL)) expect(t.text).not.toContain('figures/alpha');
  }
  await expect(page.getByRole('heading', { name: `Suite version ${suite}` })).toBeVisible();
  await shot(page, 'leaderboard-ranking-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'leaderboard-ranking-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole('link', { name: 'Pool every suite instead' }).click();
  await expect(page).toHaveURL(/suite=all/);
  await expect(page.getByTestId('ranking-rule')).toContainText(
    'Every suite version is pooled into one row per target, as asked',
  );
  await expect(page.getByTestId('suite-ranking')).toHaveCount(0);
  await expect(page.getByTestId('leaderboard')).toHaveCount(1);
  await expect(page.getByLabel('Suite version')).toHaveValue('all');
  await shot(page, 'leaderboard-pooled');
});

test('a one-trial campaign’s fixtures read “single trial”, never “stable”', async ({ page }) => {
  const one = seed.campaigns.find((c) => !c.legacy && c.trials === 1)!;
  await page.goto(`/campaigns/${one.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(one.name);
  await expect(page.getByText(/^single trial: (pass|fail)$/).first()).toBeVisible();
  await expect(page.getByText(/^stable (pass|fail)$/)).toHaveCount(0);
  await shot(page, 'campaign-single-trial');
});
