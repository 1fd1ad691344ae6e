import { createHash, randomBytes } from 'node:crypto';
import { isRole, lowerRole, newId, type Role } from '@gitbench/core';
import type { Db } from '@gitbench/db';

/** Tokens start with this, so a leaked one is recognisable (and secret scanners can find it). */
export const TOKEN_PREFIX = 'gbt_';
const TOKEN_SHAPE = /^gbt_[A-Za-z0-9_-]{43}$/;
/** lastUsedAt is written at most this often per token: reading a campaign must not write a row every time. */
const TOUCH_EVERY_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewApiToken {
  id: string;
  /** Shown once; only its hash is stored. */
  token: string;
  name: string;
  role: Role;
  prefix: string;
}

/** Who asks to create or revoke a token, and how they proved it. */
export interface TokenManager {
  id: string;
  role: Role;
  via: 'session' | 'token';
}

/**
 * Only a signed-in person manages tokens. A token that could mint tokens would turn one leaked
 * short-lived token into permanent access (the child outlives the parent's expiry and revocation), and
 * one that could revoke tokens would let a leaked token cut its owner's CI off.
 */
export class TokenManagementRefused extends Error {
  override readonly name = 'TokenManagementRefused';
  constructor() {
    super('API tokens are created and revoked from a signed-in session, not with a token.');
  }
}

/**
 * A token is 256 random bits, so a plain SHA-256 of it is as safe to store as a slow password hash
 * and can be looked up by index. Its role may not exceed its owner's.
 */
export async function createApiToken(
  db: Db,
  owner: TokenManager,
  input: { name: string; role: Role; expiresAt?: Date },
): Promise<NewApiToken> {
  if (owner.via !== 'session') throw new TokenManagementRefused();
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const role = lowerRole(input.role, owner.role);
  const row = await db.apiToken.create({
    data: {
      id: newId('apiToken'),
      userId: owner.id,
      name: input.name,
      role,
      tokenHash: hashToken(token),
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
      ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
    },
  });
  return { id: row.id, token, name: row.name, role, prefix: row.prefix };
}

export async function listApiTokens(db: Db, userId: string) {
  return db.apiToken.findMany({
    where: { userId },
    orderBy: { createdAt: 'desc' },
    select: {
      id: true,
      name: true,
      role: true,
      prefix: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
    },
  });
}

/** Revokes a token of this user (admins may revoke anyone's). False when there is none to revoke. */
export async function revokeApiToken(db: Db, tokenId: string, by: TokenManager): Promise<boolean> {
  if (by.via !== 'session') throw new TokenManagementRefused();
  const { count } = await db.apiToken.updateMany({
    where: { id: tokenId, revokedAt: null, ...(by.role === 'admin' ? {} : { userId: by.id }) },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

export interface TokenActor {
  userId: string;
  email: string;
  name: string;
  role: Role;
  tokenId: string;
}

/**
 * The user and role behind a bearer token, or null for an unknown, revoked or expired token, or one
 * whose owner is banned. The role is the token's, capped by the owner's role now.
 */
export async function resolveApiToken(db: Db, token: string, now = new Date()): Promise<TokenActor | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { user: { select: { id: true, email: true, name: true, role: true, banned: true, banExpires: true } } },
  });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  const { user } = row;
  const banned = user.banned && (!user.banExpires || user.banExpires > now);
  if (banned || !isRole(user.role)) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { userId: user.id, email: user.email, name: user.name, role: lowerRole(row.role, user.role), tokenId: row.id };
}
