import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { createAuth, createUser, type Auth } from '../src';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const BASE = 'http://127.0.0.1:3999';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'throttle');
});
afterAll(async () => {
  await t?.drop();
});

function signIn(auth: Auth, email: string, password: string, forwardedFor?: string): Promise<Response> {
  return auth.handler(
    new Request(`${BASE}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: BASE,
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: JSON.stringify({ email, password }),
    }),
  );
}

describe('sign-in throttling', () => {
  it('locks an account after a few wrong passwords, whatever address each claims, until the lock ends', async () => {
    const auth = createAuth({ db: t.db, secretKey: 'x'.repeat(40), publicUrl: BASE });
    await createUser(auth, {
      email: 'guessed@example.test',
      name: 'G',
      password: 'the right password',
      role: 'member',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await signIn(auth, 'guessed@example.test', `wrong ${i}`, `203.0.113.${i + 1}`)).status);
    // Five free failures, the sixth is checked and starts the lock; the rest are refused unchecked.
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(6))).toEqual(new Set([429]));
    expect((await signIn(auth, 'guessed@example.test', 'the right password', '198.51.100.9')).status).toBe(429);
    // Another account is not affected.
    await createUser(auth, { email: 'other@example.test', name: 'O', password: 'other password 1', role: 'member' });
    expect((await signIn(auth, 'other@example.test', 'other password 1')).status).toBe(200);

    // When the lock has passed, the right password works and clears the count.
    await t.db.signInThrottle.update({
      where: { key: 'guessed@example.test' },
      data: { lockedUntil: new Date(Date.now() - 1000) },
    });
    expect((await signIn(auth, 'Guessed@Example.test', 'the right password')).status).toBe(200);
    expect(await t.db.signInThrottle.count({ where: { key: 'guessed@example.test' } })).toBe(0);
  });

  it('the lock doubles with each failure after it, up to the ceiling', async () => {
    const auth = createAuth({
      db: t.db,
      secretKey: 'x'.repeat(40),
      publicUrl: BASE,
      signInThrottle: { freeFailures: 2, firstLockMs: 10_000, maxLockMs: 35_000, forgetAfterMs: 3_600_000 },
    });
    const locks: number[] = [];
    for (let i = 0; i < 6; i++) {
      await signIn(auth, 'nobody@example.test', 'wrong password');
      const row = await t.db.signInThrottle.findUniqueOrThrow({ where: { key: 'nobody@example.test' } });
      locks.push(row.lockedUntil ? Math.round((row.lockedUntil.getTime() - row.lastFailureAt.getTime()) / 1000) : 0);
      await t.db.signInThrottle.update({ where: { key: 'nobody@example.test' }, data: { lockedUntil: null } });
    }
    expect(locks).toEqual([0, 0, 10, 20, 35, 35]);
  });

  it('parallel guesses cannot slip in before the first failures are written', async () => {
    const auth = createAuth({ db: t.db, secretKey: 'x'.repeat(40), publicUrl: BASE });
    await createUser(auth, { email: 'raced@example.test', name: 'R', password: 'raced password 1', role: 'member' });
    const statuses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => signIn(auth, 'raced@example.test', `wrong ${i}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
  });

  it('believes X-Forwarded-For only through the configured proxies', async () => {
    const proxied = createAuth({ db: t.db, secretKey: 'x'.repeat(40), publicUrl: BASE, trustedProxies: ['10.0.0.2'] });
    // Ten bad attempts from one client behind the proxy (each on its own account, so only the address limit counts).
    for (let i = 0; i < 10; i++)
      await signIn(proxied, `spray${i}@example.test`, 'wrong password', '203.0.113.7, 10.0.0.2');
    expect((await signIn(proxied, 'spray0@example.test', 'wrong password', '203.0.113.7, 10.0.0.2')).status).toBe(429);
    // A different client behind the same proxy is not in that bucket.
    await createUser(proxied, {
      email: 'bystander@example.test',
      name: 'B',
      password: 'bystander pass 1',
      role: 'member',
    });
    expect((await signIn(proxied, 'bystander@example.test', 'bystander pass 1', '198.51.100.9, 10.0.0.2')).status).toBe(
      200,
    );

    // With no proxy configured, a forwarded address is not believed: no bucket is keyed by it.
    const direct = createAuth({ db: t.db, secretKey: 'x'.repeat(40), publicUrl: BASE });
    await signIn(direct, 'bystander@example.test', 'wrong password', '192.0.2.55');
    expect(await t.db.rateLimit.count({ where: { key: { contains: '192.0.2.55' } } })).toBe(0);
    expect(await t.db.rateLimit.count({ where: { key: { contains: '203.0.113.7' } } })).toBe(1);
  });
});
