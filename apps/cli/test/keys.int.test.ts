import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProviderKeys, openProviderKeys, putProviderKey } from '@gitbench/db';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { gitbench } from './cli-process';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const OLD = 'the-old-secret-key-of-32-characters-at-least';
const NEW = 'the-new-secret-key-of-32-characters-at-least';
const KEY = 'sk-cli-rotate-0123456789abcdef';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'cli');
});
afterAll(async () => {
  await t?.drop();
});

describe('gitbench keys rotate', () => {
  it(
    're-encrypts every stored key under the new secret, says ' + 'how many, never prints a key, and audits it',
    async () => {
      await putProviderKey(t.db, OLD, { name: 'openrouter', value: KEY, by: 'admin@x' });
      const env = {
        DATABASE_URL,
        GITBENCH_DATABASE_SCHEMA: t.schema,
        GITBENCH_OLD_SECRET_KEY: OLD,
        GITBENCH_SECRET_KEY: NEW,
      };
      const r = await gitbench(['keys', 'rotate'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('re-encrypted 1 stored key(s) under the new secret (0 already were)\n');
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect((await openProviderKeys(t.db, NEW)).keys.get('openrouter')).toBe(KEY);
      expect((await listProviderKeys(t.db, OLD))[0]?.readable).toBe(false);
      const again = await gitbench(['keys', 'rotate', '--json'], env);
      expect(JSON.parse(again.stdout)).toEqual({ rotated: 0, already: 1 });
      expect(await t.db.auditEvent.count({ where: { action: 'key.set', via: 'cli' } })).toBe(2);
      const usage = await gitbench(['keys', 'rotate'], { ...env, GITBENCH_OLD_SECRET_KEY: '' });
      expect(usage.code).not.toBe(0);
      expect(usage.stderr).toContain('GITBENCH_OLD_SECRET_KEY');
    },
    60_000,
  );
});
