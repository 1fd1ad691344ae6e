import { webEnv } from './env';

/**
 * Called once as the server starts: a server that cannot serve as configured (no secret key, published
 * beyond loopback without its public URL or with a default password) stops here, saying why, rather than
 * answer every request with a 500. Compose then shows the web service exited, with this line in its log.
 */
export function refuseInvalidEnv(): void {
  try {
    webEnv();
  } catch (err) {
    console.error(`[web] refusing to start: ${(err as Error).message}`);
    process.exit(1);
  }
}
