import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { contrast, luminance } from './colours';
import { shot, signedInAs } from './support';

// What walking every page at 390×844 and in the dark turned up on an agent's attempt page: the step rail
// took 70% of a phone's height before the first step, the pager counted steps from 0 while every step
// and the rail count from 1, a tool's output (a terminal, light on dark) turned into a bright block in
// dark mode, and "Sign out" broke over two lines in the phone's header.
test.use(signedInAs('viewer'));

const root = path.resolve(import.meta.dirname, '..');
let attemptId: string;
test.beforeAll(() => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-agent.ts', 'campaign'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed-agent campaign failed: ${run.stderr}`);
  const { attempts } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
    attempts: { id: string; steps: number }[];
  };
  attemptId = attempts.find((a) => a.steps > 20)!.id;
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the step rail leaves room for the steps, the pager counts from 1, and Sign out stays on one line', async ({
    page,
  }) => {
    await page.goto(`/attempts/${attemptId}`);
    const viewer = page.getByTestId('trajectory-viewer');
    await expect(viewer).toHaveAttribute('data-ready', 'true');
    const rail = (await viewer.getByTestId('step-rail').boundingBox())!;
    expect(rail.height).toBeLessThan(844 / 3);
    await expect(viewer.getByTestId('step-page')).toHaveText(/^Steps 1–20 of \d+$/);
    await expect(viewer.locator('[data-testid="step"]').first()).toContainText('Step 1');
    const signOut = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
    expect(signOut.height).toBeLessThan(28);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'attempt-agent-phone');
  });
});

for (const scheme of ['dark', 'light'] as const) {
  test(`in ${scheme} mode a tool's output reads as a terminal: light text on a dark block`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/attempts/${attemptId}`);
    const output = page.getByTestId('tool-output').first();
    await expect(output).toBeVisible();
    const bg = await luminance(output, 'backgroundColor');
    const text = await luminance(output, 'color');
    expect(bg).toBeLessThan(0.03);
    expect(contrast(text, bg)).toBeGreaterThan(12);
    // In the dark, the block is no brighter than the page around it.
    if (scheme === 'dark')
      expect(bg).toBeLessThanOrEqual((await luminance(page.locator('body'), 'backgroundColor')) + 0.01);
  });
}
