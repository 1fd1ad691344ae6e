import { expect, test } from '@playwright/test';
import pg from 'pg';
import { shot, signedInAs } from './support';

// The audit log as an admin reads it after weeks of use: more entries than a page, narrowed by who and
// what, with campaigns and tokens by name and the detail as lines, not JSON.
test.use(signedInAs('admin'));

const PROBE = 'audit-paging-probe@gitbench.test';
const PROBE_ENTRIES = 105;

test.beforeAll(async () => {
  // Entries of one actor no other spec writes as, a second apart (so their order is known): the
  // filtered count and the page boundaries are exactly known.
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('DELETE FROM "AuditEvent" WHERE "actorEmail" = $1', [PROBE]);
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < PROBE_ENTRIES; i++) {
      await client.query(
        `INSERT INTO "AuditEvent" (id, at, "actorId", "actorEmail", via, action, "targetType", "targetId", detail)
         VALUES ($1, $2, NULL, $3, 'cli', 'settings.update', 'setting', $4, $5)`,
        [
          `aud_probe${String(i).padStart(4, '0')}`,
          new Date(start + i * 1000),
          PROBE,
          `probe-${i}`,
          JSON.stringify({ step: i, limits: { maxModels: 8 } }),
        ],
      );
    }
  } finally {
    await client.end();
  }
});

test('filters, pages, names instead of ids and readable details', async ({ page }) => {
  // A named token and two exports: entries of the kinds a team makes every day.
  // Posted from a page of the app, with its origin, as the tokens form posts.
  await page.goto('/settings/tokens');
  const token = await page.request.post('/api/tokens', {
    headers: { origin: new URL(page.url()).origin },
    data: { name: 'audit spec token', role: 'viewer' },
  });
  expect(token.status(), await token.text()).toBe(201);
  const tokenId = ((await token.json()) as { id: string }).id;
  expect((await page.request.get('/api/export/leaderboard?format=csv')).ok()).toBe(true);
  await page.goto('/campaigns');
  const first = page.getByTestId('campaign-list').locator('tbody a').first();
  const campaignName = (await first.textContent())!.trim();
  const campaignId = (await first.getAttribute('href'))!.split('/').pop()!;
  expect((await page.request.get(`/api/export/campaigns/${campaignId}?format=csv`)).ok()).toBe(true);

  await page.goto('/settings/audit');
  const log = page.getByTestId('audit-log');
  // The token by its name, its id only on hover; the campaign by its name, linked.
  const tokenRow = log
    .getByRole('row')
    .filter({ hasText: 'token.create' })
    .filter({ hasText: 'audit spec token' })
    .first();
  await expect(tokenRow).toBeVisible();
  await expect(tokenRow.getByTitle(tokenId)).toHaveText('audit spec token');
  const exportRow = log.getByRole('row').filter({ hasText: 'campaign.export' }).first();
  await expect(exportRow.getByRole('link', { name: campaignName })).toHaveAttribute('href', `/campaigns/${campaignId}`);
  // Details as key and value lines; no raw JSON anywhere in the table.
  await expect(exportRow.getByTestId('audit-detail')).toContainText('formatcsv');
  await expect(log).not.toContainText('{"');
  await shot(page, 'audit-log-all');

  // One action: every row is of it, and the position line counts only those.
  await page.getByLabel('Action').selectOption('token.create');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/action=token\.create/);
  const actions = await log.locator('tbody tr td:nth-child(4)').allTextContents();
  expect(actions.length).toBeGreaterThan(0);
  expect(new Set(actions)).toEqual(new Set(['token.create']));
  await expect(page.getByTestId('audit-position')).toHaveText(
    new RegExp(`^${actions.length} of ${actions.length} matching entr`),
  );

  // One actor with more entries than a page: 100, then the 5 older ones, then back to the newest.
  await page.goto(`/settings/audit?actorEmail=${encodeURIComponent(PROBE)}`);
  await expect(page.getByLabel('Who')).toHaveValue(PROBE);
  await expect(page.getByTestId('audit-position')).toHaveText(
    `100 of ${PROBE_ENTRIES} matching entries shown, newest first.`,
  );
  await expect(log.locator('tbody tr')).toHaveCount(100);
  await expect(log.getByRole('row').filter({ hasText: PROBE }).first().getByTestId('audit-detail')).toContainText(
    'limits.maxModels8',
  );
  await page.getByRole('link', { name: 'Older entries' }).click();
  await expect(page).toHaveURL(/actorEmail=.*before=aud_/);
  await expect(log.locator('tbody tr')).toHaveCount(PROBE_ENTRIES - 100);
  await expect(page.getByRole('link', { name: 'Older entries' })).toHaveCount(0);
  // The oldest five: setting probe-0 .. probe-4, the page's last row the very first entry.
  await expect(log.locator('tbody tr').last()).toContainText('probe-0');
  await shot(page, 'audit-log-older');
  await page.getByRole('link', { name: 'Newest entries' }).click();
  await expect(log.locator('tbody tr')).toHaveCount(100);
  await expect(log.locator('tbody tr').first()).toContainText(`probe-${PROBE_ENTRIES - 1}`);

  // A value the log does not hold is ignored, not passed to the query.
  await page.goto('/settings/audit?action=campaign.delete-everything');
  await expect(page.getByLabel('Action')).toHaveValue('');
});
