import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, request, test, type Page } from '@playwright/test';
import { shot, signedInAs } from './support';
import { authStatePath } from './users';

// Agent campaigns are seeded as the runtime leaves them (e2e/seed-agent.ts): trajectories from the
// seeded factory, with merges, rebases, conflicts, failing commands, big outputs and limits.
const root = path.resolve(import.meta.dirname, '..');
function seed<T>(...args: string[]): T {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-agent.ts', ...args], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed-agent ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T;
}

interface Seeded {
  campaignId: string;
  attempts: {
    id: string;
    modelId: string;
    fixtureId: string;
    trial: number;
    passed: boolean;
    exitStatus: string;
    steps: number;
  }[];
}

test.use(signedInAs('viewer'));

let seeded: Seeded;
test.beforeAll(() => {
  seeded = seed<Seeded>('campaign');
});

async function openFirstAttempt(page: Page) {
  await page.goto(`/campaigns/${seeded.campaignId}`);
  await expect(page.getByRole('heading', { name: /Seeded agent campaign/ })).toBeVisible();
  await shot(page, 'agent-campaign');
  // Drill down: the strong agent's first trial of f001, from the campaign's fixture table.
  await page
    .getByRole('link', { name: /Trial 1.*pass/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/attempts\/att_e2eagent_/);
  await expect(page.getByRole('heading', { name: 'Agent trajectory' })).toBeVisible();
  await expect(page.getByTestId('trajectory-viewer')).toHaveAttribute('data-ready', 'true');
}

test('drill down from a campaign to an agent trajectory, search it, jump, and follow the repository', async ({
  page,
}) => {
  await openFirstAttempt(page);
  const viewer = page.getByTestId('trajectory-viewer');
  await expect(page.getByTestId('trajectory-summary')).toContainText('submitted');
  await expect(viewer.getByTestId('step').first()).toBeVisible();
  await expect(viewer.getByTestId('step-timing').first()).toContainText(/model .* tools/);
  await shot(page, 'trajectory-first-page');

  // Jump to the first failing command: the merge that stopped on a conflict.
  await viewer.getByRole('button', { name: /First failing command \(step \d+\)/ }).click();
  await expect(page).toHaveURL(/step=\d+/);
  const failing = viewer.locator('[data-testid=step].ring-2');
  await expect(failing).toHaveCount(1);
  await expect(failing.locator('[data-testid=tool-call][data-failed=true]').first()).toBeVisible();
  // The repository change of that step: a merge in progress with a conflicted file.
  await expect(failing.getByTestId('repo-change')).toBeVisible();
  await expect(failing.getByTestId('repo-operation')).toContainText(/merge in progress|rebase in progress/i);
  await shot(page, 'trajectory-first-failure');
  await failing.screenshot({ path: 'test-results/screens/trajectory-step-failing.png' });

  // The next step resolves it and commits: HEAD moves and a ref changes.
  const stepIndex = Number(await failing.getAttribute('data-step'));
  // Steps are numbered from 1 where a reader sees them, as the step count is; the URL keeps the index.
  await expect(failing).toContainText(`Step ${stepIndex + 1}`);
  await expect(viewer.getByRole('button', { name: `First failing command (step ${stepIndex + 1})` })).toBeVisible();
  const next = viewer.locator(`[data-step="${stepIndex + 1}"]`);
  await expect(next.getByTestId('repo-head')).toContainText('→');
  await expect(next.getByTestId('refs-changed')).toBeVisible();
  await next.screenshot({ path: 'test-results/screens/trajectory-step-commit.png' });

  // Search the trajectory (server-side over every step) and jump to the hit.
  await page.getByLabel('Search the trajectory').fill('chekout');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('search-summary')).toContainText(/[1-9]\d* steps? match/);
  const hit = viewer.locator('[data-testid=step].ring-2');
  await expect(hit.getByTestId('tool-output').first()).toContainText("'chekout' is not a git command");
  await shot(page, 'trajectory-search');

  // Matches are marked inside the outputs, case-insensitively, in the steps the search found and no others.
  await page.getByLabel('Search the trajectory').fill('CHEKOUT');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('search-summary')).toContainText(/match \u201cCHEKOUT\u201d/);
  const marked = hit.getByTestId('tool-output').first().getByTestId('search-match');
  await expect(marked.first()).toHaveText('chekout');
  await expect(marked.first()).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  await hit.screenshot({ path: 'test-results/screens/trajectory-search-marked.png' });
  const hitSteps = (await page.getByTestId('search-hits').getByRole('button').allInnerTexts()).map((t) =>
    Number(/step (\d+)/.exec(t)![1]),
  );
  const markedSteps = await viewer
    .locator('[data-testid=step]:has([data-testid=search-match])')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-step')) + 1));
  expect(markedSteps.length).toBeGreaterThan(0);
  for (const n of markedSteps) expect(hitSteps).toContain(n);
  // An empty search clears the marks.
  await page.getByLabel('Search the trajectory').fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(viewer.getByTestId('search-match')).toHaveCount(0);

  // A long output is collapsed to head and tail; "show all" loads that output only.
  await viewer.getByRole('button', { name: 'Last step' }).click();
  const showAllButton = viewer.getByRole('button', { name: /Show all of the output/ });
  await expect(viewer.getByTestId('step').first()).toBeVisible();
  for (let i = 0; i < 5 && (await showAllButton.count()) === 0; i++) {
    await viewer.getByRole('button', { name: '← earlier' }).click();
    await expect(viewer.getByTestId('step').first()).toBeVisible();
  }
  const bigStep = viewer
    .getByTestId('step')
    .filter({ has: page.getByRole('button', { name: /Show all of the output/ }) })
    .first();
  const bigIndex = await bigStep.getAttribute('data-step');
  const big = viewer.locator(`[data-step="${bigIndex}"]`);
  await expect(big.getByTestId('tool-output').first()).toContainText('bytes not loaded');
  await big.screenshot({ path: 'test-results/screens/trajectory-step-big-output.png' });
  await big
    .getByRole('button', { name: /Show all of the output/ })
    .first()
    .click();
  await expect(big.getByRole('button', { name: /Show all of the output/ })).toHaveCount(0);
  await expect(big.getByTestId('tool-output').first()).not.toContainText('bytes not loaded');

  // The ATIF export is a download of the same trajectory.
  const res = await page.request.get(
    `/api/attempts/${page.url().match(/attempts\/([^/?#]+)/)![1]}/trajectory.atif.json`,
  );
  expect(res.ok()).toBe(true);
  const atif = (await res.json()) as {
    schema_version: string;
    steps: unknown[];
    final_metrics: { total_steps: number };
  };
  expect(atif.schema_version).toBe('ATIF-v1.4');
  expect(atif.final_metrics.total_steps).toBe(atif.steps.length);
});

test('a limit that stopped the agent is one click away', async ({ page }) => {
  const limited = seeded.attempts.find((a) => a.exitStatus === 'turn_limit' || a.exitStatus === 'cost_limit')!;
  await page.goto(`/attempts/${limited.id}`);
  await expect(page.getByTestId('trajectory-viewer')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('button', { name: /Limit that stopped the agent/ }).click();
  await expect(page.getByTestId('limit-marker')).toBeVisible();
  await expect(page.getByTestId('limit-marker')).toContainText('stopped here');
  await shot(page, 'trajectory-limit');
});

test('compare two trajectories of the same fixture side by side', async ({ page }) => {
  const pass = seeded.attempts.find((a) => a.passed)!;
  const fail =
    seeded.attempts.find((a) => !a.passed && a.fixtureId === pass.fixtureId) ?? seeded.attempts.find((a) => !a.passed)!;
  await page.goto(`/attempts/${pass.id}`);
  await expect(page.getByTestId('trajectory-viewer')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('link', { name: 'Compare with another attempt' }).click();
  await expect(page.getByRole('heading', { name: /Compare trajectories/ })).toBeVisible();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-ready', 'true');
  // The picker offers the other attempts of the fixture; choose the failing one.
  await page.getByLabel('Other attempt').selectOption(fail.fixtureId === pass.fixtureId ? fail.id : { index: 0 });
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByTestId('compare-side-a')).toContainText(pass.modelId);
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('aligned-steps').getByRole('listitem').first()).toBeVisible();
  await page.getByRole('button', { name: /First step where the repositories part \(step \d+\)/ }).click();
  await expect(page.getByTestId('compare-steps').getByTestId('step')).toHaveCount(2);
  await expect(page.getByTestId('compare-steps').getByTestId('repo-change').first()).toBeVisible();
  await shot(page, 'trajectory-compare');
  await page.getByTestId('compare-steps').screenshot({ path: 'test-results/screens/trajectory-compare-steps.png' });
});

test('a viewer compares with a published attempt even when an unpublished one would come first', async ({
  baseURL,
}) => {
  // A live campaign is unpublished; its running attempt of the fixture, not finished yet, sorts
  // first and has the other verdict: the default a member gets. A viewer may not open it, so the
  // picker neither offers nor chooses it, and only naming it explicitly is refused. No browser needed.
  const pass = seeded.attempts.find((a) => a.passed && a.fixtureId === 'f001')!;
  const live = seed<{ campaignId: string; attemptId: string }>('live');
  seed('append', live.attemptId, '2');
  const as = (role: 'viewer' | 'member') =>
    request.newContext({ baseURL, storageState: authStatePath(role), maxRedirects: 0 });
  const viewer = await as('viewer');
  const res = await viewer.get(`/attempts/${pass.id}/compare`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain('data-testid="compare-side-b"');
  expect(html).not.toContain(live.attemptId);
  expect((await viewer.get(`/attempts/${pass.id}/compare?with=${live.attemptId}`)).status()).toBe(403);
  expect((await viewer.get(`/attempts/${live.attemptId}/compare`)).status()).toBe(403);
  const member = await as('member');
  const all = await member.get(`/attempts/${pass.id}/compare`);
  expect(all.status()).toBe(200);
  expect(await all.text()).toContain(`href="/attempts/${live.attemptId}"`);
  await viewer.dispose();
  await member.dispose();
});

test.describe('while the agent runs', () => {
  // A running campaign is not published yet: its reviewers (members) watch it; viewers wait.
  test.use(signedInAs('member'));

  test('a running trajectory shows new steps as they are written', async ({ page }) => {
    const live = seed<{ campaignId: string; attemptId: string }>('live');
    await page.goto(`/attempts/${live.attemptId}`);
    // Before its first step, the page waits for one, then shows the viewer on its own.
    await expect(page.getByTestId('trajectory-waiting')).toBeVisible();
    seed('append', live.attemptId, '2');
    await expect(page.getByTestId('trajectory-viewer')).toHaveAttribute('data-ready', 'true', { timeout: 10_000 });
    await expect(page.getByTestId('live-indicator')).toContainText('2 steps so far');
    await expect(page.getByTestId('trajectory-viewer').getByTestId('step')).toHaveCount(2);
    seed('append', live.attemptId, '3');
    await expect(page.getByTestId('live-indicator')).toContainText('5 steps so far', { timeout: 10_000 });
    await expect(page.getByTestId('trajectory-viewer').locator('[data-step="4"]')).toBeVisible();
    // Not shot(): that waits for the network to go idle, which a page polling every 1.5 s may never do.
    await page.screenshot({ path: 'test-results/screens/trajectory-live.png', fullPage: true });
    seed('append', live.attemptId, '2', 'finish');
    await expect(page.getByTestId('trajectory-summary')).toContainText('submitted', { timeout: 15_000 });
    await expect(page.getByTestId('live-indicator')).toHaveCount(0);
    await expect(page.getByTestId('trajectory-steps')).toHaveText('7');
  });
});
