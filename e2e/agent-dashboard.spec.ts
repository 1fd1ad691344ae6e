import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { shot, signedInAs } from './support';

// An agent-mode campaign as the worker leaves one (e2e/seed-agent.ts campaign agent): targets and
// attempts in output mode agent, each with a trajectory and a try whose evidence has no sandbox of
// the answer's own and no transcript. Compare, the leaderboard's filters and the attempt page must
// treat it as an agent's, not as a single answer's.
const root = path.resolve(import.meta.dirname, '..');
let seeded: { campaignId: string; attempts: { id: string; modelId: string }[] };

test.use(signedInAs('viewer'));

test.beforeAll(() => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-agent.ts', 'campaign', 'agent'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed-agent campaign agent failed: ${run.stderr}`);
  seeded = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
});

test(
  'compare takes two agent targets, and the leaderboard ' + 'filters its agents table by mode, difficulty and campaign',
  async ({ page }) => {
    // The campaign page brings the campaign's stored figures up to date, as a reader's first visit does.
    await page.goto(`/campaigns/${seeded.campaignId}`);
    await expect(page.getByRole('heading', { name: /Seeded agent-mode agent campaign/ })).toBeVisible();

    const scope = `campaign=${seeded.campaignId}`;
    await page.goto(
      `/compare?a=${encodeURIComponent('simulated-agent/strong|agent')}&` +
        `b=${encodeURIComponent('simulated-agent/weak|agent')}&${scope}`,
    );
    await expect(page.getByText('Choose two targets')).toHaveCount(0);
    await expect(page.getByTestId('mcnemar')).toContainText('Of 3 fixtures both ran');
    await expect(page.locator('select[name="a"]')).toHaveValue('simulated-agent/strong|agent');
    await shot(page, 'compare-agent-targets');

    await page.goto(`/?mode=agent&${scope}`);
    await expect(page.locator('select[name="mode"]')).toHaveValue('agent');
    const agents = page.getByTestId('leaderboard-agent-stats');
    await expect(agents).toContainText('simulated-agent/strong');
    await expect(agents).toContainText('simulated-agent/weak');
    await shot(page, 'leaderboard-agent-filter');
    // Filters that keep none of its attempts leave no agents table, where it listed every agent target.
    for (const filters of [
      `mode=text&${scope}`,
      `mode=agent&difficulty=hard&${scope}`,
      `mode=agent&domain=rebase&${scope}`,
    ]) {
      await page.goto(`/?${filters}`);
      await expect(page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
      await expect(page.getByTestId('leaderboard-agent-stats'), filters).toHaveCount(0);
    }
  },
);

test("an agent attempt's page shows its trajectory without the single-answer sections that contradict it", async ({
  page,
}) => {
  await page.goto(`/attempts/${seeded.attempts[0]!.id}`);
  await expect(page.getByRole('heading', { name: 'Agent trajectory' })).toBeVisible();
  await expect(page.getByTestId('agent-sandbox')).toContainText(
    'each one, with its output and exit code, is a step of the trajectory',
  );
  await expect(page.getByText(/No sandbox ran for this try/)).toHaveCount(0);
  await expect(page.getByText('No transcript was recorded for this try.')).toHaveCount(0);
  await shot(page, 'agent-attempt-page');
});

test(
  'the methodology says what an agent step is, how each ' + 'exit status counts, and what a solved fixture costs',
  async ({ page }) => {
    await page.goto('/methodology#agents');
    await expect(page.getByRole('heading', { name: 'Agents: steps, exit statuses, solved fixtures' })).toBeVisible();
    const statuses = page.getByTestId('methodology-exit-statuses');
    const row = (status: string) =>
      statuses.getByRole('row').filter({ has: page.getByRole('cell', { name: status, exact: true }) });
    await expect(row('submitted')).toContainText(/the agent called submit\s*yes\s*yes/);
    await expect(row('turn_limit')).toContainText('(a limit)');
    await expect(row('tampering')).toContainText(/no\s*yes$/);
    await expect(row('sandbox_error')).toContainText('no (excluded)');
    await expect(page.getByText(/Cost per solved fixture/)).toBeVisible();
    await shot(page, 'methodology-agents');
  },
);
