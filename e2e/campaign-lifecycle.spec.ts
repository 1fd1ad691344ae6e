import { expect, test } from '@playwright/test';
import { fillCampaignForm, launch, shot, SIMULATED_LABEL } from './support';

// These run the real thing: the form posts to the campaign API, the worker from global-setup runs
// every attempt in a sandbox, the page polls the API until the campaign is done.

test('the form shows inline errors and does not launch an invalid campaign', async ({ page }) => {
  await page.goto('/campaigns/new');
  await page.getByLabel('oracle', { exact: true }).check();
  await page.getByLabel('Trials').fill('0');
  await page.getByRole('button', { name: 'Launch campaign' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  await shot(page, 'campaign-new-errors');
});

test('the form offers only the modes a suite’s tasks are built for, and says why', async ({ page }) => {
  await page.goto('/campaigns/new');
  await expect(page.getByLabel('text', { exact: true })).toBeEnabled();
  await page.getByLabel('Suite').selectOption('fixtures/hard');
  // The hard tier's suite.yaml lists only agent: the single answers cannot be chosen, agent is chosen instead.
  await expect(page.getByLabel('text', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('json_schema', { exact: true })).toBeDisabled();
  await expect(page.getByLabel('agent', { exact: true })).toBeChecked();
  await expect(page.getByTestId('suite-modes-note')).toHaveText(
    "This suite's tasks are built for agent only (modes in fixtures/hard/suite.yaml).",
  );
  await expect(page.getByLabel('text', { exact: true })).toHaveAccessibleDescription(/built for agent only/);
  await shot(page, 'campaign-new-suite-modes');
  await page.getByLabel('Suite').selectOption('fixtures');
  await expect(page.getByLabel('text', { exact: true })).toBeEnabled();
  await expect(page.getByTestId('suite-modes-note')).toHaveCount(0);
});

test(
  'launch from the form with the oracle and mock models, watch ' +
    'it finish, see it on the leaderboard, drill to evidence',
  async ({ page }) => {
    test.setTimeout(300_000);
    const name = `e2e oracle vs mock ${Date.now()}`;
    // git_clean's fixtures are scored by assertions on the repository, so the evidence includes the
    // commands the sandbox ran.
    await fillCampaignForm(page, { name, models: ['oracle', 'mock'], domain: 'git_clean', trials: '2' });
    await expect(page.getByTestId('estimate')).toContainText('48 attempts');
    await shot(page, 'campaign-new-filled');
    await launch(page, name);
    const campaignId = page.url().match(/cmp_[A-Za-z0-9]+/)![0];
    await expect(page.getByTestId('campaign-progress')).toContainText(/ETA|attempts finished/);
    await shot(page, 'campaign-running');
    await expect(page.getByTestId('campaign-status')).toHaveText('completed', { timeout: 240_000 });
    await page.reload();
    await expect(page.getByTestId('completeness')).toContainText('Complete: this campaign counts in default rankings.');
    await expect(page.getByTestId('fixture-table')).toContainText(/stable pass|stable fail|flaky/);
    await expect(page.getByTestId('heatmap')).toContainText('git_clean');
    await expect(page.getByTestId('per-model').getByRole('row').filter({ hasText: 'mock' })).toContainText('0/24');
    await shot(page, 'campaign-completed');

    // The leaderboard includes it by default (complete, not legacy); filtered to it, the counts are its own.
    await page.goto('/');
    await expect(page.getByTestId('leaderboard').getByRole('row').filter({ hasText: 'oracle' }).first()).toBeVisible();
    await page.goto(`/?campaign=${campaignId}`);
    const oracle = page.getByTestId('leaderboard').getByRole('row').filter({ hasText: 'oracle' });
    await expect(oracle).toContainText(/\d+\/24/);
    await expect(oracle).toContainText('2/2 rounds complete');
    await shot(page, 'leaderboard-with-campaign');

    await oracle.getByRole('link', { name: 'oracle' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'oracle' })).toBeVisible();
    await shot(page, 'model-oracle');
    await page.getByTestId('model-fixtures').getByRole('link').first().click();
    await expect(page.getByRole('heading', { level: 1, name: /^git_clean\// })).toBeVisible();
    await expect(page.getByTestId('fixture-attempts')).toContainText(/stable pass|stable fail|flaky/);
    await shot(page, 'fixture-git-clean');
    await page
      .getByTestId('fixture-attempts')
      .getByRole('link', { name: /^Trial 1 of oracle/ })
      .first()
      .click();

    await expect(page.getByRole('heading', { name: /Attempt: trial 1 of 2/ })).toBeVisible();
    await expect(page.getByTestId('output-diff')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Score and scorer evidence' })).toBeVisible();
    await expect(page.getByTestId('scorer-checks')).toBeVisible();
    // The commands the sandbox ran, each with its exit code.
    await expect(page.getByTestId('sandbox-evidence')).toContainText('$ ');
    await expect(page.getByTestId('sandbox-evidence')).toContainText(/exit \d+/);
    // The repository before the answer, and as the answer left it (git clean removed the untracked files).
    await expect(page.getByLabel('repository state before the answer')).toContainText('== worktree');
    await expect(page.getByLabel("repository state after the answer and the scorer's look-ups")).toContainText(
      '== worktree',
    );
    // Every hash of the attempt is recorded, and the sandbox image it ran in.
    await expect(page.getByTestId('hashes')).toContainText(/fixture input hash\s*[0-9a-f]{16,}/);
    await expect(page.getByTestId('hashes')).toContainText(/sandbox image\s*gitbench-sandbox:/);
    await expect(page.getByTestId('try-history')).toContainText('pass');
    // Built-in models report no price: cost is unknown ("—"), never $0.
    await expect(page.getByTestId('metric-cost')).toContainText('—');
    await shot(page, 'attempt-oracle');
  },
);

test('cancel a running campaign', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `e2e cancel ${Date.now()}`;
  await fillCampaignForm(page, { name, models: [SIMULATED_LABEL], domain: 'git_clean', trials: '10' });
  await launch(page, name);
  // Results of the seeded coin are labelled simulated wherever they show.
  await expect(page.getByRole('heading', { level: 1 }).getByText('simulated', { exact: true })).toBeVisible();
  // Running, with attempts already finished and more queued: cancelling stops what has not started.
  await expect(page.getByTestId('campaign-status')).toHaveText('running', { timeout: 60_000 });
  await expect(page.getByTestId('campaign-done')).not.toHaveText(/^0\//, { timeout: 60_000 });
  // Cancelling asks first, with the numbers; backing out leaves it running.
  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  const confirm = page.getByTestId('cancel-confirmation');
  await expect(confirm).toContainText(
    /\d+ queued attempt\(s\) will not start and \d+ running will stop at their next heartbeat/,
  );
  await expect(confirm.getByRole('button', { name: /^Cancel \d+ attempts?$/ })).toBeFocused();
  await shot(page, 'campaign-cancel-confirmation');
  await confirm.getByRole('button', { name: 'Keep running' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('campaign-status')).toHaveText('running');
  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  await page
    .getByTestId('cancel-confirmation')
    .getByRole('button', { name: /^Cancel \d+ attempts?$/ })
    .click();
  await expect(page.getByTestId('campaign-status')).toHaveText('cancelled', { timeout: 30_000 });
  // Without a reload, the counts follow the running attempts until they have stopped: none is left shown running.
  await expect(page.getByTestId('attempts-by-status')).not.toContainText(/running|stopping/, { timeout: 30_000 });
  await expect(page.getByTestId('attempts-by-status')).toContainText('cancelled');
  await page.reload();
  await expect(page.getByTestId('completeness')).toContainText('Incomplete');
  await expect(page.getByTestId('completeness')).toContainText(/attempt\(s\): cancelled/);
  await expect(page.getByTestId('per-model')).toContainText('simulated');
  await shot(page, 'campaign-cancelled');
});
