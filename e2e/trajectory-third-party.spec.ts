import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { shot, signedInAs } from './support';

// A third-party agent's attempt (Claude Code with the oracle, through the model gateway), seeded as the
// worker leaves one (e2e/seed-third-party.ts): its trajectory rebuilt from the gateway's calls, the
// repository read by GitBench before each call.
const root = path.resolve(import.meta.dirname, '..');
function seed(): { campaignId: string; attemptId: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-third-party.ts'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seed-third-party failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { campaignId: string; attemptId: string };
}

test.use(signedInAs('viewer'));

test(
  "a third-party agent's trajectory shows what each step did to the " +
    "repository, its results as the agent's report, and exports as ATIF",
  async ({ page }) => {
    const { attemptId } = seed();
    await page.goto(`/attempts/${attemptId}`);
    await expect(page.getByRole('heading', { name: 'Agent trajectory' })).toBeVisible();
    const viewer = page.getByTestId('trajectory-viewer');
    await expect(viewer).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('trajectory-summary')).toContainText('claude-code@2.1.332');
    // Three steps: the merge, the resolution and commit, the closing answer (the side question is none).
    await expect(viewer.getByTestId('step')).toHaveCount(3);

    // Step 0 ran `git merge feature`: the agent said it failed, and GitBench read a merge in progress.
    const merge = viewer.locator('[data-step="0"]');
    await expect(merge.getByTestId('tool-call')).toContainText('git merge feature');
    await expect(merge.getByTestId('agent-reported')).toHaveText('reported by the agent');
    await expect(merge.getByTestId('tool-output')).toContainText('CONFLICT (content): Merge conflict in a.txt');
    await expect(merge.getByTestId('repo-operation')).toContainText(/merge in progress/i);
    await expect(merge.getByTestId('step-diff')).toContainText('<<<<<<< HEAD');

    // Step 1 resolved and committed: HEAD moved and main with it, as read, and the diff is the resolution.
    const commit = viewer.locator('[data-step="1"]');
    await expect(commit.getByTestId('agent-reported')).toBeVisible();
    await expect(commit.getByTestId('repo-head')).toContainText(/1111111\s*→\s*2222222/);
    await expect(commit.getByTestId('refs-changed')).toContainText('refs/heads/main');
    await expect(commit.getByTestId('step-diff')).toContainText('+feature');
    await shot(page, 'trajectory-third-party');
    await commit.screenshot({ path: 'test-results/screens/trajectory-third-party-commit.png' });

    // The closing answer has no tool call, so nothing reported by the agent.
    const done = viewer.locator('[data-step="2"]');
    await expect(done).toContainText('Done.');
    await expect(done.getByTestId('agent-reported')).toHaveCount(0);

    // ATIF: the same steps, each result marked as the agent's report, the repository GitBench read in extra.
    const res = await page.request.get(`/api/attempts/${attemptId}/trajectory.atif.json`);
    expect(res.ok()).toBe(true);
    type Step = {
      source: string;
      tool_calls?: unknown[];
      extra?: { gitbench?: { results: { agent_reported?: boolean }[]; repo?: { head: string; operations: string[] } } };
    };
    const atif = (await res.json()) as { schema_version: string; agent: { name: string }; steps: Step[] };
    expect(atif.schema_version).toBe('ATIF-v1.4');
    const agentSteps = atif.steps.filter((s) => s.source === 'agent');
    expect(agentSteps).toHaveLength(3);
    expect(agentSteps.map((s) => s.extra?.gitbench?.results.map((r) => r.agent_reported))).toEqual([
      [true],
      [true],
      [],
    ]);
    expect(agentSteps.map((s) => s.extra?.gitbench?.repo?.head.slice(0, 7))).toEqual(['1111111', '2222222', '2222222']);
    expect(agentSteps[0]!.extra!.gitbench!.repo!.operations).toEqual(['merge']);

    // The gateway's calls the trajectory was rebuilt from: all four, the side question included.
    const calls = await page.request.get(`/api/attempts/${attemptId}/gateway-calls.json`);
    expect(calls.ok()).toBe(true);
    const body = (await calls.json()) as {
      calls: { seq: number; protocol: string; tools: string[]; toolResults: unknown[]; cutBytes: number }[];
    };
    expect(body.calls.map((c) => [c.seq, c.protocol, c.tools.length > 0, c.toolResults.length, c.cutBytes])).toEqual([
      [1, 'messages', false, 0, 0],
      [2, 'messages', true, 0, 0],
      [3, 'messages', true, 1, 0],
      [4, 'messages', true, 1, 0],
    ]);
    // An attempt without a third-party agent has none.
    expect((await page.request.get('/api/attempts/att_none/gateway-calls.json')).status()).toBe(404);
  },
);
