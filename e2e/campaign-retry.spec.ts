import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fillCampaignForm, launch, shot } from './support';

import { UPSTREAM_ROOT as UPSTREAM } from '../packages/core/test/fixtures/upstream-data';

// The web app offers the same directory (GITBENCH_UPSTREAM_DIR, else ../shared beside the checkout).
const UPSTREAM_SUITE = process.env['GITBENCH_UPSTREAM_DIR']
  ? `${process.env['GITBENCH_UPSTREAM_DIR']}/fixtures`
  : '../shared/gitbench-upstream/fixtures';

// A transient failure, for real: the replay model reads its recorded answers from a file that is there
// when the campaign is created (creation opens every replay source and refuses a missing one) and gone
// by the time the worker runs it, so every attempt ends as an infrastructure failure (excluded,
// campaign incomplete). Once the file is back, "Retry transient failures" re-queues exactly those
// attempts as new tries and the same worker finishes them.
test(
  'retry transient failures: infrastructure failures are ' + 're-run as new tries and the campaign becomes complete',
  async ({ page }) => {
    test.setTimeout(240_000);
    // Inside a configured replay directory (GITBENCH_REPLAY_DIRS, see playwright.config.ts).
    const replayDir = path.resolve(import.meta.dirname, '../test-results/e2e-replay');
    mkdirSync(replayDir, { recursive: true });
    const recording = path.join(replayDir, `gitbench-e2e-replay-${Date.now()}.json`);
    const textResults = readdirSync(path.join(UPSTREAM, 'results')).find((f) => f.includes('_text_'));
    expect(textResults, 'an upstream text-mode result file to replay').toBeDefined();
    expect(existsSync(recording)).toBe(false);
    copyFileSync(path.join(UPSTREAM, 'results', textResults!), recording);
    // Removed as soon as the server has answered the launch: the worker has still to build the fixtures.
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/campaigns')
        rmSync(recording, { force: true });
    });
    try {
      const name = `e2e retry ${Date.now()}`;
      // The upstream suite: its fixtures are exactly the ones the upstream results recorded answers for.
      await fillCampaignForm(page, {
        name,
        otherModels: `replay:${recording}`,
        suite: UPSTREAM_SUITE,
        domain: 'blame_forensics',
        trials: '1',
      });
      await expect(page.getByTestId('estimate')).toContainText('4 attempts');
      await launch(page, name);

      const retry = page.getByRole('button', { name: /Retry 4 transient failures/ });
      await expect(retry).toBeVisible({ timeout: 120_000 });
      await page.reload();
      await expect(page.getByTestId('completeness')).toContainText('Incomplete');
      await expect(page.getByTestId('completeness')).toContainText(/4 attempt\(s\): infrastructure failure/);
      await shot(page, 'campaign-infra-failures');

      copyFileSync(path.join(UPSTREAM, 'results', textResults!), recording);
      await page.getByRole('button', { name: /Retry 4 transient failures/ }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Re-queued 4' })).toBeVisible();
      await expect(page.getByTestId('campaign-status')).toHaveText('completed', { timeout: 120_000 });
      await page.reload();
      await expect(page.getByTestId('completeness')).toContainText(
        'Complete: this campaign counts in default rankings.',
      );
      await expect(page.getByRole('button', { name: /Retry/ })).toHaveCount(0);
      await shot(page, 'campaign-after-retry');

      // The failed try stays in the attempt's history under the successful one.
      await page
        .getByTestId('fixture-table')
        .getByRole('link', { name: /^Trial 1/ })
        .first()
        .click();
      const history = page.getByTestId('try-history');
      await expect(history.getByRole('row')).toHaveCount(3);
      await expect(history).toContainText('infra failure');
      await expect(history).toContainText(/does not exist/);
      await shot(page, 'attempt-retried');
    } finally {
      rmSync(recording, { force: true });
    }
  },
);
