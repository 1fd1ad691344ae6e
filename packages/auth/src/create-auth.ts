import { createHmac } from 'node:crypto';
import { newId, type IdKind } from '@gitbench/core';
import type { Db } from '@gitbench/db';
import { betterAuth, type BetterAuthPlugin } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { createAuthMiddleware } from 'better-auth/api';
import { admin, genericOAuth } from 'better-auth/plugins';
import { defaultAc } from 'better-auth/plugins/admin/access';
import type { AuthHook } from './auth-hook';
import { MIN_PASSWORD_LENGTH, passwordPolicyHook } from './password-policy';
import { profileLimitsHook } from './profile-limits';
import { DEFAULT_SIGN_IN_THROTTLE, signInThrottleHooks, type SignInThrottlePolicy } from './sign-in-throttle';

export interface OidcConfig {
  /** The issuer URL; its /.well-known/openid-configuration is read at start-up. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the sign-in button. */
  name: string;
}

export interface AuthConfig {
  db: Db;
  /** GITBENCH_SECRET_KEY; the session signing secret is derived from it, never the key itself. */
  secretKey: string;
  /** Where users reach the app (GITBENCH_PUBLIC_URL); without it, the request's own origin. */
  publicUrl?: string;
  oidc?: OidcConfig;
  /**
   * GITBENCH_TRUSTED_PROXIES: the addresses (or CIDR ranges) of the reverse proxies in front of the app.
   * X-Forwarded-For is read only through them, right to left, skipping these hops; without any, no
   * forwarded header is believed and sign-in is throttled per account only.
   */
  trustedProxies?: string[];
  /** Per-account sign-in throttling; tests shorten it. */
  signInThrottle?: SignInThrottlePolicy;
  /** Framework glue (e.g. Next.js cookies for server actions), added by the app. */
  plugins?: BetterAuthPlugin[];
}

/** Better Auth's models and ours share one id style: a prefix naming the row's kind. */
const ID_KINDS: Record<string, IdKind> = {
  user: 'user',
  session: 'session',
  account: 'account',
  verification: 'verification',
  rateLimit: 'rateLimit',
};

/**
 * The app's roles as Better Auth's admin plugin sees them. Only admins manage users; nobody may
 * impersonate another user.
 */
const adminRole = defaultAc.newRole({
  user: ['create', 'list', 'set-role', 'ban', 'delete', 'set-password', 'get', 'update'],
  session: ['list', 'revoke', 'delete'],
});
const readerRole = defaultAc.newRole({ user: [], session: [] });

/**
 * Better Auth's admin endpoints, closed over HTTP: user management goes through the app's own routes and
 * CLI, which write the audit log and keep the last admin. The server still calls createUser directly.
 */
const ADMIN_PATHS = [
  'ban-user',
  'create-user',
  'get-user',
  'has-permission',
  'impersonate-user',
  'list-user-sessions',
  'list-users',
  'remove-user',
  'revoke-user-session',
  'revoke-user-sessions',
  'set-role',
  'set-user-password',
  'stop-impersonating',
  'unban-user',
  'update-user',
].map((p) => `/admin/${p}`);

/** A secret for one purpose, derived from GITBENCH_SECRET_KEY so no two purposes share a key. */
export function deriveSecret(secretKey: string, purpose: string): string {
  return createHmac('sha256', secretKey).update(`gitbench:${purpose}`).digest('base64url');
}

/** Better Auth takes one before and one after hook; these run several in order. */
function combineHooks(...sets: { before?: AuthHook; after?: AuthHook }[]) {
  const chain = (hooks: AuthHook[]) =>
    createAuthMiddleware(async (ctx) => {
      for (const hook of hooks) await hook(ctx);
    });
  return { before: chain(sets.flatMap((s) => s.before ?? [])), after: chain(sets.flatMap((s) => s.after ?? [])) };
}

export function createAuth(config: AuthConfig) {
  const secure = config.publicUrl?.startsWith('https://') ?? false;
  const trustedProxies = config.trustedProxies ?? [];
  return betterAuth({
    appName: 'GitBench',
    // Without a configured public URL the app answers on whatever host it was reached by (a local
    // demo on 127.0.0.1 or localhost); cookie-carrying requests must still come from that same origin.
    baseURL: config.publicUrl ?? { allowedHosts: ['*'], protocol: 'auto', fallback: 'http://127.0.0.1' },
    basePath: '/api/auth',
    secret: deriveSecret(config.secretKey, 'sessions'),
    database: prismaAdapter(config.db, { provider: 'postgresql' }),
    telemetry: { enabled: false },
    disabledPaths: ADMIN_PATHS,
    // Admins create accounts (CLI, first-run page, users page); nobody signs themselves up.
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 256,
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Counted in the database, so that every web process counts together.
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: { '/sign-in/email': { window: 60, max: 10 } },
    },
    hooks: combineHooks(
      signInThrottleHooks(config.db, config.signInThrottle ?? DEFAULT_SIGN_IN_THROTTLE),
      { before: passwordPolicyHook },
      { before: profileLimitsHook },
    ),
    advanced: {
      useSecureCookies: secure,
      // Any client can write X-Forwarded-For. Behind configured proxies the client is the first hop from
      // the right that is not one of them; with none configured, no address is believed and the per-address
      // limit is off (an unknown address would otherwise put every client in one shared bucket, letting one
      // guesser lock everyone out), leaving the per-account throttle.
      ipAddress: trustedProxies.length
        ? { ipAddressHeaders: ['x-forwarded-for'], trustedProxies }
        : { disableIpTracking: true },
      // Explicit, so that tests (where Better Auth would skip them) check origins as production does.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      database: { generateId: ({ model }) => newId(ID_KINDS[model] ?? 'verification') },
    },
    plugins: [
      admin({
        roles: { admin: adminRole, member: readerRole, viewer: readerRole },
        adminRoles: ['admin'],
        defaultRole: 'viewer',
      }),
      ...(config.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'oidc',
                  name: config.oidc.name,
                  discoveryUrl: `${config.oidc.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
                  clientId: config.oidc.clientId,
                  clientSecret: config.oidc.clientSecret,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
      ...(config.plugins ?? []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
