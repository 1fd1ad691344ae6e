/** Addresses that keep the app on its own machine. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

/**
 * Passwords that come with images, tutorials and earlier versions of our own compose file: whoever
 * reaches the database or Redis tries these first.
 */
const DEFAULT_PASSWORDS = new Set([
  'gitbench',
  'postgres',
  'redis',
  'password',
  'passw0rd',
  'changeme',
  'change-me',
  'secret',
  'admin',
  'root',
  'example',
  'test',
  '123456',
  '12345678',
]);

/** The password a connection URL carries, when it is one of the well-known defaults or its own user name. */
function defaultPassword(url: string | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const password = decodeURIComponent(parsed.password);
  if (!password) return null;
  const lower = password.toLowerCase();
  return DEFAULT_PASSWORDS.has(lower) || lower === decodeURIComponent(parsed.username).toLowerCase() ? password : null;
}

export interface ExposureEnv {
  GITBENCH_BIND?: string | undefined;
  GITBENCH_PUBLIC_URL?: string | undefined;
  DATABASE_URL?: string | undefined;
  REDIS_URL?: string | undefined;
}

/**
 * Why the app must not start as configured, or null. Published on an address other people reach
 * (GITBENCH_BIND, which compose passes through), it needs GITBENCH_PUBLIC_URL (behind TLS without it,
 * session cookies go out without Secure and HSTS is never sent), and the database and Redis must not
 * take a default password.
 */
export function exposureProblem(env: ExposureEnv): string | null {
  const bind = env.GITBENCH_BIND?.trim();
  if (!bind || LOOPBACK.test(bind)) return null;
  const beyond = `GITBENCH_BIND=${bind} publishes the app beyond this machine`;
  if (!env.GITBENCH_PUBLIC_URL) return `${beyond}: set GITBENCH_PUBLIC_URL to the address users reach it by`;
  for (const name of ['DATABASE_URL', 'REDIS_URL'] as const) {
    if (defaultPassword(env[name]))
      return `${beyond}, and ${name} has a default password: set a generated one (openssl rand -hex 24)`;
  }
  return null;
}
