import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import {
  createApiToken,
  createAuth,
  createFirstAdmin,
  createUser,
  resolveActor,
  revokeApiToken,
  setPassword,
  TokenManagementRefused,
  updateUser,
  UserError,
  type Auth,
} from '../src';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const BASE = 'http://127.0.0.1:3999';

let t: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'auth');
  auth = createAuth({ db: t.db, secretKey: 'x'.repeat(40), publicUrl: BASE });
});
afterAll(async () => {
  await t?.drop();
});

async function signIn(email: string, password: string, origin = BASE): Promise<Response> {
  return auth.handler(
    new Request(`${BASE}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email, password }),
    }),
  );
}

const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

describe('sign-in with Better Auth on our Prisma client (query compiler + adapter-pg)', () => {
  it('creates the first admin only while no user exists, and only once under a race', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        createFirstAdmin(auth, t.db, {
          email: `first${i}@example.test`,
          name: `First ${i}`,
          password: 'correct horse battery',
        }),
      ),
    );
    expect(results.filter((r) => 'id' in r)).toHaveLength(1);
    expect(results.filter((r) => 'error' in r).map((r) => (r as { error: string }).error)).toEqual([
      expect.stringContaining('already has users'),
      expect.stringContaining('already has users'),
    ]);
    expect(await t.db.user.count({ where: { role: 'admin' } })).toBe(1);
  });

  it('signs in with email and password; the password is stored hashed; a wrong password is refused', async () => {
    await createUser(auth, {
      email: 'Member@Example.test',
      name: 'Member',
      password: 'member password 1',
      role: 'member',
    });
    const account = await t.db.account.findFirstOrThrow({ where: { user: { email: 'member@example.test' } } });
    expect(account.providerId).toBe('credential');
    expect(account.password).not.toContain('member password 1');
    expect(account.password).toMatch(/^[0-9a-f]+:[0-9a-f]+$/);

    expect((await signIn('member@example.test', 'wrong password!')).status).toBe(401);
    const ok = await signIn('member@example.test', 'member password 1');
    expect(ok.status).toBe(200);
    const resolved = await resolveActor(auth, t.db, new Headers({ cookie: cookieOf(ok) }));
    expect(resolved.actor).toMatchObject({ email: 'member@example.test', role: 'member', via: 'session' });
  });

  it('refuses a sign-in posted from another origin', async () => {
    await createUser(auth, { email: 'x@example.test', name: 'X', password: 'x password 12', role: 'viewer' });
    const res = await signIn('x@example.test', 'x password 12', 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('nobody signs themselves up', async () => {
    const res = await auth.handler(
      new Request(`${BASE}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: BASE },
        body: JSON.stringify({ email: 'self@example.test', password: 'self password 1', name: 'Self' }),
      }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await t.db.user.count({ where: { email: 'self@example.test' } })).toBe(0);
  });
});

describe('API tokens', () => {
  it('act with their own role capped by the owner, and stop working when revoked or the owner is banned', async () => {
    const owner = await createUser(auth, {
      email: 'tok@example.test',
      name: 'Tok',
      password: 'token owner 1',
      role: 'member',
    });
    const asked = await createApiToken(
      t.db,
      { id: owner.id, role: 'member', via: 'session' },
      { name: 'ci', role: 'admin' },
    );
    expect(asked.role).toBe('member');
    const stored = await t.db.apiToken.findUniqueOrThrow({ where: { id: asked.id } });
    expect(JSON.stringify(stored)).not.toContain(asked.token);

    const bearer = (token: string) => new Headers({ authorization: `Bearer ${token}` });
    expect((await resolveActor(auth, t.db, bearer(asked.token))).actor).toMatchObject({
      userId: owner.id,
      role: 'member',
      via: 'token',
    });

    // Demoting the owner demotes the token with them.
    await t.db.user.update({ where: { id: owner.id }, data: { role: 'viewer' } });
    expect((await resolveActor(auth, t.db, bearer(asked.token))).actor?.role).toBe('viewer');

    expect(await revokeApiToken(t.db, asked.id, { id: 'usr_someoneelse', role: 'member', via: 'session' })).toBe(false);
    expect(await revokeApiToken(t.db, asked.id, { id: owner.id, role: 'viewer', via: 'session' })).toBe(true);
    expect(await resolveActor(auth, t.db, bearer(asked.token))).toEqual({ actor: null, reason: 'invalid_token' });

    const second = await createApiToken(
      t.db,
      { id: owner.id, role: 'viewer', via: 'session' },
      { name: 'two', role: 'viewer' },
    );
    await t.db.user.update({ where: { id: owner.id }, data: { banned: true } });
    expect((await resolveActor(auth, t.db, bearer(second.token))).actor).toBeNull();
    expect((await resolveActor(auth, t.db, bearer('gbt_' + 'a'.repeat(43)))).actor).toBeNull();
    expect((await resolveActor(auth, t.db, bearer('not a token'))).actor).toBeNull();
  });
});

describe("Better Auth's admin endpoints", () => {
  it(
    'are closed over HTTP, even to an admin, so user changes ' + 'always pass the audit log and the last-admin rule',
    async () => {
      await createUser(auth, {
        email: 'root-admin@example.test',
        name: 'R',
        password: 'root admin password',
        role: 'admin',
      });
      const victim = await createUser(auth, {
        email: 'victim@example.test',
        name: 'V',
        password: 'victim password 1',
        role: 'viewer',
      });
      const cookie = cookieOf(await signIn('root-admin@example.test', 'root admin password'));
      const calls: [string, unknown][] = [
        ['/admin/set-role', { userId: victim.id, role: 'admin' }],
        ['/admin/unban-user', { userId: victim.id }],
        ['/admin/set-user-password', { userId: victim.id, newPassword: 'taken over password' }],
        ['/admin/create-user', { email: 'sneaky@example.test', password: 'sneaky password', name: 'S' }],
        ['/admin/list-users', undefined],
      ];
      for (const [path, body] of calls) {
        const res = await auth.handler(
          new Request(`${BASE}/api/auth${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers: { 'content-type': 'application/json', origin: BASE, cookie },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
        );
        expect(res.status, path).toBe(404);
      }
      expect((await t.db.user.findUniqueOrThrow({ where: { id: victim.id } })).role).toBe('viewer');
      expect((await signIn('victim@example.test', 'victim password 1')).status).toBe(200);
      expect(await t.db.user.count({ where: { email: 'sneaky@example.test' } })).toBe(0);
    },
  );
});

describe('passwords', () => {
  it('a weak password is refused when a user is created, reset or changes their own', async () => {
    await expect(
      createUser(auth, { email: 'weak@example.test', name: 'W', password: '1111111111', role: 'viewer' }),
    ).rejects.toThrow(UserError);
    await createUser(auth, { email: 'weak@example.test', name: 'W', password: 'a strong passphrase', role: 'viewer' });
    await expect(setPassword(auth, t.db, 'weak@example.test', '1234567890')).rejects.toThrow(/too easy to guess/);
    const cookie = cookieOf(await signIn('weak@example.test', 'a strong passphrase'));
    const change = await auth.handler(
      new Request(`${BASE}/api/auth/change-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: BASE, cookie },
        body: JSON.stringify({ currentPassword: 'a strong passphrase', newPassword: 'qwertyuiop' }),
      }),
    );
    expect(change.status).toBe(400);
    expect((await signIn('weak@example.test', 'a strong passphrase')).status).toBe(200);
  });

  it("a password reset ends the user's sessions", async () => {
    await createUser(auth, { email: 'reset@example.test', name: 'R', password: 'before the reset', role: 'member' });
    const cookie = cookieOf(await signIn('reset@example.test', 'before the reset'));
    expect((await resolveActor(auth, t.db, new Headers({ cookie }))).actor?.email).toBe('reset@example.test');
    await setPassword(auth, t.db, 'reset@example.test', 'after the reset');
    expect((await resolveActor(auth, t.db, new Headers({ cookie }))).actor).toBeNull();
    expect((await signIn('reset@example.test', 'after the reset')).status).toBe(200);
  });
});

describe('display names', () => {
  it('are capped, for a user changing their own as for an admin creating one', async () => {
    await createUser(auth, {
      email: 'longname@example.test',
      name: 'Short',
      password: 'long name password',
      role: 'viewer',
    });
    const cookie = cookieOf(await signIn('longname@example.test', 'long name password'));
    const update = (name: string) =>
      auth.handler(
        new Request(`${BASE}/api/auth/update-user`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: BASE, cookie },
          body: JSON.stringify({ name }),
        }),
      );
    expect((await update('x'.repeat(600_000))).status).toBe(400);
    expect((await update('A fine name')).status).toBe(200);
    expect((await t.db.user.findUniqueOrThrow({ where: { email: 'longname@example.test' } })).name).toBe('A fine name');
    await expect(
      createUser(auth, {
        email: 'huge@example.test',
        name: 'n'.repeat(101),
        password: 'huge name password',
        role: 'viewer',
      }),
    ).rejects.toThrow(/under 100/);
  });
});

describe('tokens do not manage tokens', () => {
  it('a caller who came with a token can neither create a token nor revoke one', async () => {
    const owner = await createUser(auth, {
      email: 'minter@example.test',
      name: 'M',
      password: 'minter password',
      role: 'member',
    });
    const parent = await createApiToken(
      t.db,
      { id: owner.id, role: 'member', via: 'session' },
      { name: 'one day', role: 'member', expiresAt: new Date(Date.now() + 86_400_000) },
    );
    const resolved = await resolveActor(auth, t.db, new Headers({ authorization: `Bearer ${parent.token}` }));
    const caller = resolved.actor!;
    expect(caller.via).toBe('token');
    await expect(
      createApiToken(
        t.db,
        { id: caller.userId, role: caller.role, via: caller.via },
        { name: 'forever', role: 'member' },
      ),
    ).rejects.toThrow(TokenManagementRefused);
    await expect(
      revokeApiToken(t.db, parent.id, { id: caller.userId, role: caller.role, via: caller.via }),
    ).rejects.toThrow(TokenManagementRefused);
    expect(await t.db.apiToken.count({ where: { userId: owner.id } })).toBe(1);
    expect(await t.db.apiToken.count({ where: { userId: owner.id, revokedAt: null } })).toBe(1);
  });
});

describe('changing users', () => {
  it('never leaves GitBench without an active admin, even when two admins demote each other at once', async () => {
    await t.db.user.updateMany({ where: { role: 'admin' }, data: { role: 'viewer' } });
    const a = await createUser(auth, {
      email: 'a-admin@example.test',
      name: 'A',
      password: 'a admin password',
      role: 'admin',
    });
    const b = await createUser(auth, {
      email: 'b-admin@example.test',
      name: 'B',
      password: 'b admin password',
      role: 'admin',
    });
    const results = await Promise.all([
      updateUser(t.db, a.id, { role: 'member' }),
      updateUser(t.db, b.id, { banned: true }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual({
      ok: false,
      status: 409,
      error: 'This is the last admin: make someone else admin first.',
    });
    expect(await t.db.user.count({ where: { role: 'admin', NOT: { banned: true } } })).toBe(1);
    expect(await updateUser(t.db, 'usr_nobody', { role: 'viewer' })).toEqual({
      ok: false,
      status: 404,
      error: 'No such user.',
    });
  });

  it('deactivating a user ends their sessions at once', async () => {
    const u = await createUser(auth, {
      email: 'leaver@example.test',
      name: 'L',
      password: 'leaver password',
      role: 'member',
    });
    const cookie = cookieOf(await signIn('leaver@example.test', 'leaver password'));
    expect((await resolveActor(auth, t.db, new Headers({ cookie }))).actor?.email).toBe('leaver@example.test');
    expect((await updateUser(t.db, u.id, { banned: true })).ok).toBe(true);
    expect((await resolveActor(auth, t.db, new Headers({ cookie }))).actor).toBeNull();
    expect((await signIn('leaver@example.test', 'leaver password')).status).toBeGreaterThanOrEqual(400);
  });
});
