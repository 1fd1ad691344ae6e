import 'server-only';
import { createAuth, type Auth } from '@gitbench/auth';
import { webEnv } from '../env';
import { services } from '../services';

const globalForAuth = globalThis as unknown as { gitbenchAuth?: Auth };

/** One Better Auth instance per server process, on the app's own Prisma client. */
export function authServer(): Auth {
  if (!globalForAuth.gitbenchAuth) {
    const env = webEnv();
    globalForAuth.gitbenchAuth = createAuth({
      db: services().db,
      secretKey: env.GITBENCH_SECRET_KEY,
      trustedProxies: env.GITBENCH_TRUSTED_PROXIES,
      ...(env.GITBENCH_PUBLIC_URL ? { publicUrl: env.GITBENCH_PUBLIC_URL } : {}),
      ...(env.GITBENCH_OIDC_ISSUER && env.GITBENCH_OIDC_CLIENT_ID && env.GITBENCH_OIDC_CLIENT_SECRET
        ? {
            oidc: {
              issuer: env.GITBENCH_OIDC_ISSUER,
              clientId: env.GITBENCH_OIDC_CLIENT_ID,
              clientSecret: env.GITBENCH_OIDC_CLIENT_SECRET,
              name: env.GITBENCH_OIDC_NAME,
            },
          }
        : {}),
    });
  }
  return globalForAuth.gitbenchAuth;
}
