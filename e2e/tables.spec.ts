import { expect, test, type Locator } from '@playwright/test';
import { LEGACY_MODEL, shot, signedInAs } from './support';

// Tables sort by a column from its header (a button: mouse or keyboard) and long ones have a search box.

const percent = (s: string) => (s.trim().startsWith('—') ? null : Number(s.trim().split('%')[0]));

/** The texts of one column of a table, in the order shown. */
async function column(table: Locator, index: number) {
  return table
    .locator('tbody tr')
    .locator(`td:nth-child(${index + 1})`)
    .allTextContents();
}

async function headerIndex(table: Locator, name: string) {
  const headers = await table.locator('thead th').allTextContents();
  const i = headers.findIndex((h) => h.replace(/[▲▼↕]/g, '').trim().toLowerCase() === name.toLowerCase());
  expect(i, `${name} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return i;
}

test('the leaderboard sorts by a column, from the mouse and from the keyboard', async ({ page }) => {
  await page.goto('/?suite=figures-suite&incomplete=1');
  const table = page.getByTestId('leaderboard');
  const mean = await headerIndex(table, 'Mean success');
  const header = table.locator('thead th').nth(mean);
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await table.getByRole('button', { name: 'Mean success' }).click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const down = (await column(table, mean)).map(percent);
  expect(down.length).toBeGreaterThan(2);
  expect(down).toEqual([...down].sort((a, b) => (b ?? -1) - (a ?? -1)));
  // Enter on the focused header sorts the other way.
  await table.getByRole('button', { name: 'Mean success' }).focus();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const up = (await column(table, mean)).map(percent);
  expect(up).toEqual([...down].reverse());

  const name = await headerIndex(table, 'Model · mode');
  await table.getByRole('button', { name: 'Model · mode' }).click();
  await expect(table.locator('thead th').nth(name)).toHaveAttribute('aria-sort', 'ascending');
  await expect(header).toHaveAttribute('aria-sort', 'none');
  const names = await column(table, name);
  expect(names).toEqual(
    [...names].sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' })),
  );
  await shot(page, 'leaderboard-sorted');
});

test('the campaign list sorts by planned attempts; a model’s long fixture list is searched', async ({ page }) => {
  await page.goto('/campaigns');
  const list = page.getByTestId('campaign-list');
  const attempts = await headerIndex(list, 'Attempts');
  await list.getByRole('button', { name: 'Attempts' }).click();
  const counts = (await column(list, attempts)).map((s) => Number(s.replace(/,/g, '')));
  expect(counts.length).toBeGreaterThan(3);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
  await shot(page, 'campaigns-sorted');

  await page.goto(`/models?id=${encodeURIComponent(LEGACY_MODEL)}`);
  const fixtures = page.getByTestId('model-fixtures');
  const rows = fixtures.locator('tbody tr');
  const total = await rows.count();
  expect(total).toBeGreaterThanOrEqual(10);
  const first = (await fixtures.locator('tbody tr td:nth-child(1) a').first().textContent())!.trim();
  const domain = first.split('/')[0]!;
  const search = page.getByRole('searchbox', { name: 'Search fixtures' });
  await search.fill(domain.toUpperCase());
  const found = await rows.count();
  expect(found).toBeGreaterThan(0);
  expect(found).toBeLessThan(total);
  for (const text of await column(fixtures, 0)) expect(text).toContain(domain);
  await expect(page.getByTestId('model-fixtures-count')).toHaveText(`${found} of ${total} rows`);
  await search.fill('no fixture is called this');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('No row matches');
  await search.fill('');
  await expect(rows).toHaveCount(total);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'model-fixtures-390');
});

test.describe('as an admin', () => {
  test.use(signedInAs('admin'));
  test('the audit log sorts by action', async ({ page }) => {
    // Audited actions of three kinds, so that the order means something.
    await page.goto('/campaigns');
    const campaign = (await page.getByTestId('campaign-list').locator('tbody a').first().getAttribute('href'))!
      .split('/')
      .pop()!;
    for (const url of [
      '/api/export/leaderboard?format=csv',
      `/api/export/campaigns/${campaign}?format=csv`,
      '/api/export/leaderboard?format=json',
    ]) {
      expect((await page.request.get(url)).ok(), url).toBe(true);
    }
    await page.goto('/settings/audit');
    const log = page.getByTestId('audit-log');
    const action = await headerIndex(log, 'Action');
    await log.getByRole('button', { name: 'Action' }).click();
    const actions = await column(log, action);
    expect(new Set(actions).size).toBeGreaterThan(1);
    expect(actions).toEqual(
      [...actions].sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' })),
    );
    await shot(page, 'audit-sorted');
  });
});
