import { isRole, type Role } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import { resolveApiToken } from './api-tokens';
import type { Auth } from './create-auth';

/** Who is calling, however they proved it. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  role: Role;
  via: 'session' | 'token';
  tokenId?: string;
}

export type ActorResult = { actor: Actor } | { actor: null; reason: 'anonymous' | 'invalid_token' };

/**
 * The caller of a request: a bearer token when the request carries one (and then nothing else: a bad
 * token is not rescued by a cookie), else the session cookie.
 */
export async function resolveActor(auth: Auth, db: Db, headers: Headers): Promise<ActorResult> {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const found = match ? await resolveApiToken(db, match[1]!) : null;
    if (!found) return { actor: null, reason: 'invalid_token' };
    return { actor: { ...found, via: 'token' } };
  }
  const session = await auth.api.getSession({ headers });
  if (!session) return { actor: null, reason: 'anonymous' };
  const { user } = session as {
    user: { id: string; email: string; name: string; role?: string | null; banned?: boolean | null };
  };
  if (user.banned || !isRole(user.role)) return { actor: null, reason: 'anonymous' };
  return { actor: { userId: user.id, email: user.email, name: user.name, role: user.role, via: 'session' } };
}
