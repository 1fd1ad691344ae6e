import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { shot, signedInAs } from './support';

// The task families' pages and evidence views, over a campaign seeded with evidence records shaped as
// the worker writes them (e2e/seed-families.ts), read as a viewer.
test.use(signedInAs('viewer'));

let seeded: { campaignId: string; attempts: Record<string, string> };
test.beforeAll(() => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-families.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seeding the families failed: ${run.stderr}`);
  seeded = JSON.parse(run.stdout.trim().split('\n').pop()!);
});

test("a repository task's attempt shows the agent's output files and the grader's verdict with its comments", async ({
  page,
}) => {
  await page.goto(`/attempts/${seeded.attempts['repo-pass']}`);
  const verdict = page.getByTestId('grader-verdict');
  await expect(verdict).toContainText('Process true');
  await expect(verdict).toContainText('Result true');
  await expect(verdict.getByLabel('grader comments')).toContainText('mean absolute difference 0.31');
  const outputs = page.getByTestId('agent-outputs');
  await expect(outputs.getByRole('img', { name: 'Output output/photo_grey.png' })).toBeVisible();
  await expect(outputs).toContainText('77 bytes');
  await expect(outputs.getByLabel('content of output/notes.txt')).toContainText('converted 1 image');
  await shot(page, 'families-repo-task');

  await page.goto(`/attempts/${seeded.attempts['repo-timeout']}`);
  await expect(page.getByTestId('grader-verdict')).toContainText('Process false');
  await expect(page.getByTestId('grader-verdict')).toContainText('did not finish within its time limit');
});

test("a gist's lines are marked executed, not executed, or not found in the original", async ({ page }) => {
  await page.goto(`/attempts/${seeded.attempts['gist-pass']}`);
  const view = page.getByTestId('gist-evidence');
  await expect(view).toContainText('Execution fidelity true');
  await expect(page.getByTestId('gist-legend')).toContainText('not found in the original');
  const line = (text: string) => page.getByTestId('gist-lines').getByRole('row').filter({ hasText: text });
  await expect(line('tokens = source.split()')).toHaveAttribute('data-execution', 'executed');
  await expect(line('tokens = source.split()')).toContainText('RUN');
  await expect(line('return repr(self) == repr(other)')).toHaveAttribute('data-execution', 'not_executed');
  await expect(line('return repr(self) == repr(other)')).toContainText('NOT RUN');
  await expect(line('return x * 2')).toHaveAttribute('data-existence', 'missing');
  await expect(line('return x * 2')).toContainText('✗ not found');
  await shot(page, 'families-gist-lines');
});

test('a merge conflict attempt shows the diff between the agent’s tree and the merge commit', async ({ page }) => {
  await page.goto(`/attempts/${seeded.attempts.mcr}`);
  const diff = page.getByTestId('mcr-diff');
  await expect(diff).toContainText('git diff 4f1c2d9e8a7b HEAD');
  await expect(diff).toContainText('-        with open(path, encoding="utf-8") as f:');
  await expect(diff).toContainText('+        with open(path) as f:');
  await shot(page, 'families-ggb-mcr');
});

test('an interactive rebase attempt shows both histories side by side and both judge verdicts with reasons', async ({
  page,
}) => {
  await page.goto(`/attempts/${seeded.attempts.ir}`);
  await expect(page.getByTestId('history-original').getByRole('listitem')).toHaveCount(3);
  await expect(page.getByTestId('history-agent')).toContainText('Add a range parser that splits on the first dash');
  const judge = page.getByTestId('ggb-judge');
  await expect(judge.getByRole('listitem')).toHaveCount(2);
  await expect(judge).toContainText("agent's history shown as HISTORY-2");
  await expect(judge).toContainText('History 2 is one coherent commit');
  await shot(page, 'families-ggb-ir');

  await page.goto(`/attempts/${seeded.attempts.icc}`);
  await expect(page.getByTestId('ggb-judge')).toContainText('Unscored: the judge returned no structured verdict');
});

test('the family pages show each paper’s metrics with numerators, denominators and intervals', async ({ page }) => {
  const q = `?campaign=${seeded.campaignId}`;
  await page.goto(`/families/repo_task${q}`);
  const repo = page.getByTestId('family-repo_task');
  await expect(repo.getByTestId('ecr')).toContainText('66.7%');
  await expect(repo.getByTestId('ecr')).toContainText('2/3');
  await expect(repo.getByTestId('ecr')).toHaveAttribute('title', /95% Wilson interval/);
  await expect(repo.getByTestId('tpr')).toContainText('1/3');
  await expect(repo.getByTestId('alpha')).toContainText('over 2 tasks; 1 left out (cost unknown)');
  await shot(page, 'families-repo-task-page');

  await page.goto(`/families/gist${q}`);
  await expect(page.getByTestId('family-gist').getByTestId('fidelity')).toContainText('1/2');
  await expect(page.getByTestId('family-gist')).toContainText('missing test 1');

  await page.goto(`/families/ggb${q}`);
  const all = page.getByTestId('family-ggb-scenario').getByRole('row').filter({ hasText: 'All scenarios' });
  await expect(all.getByTestId('ggb-success')).toContainText('3/3');
  await expect(all.getByTestId('ggb-solve')).toContainText('1/2');
  await expect(page.getByTestId('family-ggb-band')).toContainText('Interactive rebase (IR)');
  await shot(page, 'families-ggb-page');

  await page.goto(`/families${q}`);
  await expect(page.getByTestId('family-section-gist')).toBeVisible();
  await shot(page, 'families-overview');

  await page.goto('/methodology#families');
  await expect(page.getByTestId('methodology-repo_task')).toContainText('72.22%');
  await expect(page.getByTestId('suite-size-repo_task')).toHaveText(/^\d+ tasks$/);
  await expect(page.getByTestId('suite-size-gist')).toHaveText(/^\d+ gist tasks$/);
  await expect(page.getByTestId('methodology-ggb')).toContainText('21.11% solved');
  await shot(page, 'families-methodology');
});
