import { newId, openSecret, sealedKeyId, sealSecret, secretKeyId } from '@gitbench/core';
import type { Db } from '../client';

export const PROVIDER_KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What anyone may see of a stored key: never the key, nor any part of it. */
export interface ProviderKeySummary {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  /** False when it was sealed under another GITBENCH_SECRET_KEY (rotate it). */
  readable: boolean;
}

export async function listProviderKeys(db: Db, secretKey: string): Promise<ProviderKeySummary[]> {
  const rows = await db.providerKey.findMany({ orderBy: { name: 'asc' } });
  const current = secretKeyId(secretKey);
  return rows.map(({ sealed, ...r }) => ({ ...r, readable: sealedKeyId(sealed) === current }));
}

/** Stores (or replaces) a key under a name, sealed; returns whether it replaced one. */
export async function putProviderKey(
  db: Db,
  secretKey: string,
  input: { name: string; value: string; by: string },
): Promise<{ id: string; replaced: boolean }> {
  const sealed = sealSecret(input.value, secretKey, input.name);
  const existing = await db.providerKey.findUnique({ where: { name: input.name }, select: { id: true } });
  const row = await db.providerKey.upsert({
    where: { name: input.name },
    create: { id: newId('providerKey'), name: input.name, sealed, createdBy: input.by },
    update: { sealed, createdBy: input.by },
  });
  return { id: row.id, replaced: existing !== null };
}

export async function deleteProviderKey(db: Db, name: string): Promise<boolean> {
  const { count } = await db.providerKey.deleteMany({ where: { name } });
  return count > 0;
}

/**
 * Every stored key, opened: for the worker's provider registry only. A key sealed under another
 * secret is left out and named, so the profile that needs it fails saying so.
 */
export async function openProviderKeys(
  db: Db,
  secretKey: string,
): Promise<{ keys: Map<string, string>; unreadable: string[] }> {
  const keys = new Map<string, string>();
  const unreadable: string[] = [];
  for (const row of await db.providerKey.findMany()) {
    try {
      keys.set(row.name, openSecret(row.sealed, secretKey, row.name));
    } catch {
      unreadable.push(row.name);
    }
  }
  return { keys, unreadable };
}

/**
 * Re-encrypts every stored key from the old secret to the new one, in one transaction: run once after
 * changing GITBENCH_SECRET_KEY (`gitbench keys rotate`). Keys already under the new secret are skipped.
 */
export async function rotateProviderKeys(
  db: Db,
  oldSecret: string,
  newSecret: string,
): Promise<{ rotated: number; already: number }> {
  const target = secretKeyId(newSecret);
  return db.$transaction(async (tx) => {
    let rotated = 0;
    let already = 0;
    for (const row of await tx.providerKey.findMany()) {
      if (sealedKeyId(row.sealed) === target) {
        already++;
        continue;
      }
      const plain = openSecret(row.sealed, oldSecret, row.name);
      await tx.providerKey.update({ where: { id: row.id }, data: { sealed: sealSecret(plain, newSecret, row.name) } });
      rotated++;
    }
    return { rotated, already };
  });
}
