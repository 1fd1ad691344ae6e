import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Provider keys at rest: AES-256-GCM under a key derived (HKDF-SHA256) from GITBENCH_SECRET_KEY, a
 * fresh 96-bit nonce per value, and the key's name as associated data (a sealed value moved to
 * another name does not open). Stored as `v1.<key id>.<nonce>.<tag>.<ciphertext>` (base64url), where
 * the key id tells which secret sealed it, so a rotation can say what it re-encrypted.
 */
const VERSION = 'v1';

function encryptionKey(secretKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'gitbench', 'gitbench:provider-keys:v1', 32));
}

/** A short fingerprint of the secret a value was sealed under; reveals nothing of the key. */
export function secretKeyId(secretKey: string): string {
  return createHash('sha256').update(encryptionKey(secretKey)).digest('hex').slice(0, 12);
}

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export function sealSecret(plain: string, secretKey: string, name: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(secretKey), nonce);
  cipher.setAAD(Buffer.from(name));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    secretKeyId(secretKey),
    nonce.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

/** Opens a sealed value; a wrong secret, a wrong name or a changed byte is an error that quotes nothing. */
export function openSecret(sealed: string, secretKey: string, name: string): string {
  const [version, keyId, nonce, tag, body] = sealed.split('.');
  if (version !== VERSION || !keyId || !nonce || !tag || body === undefined)
    throw new SecretBoxError(`The stored key '${name}' is not in a format this version reads.`);
  if (keyId !== secretKeyId(secretKey)) {
    throw new SecretBoxError(
      `The stored key '${name}' was sealed under another GITBENCH_SECRET_KEY ` +
        `(key id ${keyId}); re-encrypt it with \`gitbench keys rotate\`.`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey(secretKey), Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(name));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError(
      `The stored key '${name}' does not open under this GITBENCH_SECRET_KEY (changed or damaged).`,
    );
  }
}

/** The key id a sealed value names (which secret sealed it). */
export function sealedKeyId(sealed: string): string | null {
  return sealed.split('.')[1] ?? null;
}

/** Every stored secret replaced in a text (errors, logs): defence in depth for what a provider echoes. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join('[provider key]');
  return out;
}
