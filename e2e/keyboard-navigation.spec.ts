import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, request, test } from '@playwright/test';
import { LEGACY_MODEL, shot, signedInAs } from './support';
import { authStatePath } from './users';

// j and k move through a trajectory's steps and through long tables, Enter opens what is selected,
// and none of it happens while the reader types in a box.
test.use(signedInAs('viewer'));

const root = path.resolve(import.meta.dirname, '..');
let attempt: { id: string; steps: number };
test.beforeAll(() => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-agent.ts', 'campaign'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed-agent campaign failed: ${run.stderr}`);
  const seeded = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { attempts: { id: string; steps: number }[] };
  // Longer than one page of steps (20), so that j carries the viewer onto the next page.
  attempt = seeded.attempts.find((a) => a.steps > 22)!;
});

test(
  "j and k walk a trajectory's steps across its pages, Enter " +
    'opens the step, and typing in its search moves nothing',
  async ({ page }) => {
    await page.goto(`/attempts/${attempt.id}?step=18`);
    const viewer = page.getByTestId('trajectory-viewer');
    await expect(viewer).toHaveAttribute('data-ready', 'true');
    await expect(viewer.getByTestId('keys-hint')).toContainText('next / previous step');
    const step = (index: number) => viewer.locator(`[data-testid="step"][data-step="${index}"]`);
    await expect(step(18)).toHaveClass(/ring-2/);

    await page.keyboard.press('j');
    await expect(page).toHaveURL(/[?&]step=19\b/);
    await expect(step(19)).toHaveClass(/ring-2/);
    await expect(step(18)).not.toHaveClass(/ring-2/);
    // Past the page's last step: the next page comes, with the step on it.
    await page.keyboard.press('j');
    await expect(page).toHaveURL(/[?&]step=20\b/);
    await expect(viewer.getByTestId('step-page')).toContainText('Steps 21–');
    await expect(step(20)).toHaveClass(/ring-2/);
    await page.keyboard.press('k');
    await expect(page).toHaveURL(/[?&]step=19\b/);
    await expect(step(19)).toHaveClass(/ring-2/);

    await page.keyboard.press('Enter');
    await expect(step(19)).toBeFocused();
    for (const details of await step(19).locator('details').all()) await expect(details).toHaveAttribute('open', '');
    await shot(page, 'keyboard-trajectory');

    const search = viewer.getByLabel('Search the trajectory');
    await search.click();
    await page.keyboard.type('jk');
    await expect(search).toHaveValue('jk');
    await expect(page).toHaveURL(/[?&]step=19\b/);
  },
);

test(
  "j and k select a long table's rows, Enter follows the " +
    "selected row's link, and the table's search box keeps its keys",
  async ({ page, baseURL }) => {
    const api = await request.newContext({ baseURL, storageState: authStatePath('viewer') });
    const { campaigns } = (await (await api.get('/api/campaigns?limit=200')).json()) as {
      campaigns: { id: string; name: string; legacy: boolean }[];
    };
    const legacy =
      campaigns.find((c) => c.legacy && c.name.includes(LEGACY_MODEL.split('/')[1]!)) ??
      campaigns.find((c) => c.legacy)!;
    await page.goto(`/campaigns/${legacy.id}`);
    const table = page.getByTestId('fixture-table');
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(10);
    await expect(page.getByTestId('keys-hint').first()).toContainText('next / previous row');

    await page.keyboard.press('j');
    await expect(rows.nth(0)).toHaveAttribute('data-selected', 'true');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(rows.nth(2)).toHaveAttribute('data-selected', 'true');
    await page.keyboard.press('k');
    await expect(rows.nth(1)).toHaveAttribute('data-selected', 'true');
    await expect(table.locator('tr[data-selected]')).toHaveCount(1);
    await shot(page, 'keyboard-table');

    // Typing j into the search box is a search for "j", not a move.
    const search = page.getByLabel('Search fixtures on this page');
    await search.click();
    await page.keyboard.type('j');
    await expect(search).toHaveValue('j');
    await search.fill('');
    await expect(rows.nth(1)).toHaveAttribute('data-selected', 'true');

    // Focus back on the page: Enter follows the selected row's first link.
    await page.getByRole('heading', { level: 1 }).click();
    const href = await rows.nth(1).locator('a[href]').first().getAttribute('href');
    expect(href).toBeTruthy();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await api.dispose();
  },
);
