import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { pages, routes, urlOf } from './routes';
import { authStatePath } from './users';

/**
 * Every route handler and every page of the app, found on disk, is checked against the access rules:
 * anonymous callers get 401 from the API and a redirect to sign-in from pages; viewers get 403 from
 * every state-changing route. A route or page added without the guard fails here until it has one.
 */

/** Reachable without signing in, on purpose. */
const PUBLIC_ROUTES: Record<string, string> = {
  '/api/auth/[...all]': 'Better Auth itself: sign-in, sign-out, OpenID Connect callbacks',
  '/api/health': 'load balancers; anonymous callers learn only up or down',
  '/api/setup': 'the first-run form; refuses as soon as a user exists',
};
const PUBLIC_PAGES: Record<string, string> = {
  '/sign-in': 'where everyone else is sent',
  '/setup': 'first run only; redirects to sign-in once a user exists',
};
/**
 * What needs more than the default: reading (GET, pages) needs a viewer, changing anything a member.
 * Keys are pages, or `METHOD /api/...` patterns.
 */
const REQUIRES: Record<string, 'member' | 'admin'> = {
  '/campaigns/new': 'member',
  '/settings/tokens': 'member',
  '/settings/users': 'admin',
  '/settings/audit': 'admin',
  '/settings/provider-keys': 'admin',
  'GET /api/profiles': 'member',
  'GET /api/export/campaigns/[id]': 'member',
  'GET /api/export/leaderboard': 'member',
  'GET /api/tokens': 'member',
  'GET /api/users': 'admin',
  'POST /api/users': 'admin',
  'PATCH /api/users/[id]': 'admin',
  'GET /api/audit': 'admin',
  'GET /api/provider-keys': 'admin',
  'POST /api/provider-keys': 'admin',
  'DELETE /api/provider-keys/[name]': 'admin',
};
const BELOW: Record<'member' | 'admin', ('viewer' | 'member')[]> = { member: ['viewer'], admin: ['viewer', 'member'] };

const guardedRoutes = routes.filter((r) => !(r.pattern in PUBLIC_ROUTES));
const guardedPages = pages.filter((p) => !(p in PUBLIC_PAGES));

async function as(role: 'viewer' | 'member' | null, baseURL: string): Promise<APIRequestContext> {
  // Explicitly empty for anonymous: a context made inside a test otherwise takes the config's default (a member).
  return request.newContext({
    baseURL,
    storageState: role ? authStatePath(role) : { cookies: [], origins: [] },
    maxRedirects: 0,
  });
}

const json = { 'content-type': 'application/json' };

test('the app has the routes and pages this test expects to find', () => {
  expect(routes.length).toBeGreaterThan(8);
  expect(pages).toContain('/campaigns/[id]');
  for (const p of Object.keys(PUBLIC_ROUTES)) expect(routes.map((r) => r.pattern)).toContain(p);
  for (const r of routes) expect(r.methods.length, `${r.pattern} exports no handler`).toBeGreaterThan(0);
});

test('anonymous callers get 401 from every API route that is not public', async ({ baseURL }) => {
  const api = await as(null, baseURL!);
  for (const r of guardedRoutes) {
    for (const method of r.methods) {
      const res = await api.fetch(urlOf(r.pattern), {
        method,
        headers: { ...json, origin: baseURL! },
        data: method === 'GET' ? undefined : '{}',
      });
      expect(res.status(), `${method} ${r.pattern}`).toBe(401);
      expect(await res.text(), `${method} ${r.pattern}`).toContain('Sign in first');
    }
  }
});

test('anonymous visitors of every page are sent to sign in', async ({ baseURL }) => {
  const web = await as(null, baseURL!);
  for (const p of guardedPages) {
    const res = await web.get(urlOf(p));
    expect(res.status(), p).toBe(307);
    expect(res.headers().location, p).toMatch(/^\/sign-in(\?next=|$)/);
  }
});

test('viewers get 403 from every state-changing route, and members from what only admins may do', async ({
  baseURL,
}) => {
  for (const who of ['viewer', 'member'] as const) {
    const api = await as(who, baseURL!);
    for (const r of guardedRoutes) {
      for (const method of r.methods) {
        const needs = REQUIRES[`${method} ${r.pattern}`] ?? (method === 'GET' ? 'viewer' : 'member');
        if (needs === 'viewer' || !BELOW[needs].includes(who)) continue;
        const res = await api.fetch(urlOf(r.pattern), {
          method,
          headers: { ...json, origin: baseURL! },
          data: method === 'GET' ? undefined : '{}',
        });
        expect(res.status(), `${who}: ${method} ${r.pattern}`).toBe(403);
      }
    }
    for (const p of guardedPages.filter((p) => REQUIRES[p] && BELOW[REQUIRES[p]!].includes(who))) {
      const res = await api.get(urlOf(p));
      expect(res.status(), `${who}: ${p}`).toBe(403);
    }
  }
});

test('viewers can read every other page (or are told it does not exist)', async ({ baseURL }) => {
  const web = await as('viewer', baseURL!);
  for (const p of guardedPages.filter((p) => !REQUIRES[p])) {
    const res = await web.get(urlOf(p));
    expect([200, 404], p).toContain(res.status());
  }
});
