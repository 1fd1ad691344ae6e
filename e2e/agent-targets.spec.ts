import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { shot } from './support';

// A target is an agent with a model: the form offers the agents beside our own loop, and the tables
// show agent and model in columns of their own.

const root = path.resolve(import.meta.dirname, '..');

function seedTargets(): { campaignId: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-agent.ts', 'targets'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed-agent targets failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { campaignId: string };
}

test('the form offers the agents in agent mode, our own loop chosen, and counts a target per agent and model', async ({
  page,
}) => {
  await page.goto('/campaigns/new');
  await page.getByLabel('Name', { exact: true }).fill(`e2e agents ${Date.now()}`);
  await page.getByLabel('oracle', { exact: true }).check();
  await page.getByRole('group', { name: 'Domains' }).getByLabel('git_clean', { exact: true }).check();
  await page.getByLabel('Trials').fill('1');
  const agents = page.getByRole('group', { name: /^Agents/ });
  // Only agent mode has agents.
  await expect(agents).toHaveCount(0);
  await page.getByLabel('text', { exact: true }).uncheck();
  await page.getByLabel('agent', { exact: true }).check();
  await expect(agents.getByLabel(/^gitbench/)).toBeChecked();
  // Each third-party agent with its pinned version and protocol.
  await expect(agents).toContainText(/claude-code\s*Claude Code \d+\.\d+\.\d+, anthropic-messages/);
  await expect(agents).toContainText(/codex\s*Codex CLI \d+\.\d+\.\d+, openai-responses/);
  await expect(page.getByTestId('estimate')).toContainText('1 target(s)');
  await agents.getByLabel(/^codex/).check();
  await agents.getByLabel(/^claude-code/).check();
  await expect(page.getByTestId('estimate')).toContainText('3 target(s)');
  await shot(page, 'agent-targets-form');
  // No agent at all is refused on the field, by the server's rule.
  for (const name of ['gitbench', 'codex', 'claude-code']) await agents.getByLabel(new RegExp(`^${name}`)).uncheck();
  await expect(agents.getByRole('alert')).toContainText('Choose at least one agent');
});

test('the campaign and model pages show agent and model apart', async ({ page }) => {
  const { campaignId } = seedTargets();
  await page.goto(`/campaigns/${campaignId}`);
  const table = page.getByTestId('per-model');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  // One agent (codex) with two models, and two agents (claude-code, codex) with one model (oracle): the
  // model's cell links to the model's page, the agent has a cell of its own.
  const pairs = await rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim());
      return [
        tr.querySelector('a[href*="/models"]')?.textContent?.trim(),
        cells.find((t) => /^(claude-code|codex|gitbench)$/.test(t)),
      ];
    }),
  );
  expect(pairs.sort()).toEqual([
    ['nop', 'codex'],
    ['oracle', 'claude-code'],
    ['oracle', 'codex'],
  ]);
  await expect(table.getByRole('columnheader', { name: /Agent/ })).toBeVisible();
  await shot(page, 'agent-targets-campaign');

  await page.goto(`/models?id=oracle&campaign=${campaignId}`);
  await expect(
    page.getByTestId('model-by-domain').getByRole('columnheader', { name: /agent · claude-code/ }),
  ).toBeVisible();
  await expect(page.getByTestId('model-by-domain').getByRole('columnheader', { name: /agent · codex/ })).toBeVisible();
  await shot(page, 'agent-targets-model');
});
