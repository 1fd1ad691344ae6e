/** Addresses that keep the app on its own machine. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

/**
 * Why the app must not start as configured, or null. Published on an address other people reach
 * (GITBENCH_BIND, which compose passes through), it needs GITBENCH_PUBLIC_URL: behind TLS without it,
 * session cookies go out without Secure and HSTS is never sent.
 */
export function exposureProblem(env: { GITBENCH_BIND?: string | undefined; GITBENCH_PUBLIC_URL?: string | undefined }): string | null {
  const bind = env.GITBENCH_BIND?.trim();
  if (!bind || LOOPBACK.test(bind)) return null;
  return env.GITBENCH_PUBLIC_URL ? null : `GITBENCH_BIND=${bind} publishes the app beyond this machine: set GITBENCH_PUBLIC_URL to the address users reach it by`;
}
