import type { Role } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import type { Auth } from './create-auth';
import { passwordProblem } from './password-policy';
import { nameProblem } from './profile-limits';

export interface NewUser {
  email: string;
  name: string;
  password: string;
  role: Role;
}

export class UserError extends Error {
  override readonly name = 'UserError';
}

/**
 * Creates a user with an email and password through Better Auth (so the password is hashed by its
 * hasher, exactly as sign-in checks it). Called from trusted server code only: the CLI, the
 * first-run page and the admins' users page.
 */
export async function createUser(auth: Auth, user: NewUser): Promise<{ id: string; email: string; role: Role }> {
  const problem = nameProblem(user.name.trim()) ?? passwordProblem(user.password);
  if (problem) throw new UserError(problem);
  try {
    const { user: created } = await auth.api.createUser({
      body: { email: user.email.trim(), name: user.name.trim(), password: user.password, role: user.role },
    });
    return { id: created.id, email: created.email, role: user.role };
  } catch (err) {
    // Better Auth's APIError carries a readable message (existing email, short password, ...).
    throw new UserError((err as { body?: { message?: string } }).body?.message ?? (err as Error).message);
  }
}

/**
 * Sets a user's password by email (for `gitbench user create` run again on an existing user) and ends
 * their sessions: a reset is what one does when a password may be known to someone else.
 */
export async function setPassword(auth: Auth, db: Db, email: string, password: string): Promise<void> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  if (!user) throw new UserError(`no user ${email}`);
  const problem = passwordProblem(password);
  if (problem) throw new UserError(problem);
  const ctx = await auth.$context;
  await ctx.internalAdapter.updatePassword(user.id, await ctx.password.hash(password));
  await db.session.deleteMany({ where: { userId: user.id } });
}

export async function userCount(db: Db): Promise<number> {
  return db.user.count();
}

/**
 * The first-run path: creates the first admin only while no user exists. A transaction-scoped
 * advisory lock makes two simultaneous first runs create one admin, not two.
 */
export async function createFirstAdmin(
  auth: Auth,
  db: Db,
  user: Omit<NewUser, 'role'>,
): Promise<{ id: string } | { error: string }> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('gitbench:first-admin'))`;
      if ((await tx.user.count()) > 0)
        return { error: 'GitBench already has users: sign in, or ask an admin for an account.' };
      try {
        return await createUser(auth, { ...user, role: 'admin' });
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
    { timeout: 15_000 },
  );
}

export interface UserChange {
  role?: Role;
  /** A deactivated user cannot sign in, and their sessions and tokens stop working at once. */
  banned?: boolean;
}

export type UserChangeResult =
  | { ok: true; user: { id: string; email: string; role: Role; banned: boolean | null } }
  | { ok: false; status: 404 | 409; error: string };

/** Changes a user's role or deactivates them; never leaves GitBench without an active admin. */
export async function updateUser(db: Db, id: string, change: UserChange): Promise<UserChangeResult> {
  return db.$transaction(async (tx) => {
    // One admin change at a time, so two admins cannot demote each other into having none.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('gitbench:admins'))`;
    const user = await tx.user.findUnique({ where: { id }, select: { id: true, role: true, banned: true } });
    if (!user) return { ok: false as const, status: 404 as const, error: 'No such user.' };
    const losesAdmin =
      user.role === 'admin' &&
      !user.banned &&
      ((change.role !== undefined && change.role !== 'admin') || change.banned === true);
    if (losesAdmin && (await tx.user.count({ where: { role: 'admin', NOT: { banned: true } } })) <= 1) {
      return {
        ok: false as const,
        status: 409 as const,
        error: 'This is the last admin: make someone else admin first.',
      };
    }
    const updated = await tx.user.update({
      where: { id },
      data: {
        ...(change.role ? { role: change.role } : {}),
        ...(change.banned !== undefined
          ? { banned: change.banned, banReason: change.banned ? 'deactivated by an admin' : null }
          : {}),
      },
      select: { id: true, email: true, role: true, banned: true },
    });
    if (change.banned) await tx.session.deleteMany({ where: { userId: id } });
    return { ok: true as const, user: updated };
  });
}
