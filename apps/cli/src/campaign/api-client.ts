import type { CliEnv } from '../env';
import { InfrastructureError } from '../exit';
import { UsageError } from '../args';

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** The token was refused or lacks the role: the caller's configuration, said as the API said it. */
export class ApiAuthError extends UsageError {}

/**
 * The web app's HTTP API as the token's user (GITBENCH_URL, GITBENCH_TOKEN): what the campaign commands
 * use when they are not on the server. An unreachable app is an infrastructure error; 401 and 403 are
 * the user's to fix.
 */
export class CampaignApi {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  static fromEnv(env: CliEnv): CampaignApi | null {
    return env.GITBENCH_URL && env.GITBENCH_TOKEN ? new CampaignApi(env.GITBENCH_URL, env.GITBENCH_TOKEN) : null;
  }

  async raw(method: 'GET' | 'POST', route: string, body?: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(new URL(route, this.base), {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      });
    } catch (err) {
      throw new InfrastructureError(
        `cannot reach the GitBench API at ${this.base} ` +
          `(GITBENCH_URL): ${(err as Error).cause ?? (err as Error).message}`,
      );
    }
    if (res.status === 401 || res.status === 403) {
      const said = ((await res.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${res.status}`;
      throw new ApiAuthError(`the API refused the token (GITBENCH_TOKEN): ${said}`);
    }
    if (res.status >= 500)
      throw new InfrastructureError(`the GitBench API at ${this.base} answered ${res.status} for ${method} ${route}`);
    return res;
  }

  async json<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<ApiAnswer<T>> {
    const res = await this.raw(method, route, body);
    return { status: res.status, body: (await res.json()) as T };
  }
}
