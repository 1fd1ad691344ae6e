import { expect, test, type Page } from '@playwright/test';
import { fillCampaignForm, launch, shot } from './support';

// The real thing for the task families: campaigns launched from the form over a repository task
// domain and a gist package, run by the worker in sandboxes (oracle: each fixture's reference
// answer; mock: a wrong one), then the family pages and the evidence views read what they recorded.

async function runCampaign(page: Page, suite: string, domain: string, name: string): Promise<string> {
  await fillCampaignForm(page, { name, models: ['oracle', 'mock'], suite, domain, trials: '1' });
  await launch(page, name);
  const campaignId = page.url().match(/cmp_[A-Za-z0-9]+/)![0];
  await expect(page.getByTestId('campaign-status')).toHaveText('completed', { timeout: 420_000 });
  return campaignId;
}

test(
  'a campaign over repository tasks from the form: ECR and ' +
    'TPR per target, the grader evidence on the attempt page',
  async ({ page }) => {
    test.setTimeout(540_000);
    const id = await runCampaign(page, 'fixtures/repo-tasks', 'image', `e2e repo tasks ${Date.now()}`);
    await page.goto(`/families/repo_task?campaign=${id}`);
    const row = (model: string) => page.getByTestId('family-repo_task').getByRole('row').filter({ hasText: model });
    await expect(row('oracle').getByTestId('tpr')).toContainText(/^100\.0%\s*(\d+)\/\1$/);
    await expect(row('mock').getByTestId('ecr')).toContainText(/^0\.0%\s*0\/\d+$/);
    await shot(page, 'families-run-repo-task-page');

    await page.goto(`/campaigns/${id}`);
    await page
      .getByTestId('fixture-table')
      .getByRole('link', { name: /^Trial 1.*: pass/ })
      .first()
      .click();
    await expect(page.getByTestId('grader-verdict')).toContainText('Result true');
    await expect(page.getByTestId('agent-outputs').getByRole('img')).toBeVisible();
    await shot(page, 'families-run-repo-task-attempt');
    await page
      .getByTestId('repo-task-evidence')
      .screenshot({ path: 'test-results/screens/families-run-repo-task-evidence.png' });
  },
);

test('a campaign over gists from the form: fidelity and line rates, the gist line view on the attempt page', async ({
  page,
}) => {
  test.setTimeout(540_000);
  const id = await runCampaign(page, 'fixtures/gists', 'docopt', `e2e gists ${Date.now()}`);
  await page.goto(`/families/gist?campaign=${id}`);
  const row = (model: string) => page.getByTestId('family-gist').getByRole('row').filter({ hasText: model });
  await expect(row('oracle').getByTestId('fidelity')).toContainText(/^100\.0%\s*(\d+)\/\1$/);
  await expect(row('mock').getByTestId('fidelity')).toContainText(/^0\.0%\s*0\/\d+$/);
  await shot(page, 'families-run-gist-page');

  await page.goto(`/campaigns/${id}`);
  await page
    .getByTestId('fixture-table')
    .getByRole('link', { name: /^Trial 1.*: pass/ })
    .first()
    .click();
  await expect(page.getByTestId('gist-evidence')).toContainText('Execution fidelity true');
  await expect(page.getByTestId('gist-lines').locator('tr[data-execution="executed"]').first()).toBeVisible();
  await shot(page, 'families-run-gist-attempt');
  await page.getByTestId('gist-evidence').screenshot({ path: 'test-results/screens/families-run-gist-evidence.png' });
});
