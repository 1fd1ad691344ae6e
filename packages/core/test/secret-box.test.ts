import { describe, expect, it } from 'vitest';
import { openSecret, redactSecrets, sealedKeyId, sealSecret, SecretBoxError, secretKeyId } from '../src/secrets';

const SECRET = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);
const KEY = 'sk-test-0123456789abcdef';

describe('provider keys sealed at rest (AES-256-GCM under GITBENCH_SECRET_KEY)', () => {
  it('opens what it sealed, under the same secret and name only, and holds no part of the key', () => {
    const sealed = sealSecret(KEY, SECRET, 'openrouter');
    expect(sealed).not.toContain(KEY.slice(3, 11));
    expect(sealed.startsWith(`v1.${secretKeyId(SECRET)}.`)).toBe(true);
    expect(sealSecret(KEY, SECRET, 'openrouter')).not.toBe(sealed);
    expect(openSecret(sealed, SECRET, 'openrouter')).toBe(KEY);
    expect(() => openSecret(sealed, SECRET, 'other-name')).toThrow(SecretBoxError);
    expect(() => openSecret(sealed, OTHER, 'openrouter')).toThrow(/another GITBENCH_SECRET_KEY .*gitbench keys rotate/);
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => openSecret(parts.join('.'), SECRET, 'openrouter')).toThrow(/does not open/);
    expect(sealedKeyId(sealed)).toBe(secretKeyId(SECRET));
  });

  it('messages never quote the key', () => {
    const sealed = sealSecret(KEY, SECRET, 'n');
    for (const attempt of [
      () => openSecret(sealed, OTHER, 'n'),
      () => openSecret('v1.x.y.z.w', SECRET, 'n'),
      () => openSecret('junk', SECRET, 'n'),
    ]) {
      expect(attempt).toThrow(SecretBoxError);
      try {
        attempt();
      } catch (e) {
        expect((e as Error).message).not.toContain(KEY);
      }
    }
  });

  it('redacts stored keys from any text', () => {
    expect(redactSecrets(`401: bad key ${KEY} (${KEY})`, [KEY])).toBe('401: bad key [provider key] ([provider key])');
    expect(redactSecrets('short', ['abc'])).toBe('short');
  });
});
