import { expect, test } from '@playwright/test';
import pg from 'pg';

test('the status page shows that Postgres, Redis, the worker and Docker are reachable', async ({ page }) => {
  await page.goto('/status');
  await expect(page.getByRole('heading', { name: 'System status' })).toBeVisible();
  for (const name of ['PostgreSQL', 'Redis', 'Worker', 'Docker']) {
    await expect(page.getByTestId(`service-${name}`)).toContainText(`${name} reachable`);
  }
  await expect(page.getByTestId('status-summary')).toHaveText('All 4 services are reachable.');
  await page.screenshot({ path: 'test-results/screens/status.png', fullPage: true });
});

test('with no worker alive the page answers without waiting on one: the worker unreachable, Docker unknown', async ({
  page,
}) => {
  // The e2e worker, frozen so that it neither heartbeats nor takes a ping, and its heartbeat made stale.
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM "WorkerHeartbeat" WHERE "lastSeenAt" > now() - interval '20 seconds'`,
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const { pid } of rows) process.kill(pid, 'SIGSTOP');
  try {
    await client.query(`UPDATE "WorkerHeartbeat" SET "lastSeenAt" = now() - interval '1 minute'`);
    await page.goto('/status');
    await expect(page.getByTestId('service-Worker')).toContainText('Worker unreachable');
    await expect(page.getByTestId('service-Worker')).toContainText('no worker has sent a heartbeat');
    await expect(page.getByTestId('service-Docker')).toContainText('Docker unknown');
    await expect(page.getByTestId('service-Docker')).toContainText('no worker is alive to report on its Docker engine');
    await expect(page.getByTestId('status-summary')).toHaveText('1 of 4 services are not reachable; 1 unknown.');
    await page.screenshot({ path: 'test-results/screens/status-no-worker.png', fullPage: true });
  } finally {
    for (const { pid } of rows) process.kill(pid, 'SIGCONT');
    await client.end();
  }
  // Thawed, the worker heartbeats again and answers the ping: every service reachable once more.
  await expect
    .poll(async () => {
      await page.goto('/status');
      return page.getByTestId('status-summary').textContent();
    })
    .toBe('All 4 services are reachable.');
});
