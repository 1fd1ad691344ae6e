import type { Db } from '@gitbench/db';
import { APIError } from 'better-auth/api';
import type { AuthHook } from './auth-hook';

export interface SignInThrottlePolicy {
  /** Wrong passwords an account may take before it is locked at all. */
  freeFailures: number;
  /** The first lock; each further failure doubles it. */
  firstLockMs: number;
  /** No lock lasts longer than this, so someone guessing can delay the owner but not lock them out for good. */
  maxLockMs: number;
  /** Failures older than this are forgotten. */
  forgetAfterMs: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottlePolicy = {
  freeFailures: 5,
  firstLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
};

const SIGN_IN_PATH = '/sign-in/email';

export function throttleKey(email: unknown): string | null {
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase().slice(0, 320) : null;
}

/**
 * Counts an attempt before its password is checked, so that attempts sent in parallel cannot all slip
 * in before the first failure is written: the row lock of the upsert puts them in line. Returns null
 * while the account is locked (the attempt is then neither checked nor counted), else the failures so far.
 */
export async function reserveSignInAttempt(
  db: Db,
  key: string,
  policy: SignInThrottlePolicy,
  now = new Date(),
): Promise<number | null> {
  const rows = await db.$queryRaw<{ failures: number }[]>`
    INSERT INTO "SignInThrottle" AS t ("key", "failures", "lastFailureAt", "lockedUntil")
    VALUES (${key}, 1, ${now}, NULL)
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN t."lastFailureAt" < ${new Date(now.getTime() - policy.forgetAfterMs)} THEN 1
        ELSE t."failures" + 1 END,
      "lastFailureAt" = ${now},
      "lockedUntil" = CASE
        WHEN t."lastFailureAt" < ${new Date(now.getTime() - policy.forgetAfterMs)}
          OR t."failures" + 1 <= ${policy.freeFailures} THEN NULL
        ELSE ${now}::timestamp(3) + make_interval(secs => LEAST(
          ${policy.maxLockMs / 1000}::float8,
          ${policy.firstLockMs / 1000}::float8 * power(2, t."failures" - ${policy.freeFailures})))
      END
    WHERE t."lockedUntil" IS NULL OR t."lockedUntil" <= ${now}
    RETURNING "failures"`;
  return rows[0]?.failures ?? null;
}

/** A right password clears the account's count; rows nobody touched for a while go at the same time. */
export async function clearSignInFailures(
  db: Db,
  key: string,
  policy: SignInThrottlePolicy,
  now = new Date(),
): Promise<void> {
  await db.$executeRaw`
    DELETE FROM "SignInThrottle" WHERE "key" = ${key} OR "lastFailureAt"
      < ${new Date(now.getTime() - policy.forgetAfterMs)}`;
}

/**
 * Better Auth hooks throttling password sign-in per account. Better Auth's own limit counts per client
 * address, which an attacker with many addresses (or a spoofable header) walks around; this one follows
 * the account being guessed, whoever asks.
 */
export function signInThrottleHooks(
  db: Db,
  policy: SignInThrottlePolicy = DEFAULT_SIGN_IN_THROTTLE,
): { before: AuthHook; after: AuthHook } {
  return {
    before: async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH) return;
      const key = throttleKey((ctx.body as { email?: unknown } | undefined)?.email);
      if (!key) return;
      if ((await reserveSignInAttempt(db, key, policy)) === null) {
        throw new APIError('TOO_MANY_REQUESTS', {
          message: 'Too many failed sign-ins for this account: wait a few minutes and try again.',
        });
      }
    },
    after: async (ctx) => {
      if (ctx.path !== SIGN_IN_PATH) return;
      const key = throttleKey((ctx.body as { email?: unknown } | undefined)?.email);
      if (key && ctx.context.newSession) await clearSignInFailures(db, key, policy);
    },
  };
}
