import { lookupEnvironment, type RepoStepState } from '@gitbench/core';
import { parseRepoState, repoStateScript, type RepoSnapshot } from './repo-state';

/** Reads the repository's state after each step, remembering the last one for refs changed and the diff. */
export interface RepoStateReader {
  /** The state now, compared with the previous read; null when it cannot be read (no repository any more). */
  read(): Promise<RepoStepState | null>;
}

/** Where the reader runs its one command: the attempt's tool context, or an observer beside a running agent. */
export interface RepoStateExec {
  exec(
    command: string,
    options: { timeoutMs: number; maxOutputBytes: number; env: Record<string, string> },
  ): Promise<{ stdout: string; timedOut: boolean }>;
}

export function repoStateReader(ctx: RepoStateExec): RepoStateReader {
  let previous: RepoSnapshot | null = null;
  return {
    async read() {
      // With the look-ups' environment: the host's read runs no hook or fsmonitor of the agent's.
      const r = await ctx.exec(repoStateScript(previous?.tree ?? null), {
        timeoutMs: 30_000,
        maxOutputBytes: 4 * 1024 * 1024,
        env: lookupEnvironment(),
      });
      if (r.timedOut) return null;
      const next = parseRepoState(r.stdout, previous);
      if (next) previous = next;
      return next?.state ?? null;
    },
  };
}
