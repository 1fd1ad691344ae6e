import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { routes, urlOf } from './routes';
import { E2E_USERS, shot, signedInAs } from './support';
import { authStatePath } from './users';
import { UPSTREAM_ROOT as UPSTREAM } from '../packages/core/test/fixtures/upstream-data';

/**
 * The security battery over the built app: cross-origin and non-JSON writes refused, body and campaign
 * size limits with their 4xx, a fuzz pass over every route found on disk (never a 5xx, never a hang),
 * and the review-then-publish flow that decides what viewers see. Revoked tokens: tokens-and-users.spec.ts.
 */
const json = { 'content-type': 'application/json' };

async function as(role: 'viewer' | 'member' | 'admin' | null, baseURL: string): Promise<APIRequestContext> {
  return request.newContext({
    baseURL,
    storageState: role ? authStatePath(role) : { cookies: [], origins: [] },
    maxRedirects: 0,
  });
}

test('a cross-site write is refused: another origin gets 403, a form body 415, and nothing is cancelled', async ({
  baseURL,
}) => {
  const api = await as('member', baseURL!);
  const crossOrigin = await api.post('/api/campaigns/cmp_doesnotexist/cancel', {
    headers: { ...json, origin: 'https://evil.example' },
    data: '{}',
  });
  expect(crossOrigin.status()).toBe(403);
  const form = await api.post('/api/campaigns/cmp_doesnotexist/cancel', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseURL! },
    data: 'a=1',
  });
  expect(form.status()).toBe(415);
  const plain = await api.post('/api/campaigns', {
    headers: { 'content-type': 'text/plain', origin: baseURL! },
    data: '{}',
  });
  expect(plain.status()).toBe(415);
});

test('an oversized body gets 413 and an oversized campaign a 400 that names the limit', async ({ baseURL }) => {
  const api = await as('member', baseURL!);
  const headers = { ...json, origin: baseURL! };
  const huge = JSON.stringify({ name: 'x'.repeat(300 * 1024) });
  for (const url of ['/api/campaigns', '/api/campaigns/estimate', '/api/tokens']) {
    const res = await api.post(url, { headers, data: huge });
    expect(res.status(), url).toBe(413);
    expect(await res.text(), url).toContain('GITBENCH_MAX_BODY_BYTES');
  }
  // The request: 10,000 simulated models, the whole suite, 20 trials (about 170 KB).
  const models = Array.from({ length: 10_000 }, (_, i) => `simulated:${i}`);
  const started = Date.now();
  const many = await api.post('/api/campaigns/estimate', { headers, data: { name: 'huge', models, trials: 20 } });
  expect(many.status()).toBe(400);
  expect(JSON.stringify(await many.json())).toContain('GITBENCH_MAX_MODELS_PER_CAMPAIGN');
  expect(Date.now() - started).toBeLessThan(10_000);
  // Within the models limit, past the attempts limit: refused by arithmetic, before any planning.
  const big = {
    name: 'big',
    models: Array.from({ length: 50 }, (_, i) => `simulated:${i}`),
    outputModes: ['text', 'json_schema'],
    trials: 20,
  };
  for (const url of ['/api/campaigns/estimate', '/api/campaigns']) {
    const res = await api.post(url, { headers, data: big });
    expect(res.status(), url).toBe(400);
    expect(JSON.stringify(await res.json()), url).toMatch(
      /the limit is 100,000 attempts per campaign \(GITBENCH_MAX_ATTEMPTS_PER_CAMPAIGN\)/,
    );
  }
  // The server is still there.
  expect((await api.get('/api/health')).status()).toBe(200);
});

test(
  'a campaign naming a replay source that cannot be replayed gets a 400 ' +
    'naming the model field, the source and why, and nothing is created',
  async ({ baseURL }) => {
    const api = await as('member', baseURL!);
    const headers = { ...json, origin: baseURL! };
    // An upstream text-mode result file: GITBENCH_REPLAY_DIRS holds the upstream results (playwright.config.ts).
    const recorded = readdirSync(path.join(UPSTREAM, 'results')).find((f) => f.includes('_text_'))!;
    const campaign = (model: string, outputModes = ['text']) => ({
      name: `e2e replay check ${Date.now()}`,
      models: ['oracle', model],
      outputModes,
      trials: 1,
      fixtures: { suiteDir: 'fixtures', ids: ['blame_forensics/f001'] },
    });
    const count = async () =>
      ((await (await api.get('/api/campaigns?limit=200')).json()) as { campaigns: unknown[] }).campaigns.length;
    const before = await count();
    const refusals: [string, string[], string][] = [
      [
        'replay:gitbench-e2e-absent.json',
        ['text'],
        "models[1]: Replay source 'gitbench-e2e-absent.json' does not " +
          'exist in the configured replay directories (GITBENCH_REPLAY_DIRS).',
      ],
      [
        'replay:/etc/passwd',
        ['text'],
        "models[1]: Replay source '/etc/passwd' lies outside the configured replay directories (GITBENCH_REPLAY_DIRS).",
      ],
      [
        'replay:../../../etc/passwd',
        ['text'],
        "models[1]: Replay source '../../../etc/passwd' lies outside " +
          'the configured replay directories (GITBENCH_REPLAY_DIRS).',
      ],
      [
        `replay:${recorded}`,
        ['agent'],
        `models[1]: 'replay:${recorded}' holds no ATIF trajectory, which the agent ` +
          `output mode replays (a result file replays text and json_schema answers).`,
      ],
    ];
    for (const [model, outputModes, message] of refusals) {
      for (const url of ['/api/campaigns/estimate', '/api/campaigns']) {
        const res = await api.post(url, { headers, data: campaign(model, outputModes) });
        expect(res.status(), `${url} ${model}`).toBe(400);
        expect(await res.json(), `${url} ${model}`).toEqual({ formErrors: [], fieldErrors: { 'models.1': [message] } });
      }
    }
    expect(await count()).toBe(before);
    // The same recording in text mode is accepted (estimated only: nothing is run).
    const valid = await api.post('/api/campaigns/estimate', { headers, data: campaign(`replay:${recorded}`) });
    expect(valid.status()).toBe(200);
  },
);

/** Bodies a careless or hostile client sends: any JSON, broken JSON, wrong types, deep nesting, odd text. */
const bodies = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '{',
    '[',
    '{"models":',
    '{"name":1e999}',
    'null',
    '"\\ud800"',
    '{"__proto__":{"x":1}}',
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  ),
  fc
    .record(
      {
        name: fc.string(),
        models: fc.array(fc.string(), { maxLength: 5 }),
        trials: fc.oneof(fc.integer(), fc.double(), fc.string()),
        fixtures: fc.anything(),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);
const ids = fc.oneof(fc.constant('cmp_doesnotexist'), fc.stringMatching(/^[A-Za-z0-9_%.-]{1,40}$/));

test('fuzz: random and malformed bodies to every route, as every role, never get a 5xx or hang', async ({
  baseURL,
}) => {
  test.setTimeout(240_000);
  const callers = {
    anonymous: await as(null, baseURL!),
    viewer: await as('viewer', baseURL!),
    member: await as('member', baseURL!),
    admin: await as('admin', baseURL!),
  };
  let sent = 0;
  for (const r of routes) {
    for (const method of r.methods) {
      await fc.assert(
        fc.asyncProperty(
          bodies,
          ids,
          fc.constantFrom(...(Object.keys(callers) as (keyof typeof callers)[])),
          async (body, id, who) => {
            const started = Date.now();
            const res = await callers[who].fetch(urlOf(r.pattern, encodeURIComponent(id)), {
              method,
              headers: { ...json, origin: baseURL! },
              ...(method === 'GET' ? {} : { data: body }),
              timeout: 15_000,
            });
            sent++;
            expect(res.status(), `${who} ${method} ${r.pattern} ${body.slice(0, 80)}`).toBeLessThan(500);
            expect(Date.now() - started, `${method} ${r.pattern}`).toBeLessThan(15_000);
          },
        ),
        { numRuns: 12, seed: 20261124 },
      );
    }
  }
  expect(sent).toBeGreaterThan(200);
});

test.describe('review, then publish', () => {
  test(
    'a viewer is refused the launch form, a member launches, reviews ' +
      'and publishes, and only then does the viewer see raw outputs',
    async ({ browser, baseURL }) => {
      test.setTimeout(240_000);
      const viewer = await browser.newContext(signedInAs('viewer'));
      const vpage = await viewer.newPage();
      const refused = await vpage.goto('/campaigns/new');
      expect(refused?.status()).toBe(403);

      const member = await browser.newContext(signedInAs('member'));
      const page = await member.newPage();
      const api = await as('member', baseURL!);
      const created = await api.post('/api/campaigns', {
        headers: { ...json, origin: baseURL! },
        data: {
          name: `e2e review ${Date.now()}`,
          models: ['oracle'],
          trials: 1,
          fixtures: { suiteDir: 'fixtures', ids: ['blame_forensics/f001'] },
        },
      });
      expect(created.status()).toBe(201);
      const { campaignId } = (await created.json()) as { campaignId: string };
      await page.goto(`/campaigns/${campaignId}`);
      await expect(page.getByTestId('campaign-status')).toHaveText('completed', { timeout: 180_000 });
      await page.reload();
      // No reviewer is configured in this deployment: the panel says so, never "ok".
      await expect(page.getByTestId('completeness')).toContainText('Safety review: not configured');
      await expect(page.getByTestId('publication')).toContainText('Not published');

      const attempts = (await (await api.get(`/api/campaigns/${campaignId}/attempts`)).json()) as {
        attempts: { id: string }[];
      };
      const attemptId = attempts.attempts[0]!.id;
      await vpage.goto(`/attempts/${attemptId}`);
      await expect(vpage.getByTestId('raw-hidden')).toBeVisible();
      await expect(vpage.locator('pre[aria-label="model output"]')).toHaveCount(0);

      await page.getByRole('button', { name: 'Approve outputs' }).click();
      await expect(page.getByTestId('safety-review')).toContainText('approved');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByTestId('publication')).toContainText('Published');
      await shot(page, 'campaign-published');

      await vpage.reload();
      await expect(vpage.getByTestId('raw-hidden')).toHaveCount(0);
      await expect(vpage.locator('pre[aria-label="model output"]')).toBeVisible();
      // A viewer cannot publish or decide the review.
      const vapi = await as('viewer', baseURL!);
      expect(
        (
          await vapi.post(`/api/campaigns/${campaignId}/publish`, {
            headers: { ...json, origin: baseURL! },
            data: { publish: false },
          })
        ).status(),
      ).toBe(403);

      const audit = (await (await (await as('admin', baseURL!)).get('/api/audit')).json()) as {
        events: { action: string; targetId: string | null }[];
      };
      expect(audit.events.filter((e) => e.targetId === campaignId).map((e) => e.action)).toEqual(
        expect.arrayContaining(['campaign.create', 'campaign.review', 'campaign.publish']),
      );
      await viewer.close();
      await member.close();
    },
  );
});

test('every answer carries the security headers', async ({ baseURL }) => {
  const api = await as(null, baseURL!);
  for (const url of ['/sign-in', '/api/health', '/api/campaigns']) {
    const h = (await api.get(url)).headers();
    expect(h['content-security-policy'], url).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy'], url).toContain("default-src 'self'");
    expect(h['x-content-type-options'], url).toBe('nosniff');
    expect(h['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
  }
});

/** next values that took Chromium off-site or gave a 500. */
const HOSTILE_NEXT = [
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0d/evil.example',
  '//evil.example',
  '/%5cevil.example',
  '/%E2%80%A8/evil.example',
  '/caf%C3%A9',
];

test('sign-in never sends a signed-in user off-site, and an odd next gives no 500', async ({ page, baseURL }) => {
  for (const next of HOSTILE_NEXT) {
    const res = await page.goto(`/sign-in?next=${next}`);
    expect(res!.status(), next).toBeLessThan(500);
    expect(new URL(page.url()).origin, next).toBe(baseURL);
  }
});

test.describe('signing in through the form', () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test('keeps the user on the site whatever next says', async ({ page, baseURL }) => {
    await page.goto('/sign-in?next=/%09/evil.example');
    await page.getByLabel('Email').fill(E2E_USERS.viewer.email);
    await page.getByLabel('Password').fill(E2E_USERS.viewer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    expect(new URL(page.url()).origin).toBe(baseURL);
    await shot(page, 'security-sign-in-next');
  });
});

test('sign-in is throttled per account, whatever address each attempt claims', async ({ baseURL }) => {
  const api = await as(null, baseURL!);
  const email = `throttled-${Date.now()}@gitbench.test`;
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await api.post('/api/auth/sign-in/email', {
      headers: { ...json, origin: baseURL!, 'x-forwarded-for': `203.0.113.${i + 1}` },
      data: { email, password: `wrong password ${i}` },
    });
    statuses.push(res.status());
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  // Another client's forwarded address does not put anyone else in a bucket: the member still signs in.
  const member = await api.post('/api/auth/sign-in/email', {
    headers: { ...json, origin: baseURL!, 'x-forwarded-for': '203.0.113.1' },
    data: { email: E2E_USERS.member.email, password: E2E_USERS.member.password },
  });
  expect(member.status()).toBe(200);
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

test(
  'the built app refuses to start when published beyond loopback ' +
    'without its public URL, or with a default database password',
  async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { GITBENCH_BIND: '0.0.0.0', GITBENCH_PUBLIC_URL: '' },
        /refusing to start: .*GITBENCH_BIND=0\.0\.0\.0 .*set GITBENCH_PUBLIC_URL/,
      ],
      [
        {
          GITBENCH_BIND: '0.0.0.0',
          GITBENCH_PUBLIC_URL: 'https://gitbench.example.com',
          DATABASE_URL: 'postgresql://gitbench:gitbench@127.0.0.1:5432/gitbench',
        },
        /refusing to start: .*DATABASE_URL has a default password/,
      ],
    ];
    for (const [env, reason] of cases) {
      const port = await freePort();
      const server = spawn(
        'npm',
        ['run', 'start', '-w', '@gitbench/web', '--', '-p', String(port), '-H', '127.0.0.1'],
        {
          cwd: path.resolve(import.meta.dirname, '..'),
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        },
      );
      let output = '';
      server.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      server.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
      // Whichever comes first: the process ends, or it answers a request (then it did start, and serves).
      let answered: number | null = null;
      let done = false;
      void exited.then(() => (done = true));
      while (!done && answered === null) {
        answered = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.status,
          () => null,
        );
        if (answered === null) await new Promise((r) => setTimeout(r, 200));
      }
      if (!done) process.kill(-server.pid!, 'SIGKILL');
      expect(answered, `it served (${answered}):\n${output.slice(-1500)}`).toBeNull();
      expect(await exited).toBe(1);
      expect(output).toMatch(reason);
    }
  },
);
