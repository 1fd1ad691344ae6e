import { expect, test, type Page } from '@playwright/test';
import { shot } from './support';

// The task families on the agent runtime: campaigns posted to the campaign API as the form posts them,
// in the agent output mode, with the built-in agents (oracle: plays each fixture's reference through
// the tools; nop: submits without acting), then the family pages and evidence views read the result.

/** Posted from a page of the app (its origin is the request's), as the form posts. */
async function agentCampaign(page: Page, suiteDir: string, domain: string, toolSet = 'default'): Promise<string> {
  const name = `e2e agents ${domain} ${Date.now()}`;
  const res = await page.request.post('/api/campaigns', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      name,
      models: ['oracle', 'nop'],
      outputModes: ['agent'],
      agent: { toolSet },
      fixtures: { suiteDir, domains: [domain], difficulties: [], tags: [], ids: [] },
      trials: 1,
      seed: 1,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { campaignId } = (await res.json()) as { campaignId: string };
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByTestId('campaign-status')).toHaveText('completed', { timeout: 420_000 });
  return campaignId;
}

test(
  'agent campaigns over repository tasks, gists and GitGoodBench ' +
    'MCR: the oracle agent solves, nop does not, and the evidence shows',
  async ({ page }) => {
    test.setTimeout(900_000);
    await page.goto('/families');
    const repo = await agentCampaign(page, 'fixtures/repo-tasks', 'text');
    const gist = await agentCampaign(page, 'fixtures/gists', 'inflection');
    // The oracle plays a merge's resolution through bash and the editor (GitGoodBench's own tools have no oracle
    // script).
    const mcr = await agentCampaign(page, 'fixtures/ggb', 'mcr', 'bash+editor');

    await page.goto(`/families/repo_task?campaign=${repo}`);
    const repoRow = (m: string) => page.getByTestId('family-repo_task').getByRole('row').filter({ hasText: m });
    await expect(repoRow('oracle').getByTestId('tpr')).toContainText(/^100\.0%\s*(\d+)\/\1$/);
    await expect(repoRow('nop').getByTestId('ecr')).toContainText(/^0\.0%\s*0\/\d+$/);
    await shot(page, 'families-agent-repo-task-page');

    await page.goto(`/families/gist?campaign=${gist}`);
    const gistRow = (m: string) => page.getByTestId('family-gist').getByRole('row').filter({ hasText: m });
    await expect(gistRow('oracle').getByTestId('fidelity')).toContainText(/^100\.0%\s*(\d+)\/\1$/);
    await expect(gistRow('nop').getByTestId('fidelity')).toContainText(/^0\.0%\s*0\/\d+$/);
    await shot(page, 'families-agent-gist-page');

    await page.goto(`/families/ggb?campaign=${mcr}`);
    const mcrRow = (m: string) =>
      page
        .getByTestId('family-ggb-scenario')
        .getByRole('row')
        .filter({ hasText: m })
        .filter({ hasText: 'Merge conflict resolution' });
    await expect(mcrRow('oracle').getByTestId('ggb-solve')).toContainText(/^100\.0%\s*(\d+)\/\1$/);
    await expect(mcrRow('nop').getByTestId('ggb-solve')).toContainText(/^0\.0%\s*0\/\d+$/);
    await shot(page, 'families-agent-ggb-page');

    for (const [id, testId, file] of [
      [repo, 'repo-task-evidence', 'repo-task'],
      [gist, 'gist-evidence', 'gist'],
      [mcr, 'mcr-diff', 'mcr'],
    ] as const) {
      await page.goto(`/campaigns/${id}`);
      await page
        .getByTestId('fixture-table')
        .getByRole('link', { name: /^Trial 1.*: fail/ })
        .first()
        .click();
      await expect(page.getByTestId(testId)).toBeVisible();
      await page.getByTestId(testId).screenshot({ path: `test-results/screens/families-agent-${file}-nop.png` });
    }
  },
);
