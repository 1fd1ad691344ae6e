/** Next.js runs this once when a server starts. */
export async function register(): Promise<void> {
  // Only the Node.js server reads suites; the edge runtime (the proxy) does not.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  (await import('./lib/refuse-invalid-env')).refuseInvalidEnv();
  const { preloadSuites } = await import('./lib/campaigns/suites');
  // Not awaited: the server serves at once, and a request that comes first loads what it needs itself.
  void preloadSuites().catch((err: Error) =>
    console.error(`[web] reading the configured suites failed: ${err.message}`),
  );
}
