import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, request, test } from '@playwright/test';
import { shot } from './support';
import { authStatePath } from './users';

// The attempt page as a reader in Kolkata (UTC+5:30 all year) reads it: its times in the browser's zone
// with UTC on hover, and copy buttons for its id, hashes, the prompt, the output, an agent's commands
// and their outputs, each copying the whole text (Chromium lets a granted page read the clipboard back).
test.use({ timezoneId: 'Asia/Kolkata', locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] });

const root = path.resolve(import.meta.dirname, '..');
const json = { 'content-type': 'application/json' };

test(
  "an oracle attempt: times in the reader's zone, UTC on " + 'hover, and its id, hashes, prompt and output copy whole',
  async ({ page, baseURL }) => {
    test.setTimeout(240_000);
    const api = await request.newContext({ baseURL, storageState: authStatePath('member') });
    const created = await api.post('/api/campaigns', {
      headers: { ...json, origin: baseURL! },
      data: {
        name: `e2e attempt copy ${Date.now()}`,
        models: ['oracle'],
        trials: 1,
        fixtures: { suiteDir: 'fixtures', ids: ['blame_forensics/f001'] },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { campaignId } = (await created.json()) as { campaignId: string };
    // The worker global-setup started runs it; the attempt is done once it has a valid outcome.
    let attemptId = '';
    await expect
      .poll(
        async () => {
          const { attempts } = (await (await api.get(`/api/campaigns/${campaignId}/attempts`)).json()) as {
            attempts: { id: string; status: string }[];
          };
          attemptId = attempts[0]?.id ?? '';
          return attempts[0]?.status;
        },
        { timeout: 180_000 },
      )
      .toMatch(/^VALID_(PASS|FAIL)$/);
    await api.dispose();

    await page.goto(`/attempts/${attemptId}`);
    const times = page.getByTestId('attempt-times').locator('time');
    await expect(times).toHaveCount(3);
    await expect(times.first()).toContainText('GMT+5:30');
    for (let i = 0; i < 3; i++) {
      const iso = (await times.nth(i).getAttribute('datetime'))!;
      const shifted = new Date(new Date(iso).getTime() + 330 * 60_000).toISOString();
      await expect(times.nth(i)).toHaveText(`${shifted.slice(0, 10)} ${shifted.slice(11, 19)} GMT+5:30`);
      await expect(times.nth(i)).toHaveAttribute(
        'title',
        new RegExp(`^${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC \\(shown in Asia/(Kolkata|Calcutta)\\)$`),
      );
    }
    await expect(page.getByTestId('try-history').locator('time').first()).toContainText('GMT+5:30');

    const copied = async (name: string) => {
      await page.getByRole('button', { name }).first().click();
      return page.evaluate(() => navigator.clipboard.readText());
    };
    expect(await copied('Copy attempt id')).toBe(attemptId);
    const hashes = page.getByTestId('hashes');
    for (const name of ['rendered prompt hash', 'expected output hash', 'model output hash']) {
      const hash = await copied(`Copy ${name}`);
      expect(hash, name).toMatch(/^[0-9a-f]{16,}$/);
      await expect(hashes).toContainText(hash);
    }
    expect(await copied('Copy rendered prompt')).toBe(
      await page.getByLabel('rendered prompt', { exact: true }).textContent(),
    );
    expect(await copied('Copy model output')).toBe(
      await page.getByLabel('model output', { exact: true }).textContent(),
    );
    await shot(page, 'attempt-copy-kolkata');
  },
);

test("an agent attempt's commands and tool outputs copy whole", async ({ page }) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-agent.ts', 'campaign'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed-agent campaign failed: ${run.stderr}`);
  const { attempts } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { attempts: { id: string }[] };
  await page.goto(`/attempts/${attempts[0]!.id}`);
  await expect(page.getByTestId('trajectory-viewer')).toHaveAttribute('data-ready', 'true');
  const call = page
    .getByTestId('tool-call')
    .filter({ has: page.getByRole('button', { name: 'Copy tool output' }) })
    .first();
  const command = call.getByRole('button', { name: 'Copy command' });
  await command.click();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  expect(text.length).toBeGreaterThan(0);
  await expect(call).toContainText(text.split('\n')[0]!);
  await call.getByRole('button', { name: 'Copy tool output' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    await call.getByTestId('tool-output').textContent(),
  );
  await shot(page, 'attempt-agent-copy');
});
