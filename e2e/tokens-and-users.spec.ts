import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, request, test } from '@playwright/test';
import { anonymous, shot, signedInAs } from './support';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The `gitbench` command as a CI job runs it: against the web app, with a token. */
function gitbench(args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'apps/cli/bin/gitbench.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test(
  'a member makes an API token in the UI, the CLI runs a ' + 'campaign with it over HTTP, and once revoked it gets 401',
  async ({ page, baseURL }) => {
    test.setTimeout(300_000);
    await page.goto('/settings/tokens');
    await page.getByLabel('Name').fill(`e2e cli ${Date.now()}`);
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token-value').textContent())!.trim();
    expect(token).toMatch(/^gbt_/);
    await shot(page, 'settings-tokens-created');
    // Shown once: after a reload only its first characters are listed.
    await page.reload();
    await expect(page.getByTestId('tokens')).toContainText(token.slice(0, 10));
    await expect(page.locator('body')).not.toContainText(token);

    const env = {
      GITBENCH_URL: baseURL!,
      GITBENCH_TOKEN: token,
      DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/unused',
    };
    const name = `e2e via token ${Date.now()}`;
    const created = gitbench(
      [
        'campaign',
        'create',
        '--name',
        name,
        '--model',
        'oracle',
        '--fixtures',
        'fixtures',
        '--domain',
        'git_clean',
        '--trials',
        '1',
        '--wait',
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.split('\n')[0]!.trim();
    expect(id).toMatch(/^cmp_/);
    expect(created.stdout).toContain('completeness: complete');
    const status = gitbench(['campaign', 'status', id, '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).campaign.createdBy).toBe('e2e-member@gitbench.test');
    const exported = gitbench(['campaign', 'export', id, '--format', 'csv'], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim().split('\n').length).toBeGreaterThan(1);

    await page
      .getByRole('button', { name: /^Revoke e2e cli/ })
      .first()
      .click();
    await expect(page.getByTestId('tokens')).toContainText('revoked');
    const refused = gitbench(['campaign', 'status', id], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refused the token');
    const api = await request.newContext({ baseURL, storageState: anonymous.storageState });
    const res = await api.get(`/api/campaigns/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(401);
    expect(await res.json()).toEqual({ error: 'The API token is unknown, revoked or expired.' });

    // The admin reads who did it, and how.
    const admin = await request.newContext({ baseURL, ...signedInAs('admin') });
    const audit = (await (await admin.get('/api/audit?limit=50')).json()) as {
      events: { action: string; actorEmail: string; via: string; targetId: string | null }[];
    };
    const mine = audit.events.filter((e) => e.actorEmail === 'e2e-member@gitbench.test');
    expect(mine).toContainEqual(expect.objectContaining({ action: 'campaign.create', via: 'token', targetId: id }));
    expect(mine).toContainEqual(expect.objectContaining({ action: 'campaign.export', via: 'token', targetId: id }));
    expect(mine.map((e) => e.action)).toEqual(expect.arrayContaining(['token.create', 'token.revoke']));
  },
);

test.describe('as an admin', () => {
  test.use(signedInAs('admin'));

  test(
    'adds a user who signs in with the password shown once, changes ' +
      'their role, deactivates them, and reads it in the audit log',
    async ({ page, browser, baseURL }) => {
      const email = `e2e-temp-${Date.now()}@gitbench.test`;
      await page.goto('/settings/users');
      const add = page.getByRole('form', { name: 'Add a user' });
      await add.getByLabel('Email').fill(email);
      await add.getByLabel('Name').fill('Temp');
      await add.getByLabel('Role').selectOption('viewer');
      await page.getByRole('button', { name: 'Add user' }).click();
      const password = (await page.getByTestId('new-user').locator('code').textContent())!.trim();
      await shot(page, 'settings-users');

      const theirs = await browser.newContext({ baseURL, ...anonymous });
      const them = await theirs.newPage();
      await them.goto('/campaigns/new');
      await expect(them).toHaveURL(/\/sign-in\?next=%2Fcampaigns%2Fnew/);
      await them.getByLabel('Email').fill(email);
      await them.getByLabel('Password').fill(password);
      await them.getByRole('button', { name: 'Sign in' }).click();
      // A viewer is sent back to where they wanted to go, and refused there.
      await expect(them.getByTestId('forbidden')).toBeVisible();
      await expect(them.getByTestId('signed-in-as')).toContainText(`${email} · viewer`);

      await page.getByLabel(`Role of ${email}`).selectOption('member');
      await expect(page.getByLabel(`Role of ${email}`)).toHaveValue('member');
      await them.reload();
      await expect(them.getByRole('heading', { name: 'New campaign' })).toBeVisible();

      await page
        .getByTestId('users')
        .getByRole('row')
        .filter({ hasText: email })
        .getByRole('button', { name: 'Deactivate' })
        .click();
      await expect(page.getByTestId('users').getByRole('row').filter({ hasText: email })).toContainText('deactivated');
      await them.reload();
      await expect(them).toHaveURL(/\/sign-in/);
      await theirs.close();

      await page.goto('/settings/audit');
      const log = page.getByTestId('audit-log');
      await expect(log.getByRole('row').filter({ hasText: 'user.create' }).filter({ hasText: email })).toHaveCount(1);
      await expect(log.getByRole('row').filter({ hasText: 'user.update' }).filter({ hasText: email })).toHaveCount(2);
      await shot(page, 'settings-audit');
    },
  );
});
