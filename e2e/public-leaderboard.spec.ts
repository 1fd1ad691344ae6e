import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { pages, routes, urlOf } from './routes';
import { anonymous, shot, signedInAs } from './support';
import { authStatePath } from './users';

/**
 * GITBENCH_PUBLIC_LEADERBOARD, both ways. The suite's own server runs with it unset (the default); this
 * spec starts a second server of the same build with it set to 1, on the next port. Every page and every
 * API route found on disk is asked for by an anonymous caller on both, with the ids of a published
 * campaign and of its attempts: off, nothing is readable; on, the leaderboard, the methodology and a
 * published campaign's aggregates are, and nothing else (no attempt, trajectory, export, setting or API).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PUBLIC_PORT = Number(process.env.GITBENCH_E2E_PORT ?? 3210) + 1;
const PUBLIC_URL = `http://127.0.0.1:${PUBLIC_PORT}`;

/** Reachable without signing in whatever the setting (access.spec.ts says why). */
const ALWAYS_PUBLIC_PAGES = ['/sign-in', '/setup'];
const ALWAYS_PUBLIC_ROUTES = ['/api/auth/[...all]', '/api/health', '/api/setup'];
/** What the public leaderboard opens to anonymous visitors; `/campaigns/[id]` only for a published campaign. */
const PUBLIC_PAGES = ['/', '/methodology', '/campaigns/[id]'];
/** Links an anonymous visitor must never be offered: each leads to raw outputs, settings or the API. */
const PRIVATE_HREF =
  /href="\/(attempts|api|models|fixtures|settings|campaigns\/new|compare|quadrant|families|suites|status)\b/;

let seeded: { published: { id: string; attempt: string }; unpublished: { id: string; attempt: string } };
let server: ChildProcess | undefined;
let serverOutput = '';

async function as(role: 'viewer' | null, baseURL: string): Promise<APIRequestContext> {
  return request.newContext({
    baseURL,
    storageState: role ? authStatePath(role) : { cookies: [], origins: [] },
    maxRedirects: 0,
  });
}

/** A concrete URL for a page or route, with the published campaign's id, or its attempt's under /attempts. */
function urlWith(pattern: string, ids: { id: string; attempt: string }): string {
  return urlOf(pattern, /^\/(api\/)?attempts\//.test(pattern) ? ids.attempt : ids.id);
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(240_000);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/seed-public.ts'], {
    cwd: ROOT,
    env: process.env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seeding the public campaigns failed: ${run.stderr}`);
  seeded = JSON.parse(run.stdout.trim().split('\n').pop()!);
  // Published the way a member does it, through the audited route.
  const member = await request.newContext({ baseURL, storageState: authStatePath('member') });
  const published = await member.post(`/api/campaigns/${seeded.published.id}/publish`, {
    headers: { 'content-type': 'application/json', origin: baseURL! },
    data: { publish: true },
  });
  expect(published.status(), await published.text()).toBe(200);
  await member.dispose();

  server = spawn('npm', ['run', 'start', '-w', '@gitbench/web', '--', '-p', String(PUBLIC_PORT), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, GITBENCH_ROOT: ROOT, GITBENCH_PUBLIC_LEADERBOARD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  server.stdout!.on('data', (c: Buffer) => (serverOutput += c.toString()));
  server.stderr!.on('data', (c: Buffer) => (serverOutput += c.toString()));
  let exited = false;
  server.once('exit', () => (exited = true));
  // Until it answers (or ends): the start takes a while on a loaded machine.
  for (;;) {
    if (exited) throw new Error(`the public server ended before it served:\n${serverOutput.slice(-2000)}`);
    const status = await fetch(`${PUBLIC_URL}/api/health`).then(
      (r) => r.status,
      () => null,
    );
    if (status !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (server?.pid) {
    const ended = new Promise((r) => server!.once('exit', r));
    process.kill(-server.pid, 'SIGTERM');
    await ended;
  }
  // The seeded campaigns leave the other specs' leaderboard as they found it (attempts and stats cascade).
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query('DELETE FROM "Campaign" WHERE id = ANY($1)', [[seeded.published.id, seeded.unpublished.id]]);
  await client.end();
});

test('the spec finds the pages and routes it guards', () => {
  for (const p of PUBLIC_PAGES) expect(pages).toContain(p);
  for (const r of ALWAYS_PUBLIC_ROUTES) expect(routes.map((x) => x.pattern)).toContain(r);
  expect(pages.length).toBeGreaterThan(15);
});

for (const setting of ['off', 'on'] as const) {
  test(
    `public leaderboard ${setting}: anonymous callers get 401 from ` + `every API route, published campaign or not`,
    async ({ baseURL }) => {
      const api = await as(null, setting === 'on' ? PUBLIC_URL : baseURL!);
      for (const ids of [seeded.published, seeded.unpublished]) {
        for (const r of routes.filter((x) => !ALWAYS_PUBLIC_ROUTES.includes(x.pattern))) {
          for (const method of r.methods) {
            const url = urlWith(r.pattern, ids);
            const res = await api.fetch(url, {
              method,
              headers: { 'content-type': 'application/json', origin: baseURL! },
              data: method === 'GET' ? undefined : '{}',
            });
            expect(res.status(), `${method} ${url}`).toBe(401);
          }
        }
      }
      await api.dispose();
    },
  );

  test(`public leaderboard ${setting}: which pages anonymous visitors may read`, async ({ baseURL }) => {
    const web = await as(null, setting === 'on' ? PUBLIC_URL : baseURL!);
    const readable: string[] = [];
    for (const ids of [seeded.published, seeded.unpublished]) {
      for (const p of pages.filter((x) => !ALWAYS_PUBLIC_PAGES.includes(x))) {
        const url = urlWith(p, ids);
        const res = await web.get(url);
        if (res.status() === 200) {
          readable.push(url);
          expect(await res.text(), url).not.toMatch(PRIVATE_HREF);
        } else {
          expect(res.status(), url).toBe(307);
          expect(res.headers().location, url).toMatch(/^\/sign-in(\?next=|$)/);
        }
      }
    }
    expect(readable.sort()).toEqual(
      setting === 'on' ? ['/', '/', '/methodology', '/methodology', `/campaigns/${seeded.published.id}`].sort() : [],
    );
    // A campaign id that does not exist reads as one not published: its existence is not told either.
    expect((await web.get('/campaigns/cmp_doesnotexist')).status()).toBe(307);
    await web.dispose();
  });
}

test.describe('an anonymous visitor of the public leaderboard', () => {
  test.use(anonymous);

  test(
    'reads the published campaign on the leaderboard and its aggregates, ' +
      'never the unpublished one, and is offered sign-in for the rest',
    async ({ page }) => {
      await page.goto(`${PUBLIC_URL}/?suite=public-suite`);
      const board = page.getByTestId('leaderboard');
      await expect(board.getByRole('row').filter({ hasText: 'public/open' })).toHaveCount(1);
      await expect(page.getByText('public/hidden')).toHaveCount(0);
      await expect(page.getByTestId('public-note')).toContainText('Published campaigns only');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link')).toHaveText(['Leaderboard', 'Methodology']);
      await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
      await expect(page.getByText(/Export .*CSV/)).toHaveCount(0);
      await shot(page, 'public-leaderboard');

      // Asking for the unpublished campaign by id shows nothing of it.
      await page.goto(`${PUBLIC_URL}/?campaign=${seeded.unpublished.id}`);
      await expect(page.getByText('public/hidden')).toHaveCount(0);
      await expect(page.getByText('public unpublished')).toHaveCount(0);

      await page.goto(`${PUBLIC_URL}/campaigns/${seeded.published.id}`);
      await expect(page.getByRole('heading', { name: 'public published' })).toBeVisible();
      await expect(page.getByTestId('per-model').getByRole('row').filter({ hasText: 'public/open' })).toHaveCount(1);
      await expect(page.getByTestId('per-model').getByRole('link')).toHaveCount(0);
      await expect(page.getByTestId('review-panel')).toHaveCount(0);
      await expect(page.getByRole('heading', { name: /^Fixtures/ })).toHaveCount(0);
      await expect(page.getByText('By seed')).toHaveCount(0);
      await expect(page.getByTestId('public-note')).toContainText('Sign in for its fixtures and attempts');
      await shot(page, 'public-campaign');

      await page.goto(`${PUBLIC_URL}/methodology`);
      await expect(page.getByRole('heading', { name: 'How GitBench counts' })).toBeVisible();
    },
  );
});

test.describe('a signed-in viewer of the public leaderboard', () => {
  test.use(signedInAs('viewer'));

  test('sees what viewers always see: every campaign, the whole menu, the fixtures and the review', async ({
    page,
  }) => {
    await page.goto(`${PUBLIC_URL}/?suite=public-suite`);
    await expect(page.getByTestId('leaderboard').getByRole('row').filter({ hasText: 'public/hidden' })).toHaveCount(1);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' })).toBeVisible();
    await page.goto(`${PUBLIC_URL}/campaigns/${seeded.published.id}`);
    await expect(page.getByTestId('publication')).toContainText('anyone its aggregates on the public leaderboard');
    await expect(page.getByRole('heading', { name: /^Fixtures/ })).toBeVisible();
  });
});
