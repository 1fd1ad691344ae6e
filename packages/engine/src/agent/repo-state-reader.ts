import { lookupEnvironment, type RepoStepState } from '@gitbench/core';
import type { Sandbox } from '@gitbench/sandbox';
import { DEFAULT_DIFF_BYTES, parseRepoState, repoStateScript, type RepoSnapshot } from './repo-state';

/** Reads the repository's state after each step, remembering the last one for refs changed and the diff. */
export interface RepoStateReader {
  /**
   * The state now, compared with the previous read; null when it cannot be read (no repository any
   * more, or an observation that could not be trusted). Throws a TamperingError when the agent's
   * processes ran during an observation.
   */
  read(): Promise<RepoStepState | null>;
}

/** Where the reader runs its one command: the attempt's tool context, or an observer beside a running agent. */
export interface RepoStateExec {
  exec(
    command: string,
    options: { timeoutMs: number; maxOutputBytes: number; env: Record<string, string> },
  ): Promise<{ stdout: string; timedOut: boolean }>;
  /**
   * The same output, read by the session's runner itself without the script (Sandbox.readRepoState):
   * git's processes alone, no shell. Used when present.
   */
  readState?(options: {
    previousTree: string | null;
    diffBytes: number;
    timeoutMs: number;
    maxOutputBytes: number;
    env: Record<string, string>;
  }): Promise<{ stdout: string; timedOut: boolean; unobserved?: string }>;
}

const READ_LIMITS = { timeoutMs: 30_000, maxOutputBytes: 4 * 1024 * 1024 };

export function repoStateReader(ctx: RepoStateExec): RepoStateReader {
  let previous: RepoSnapshot | null = null;
  // Reads run one at a time, each starting after the last has ended. Each is compared with the one before
  // it. An observer's reads also must not overlap: one read's end kills every process of the observer's
  // uid and continues the agent's, under the other, which would then find the agent's threads ran. A
  // gateway answers several calls of a third-party agent at once, each read before it.
  let last: Promise<unknown> = Promise.resolve();
  const readOnce = async (): Promise<RepoStepState | null> => {
    const previousTree = previous?.tree ?? null;
    // With the look-ups' environment: the host's read runs no hook or fsmonitor of the agent's.
    const env = lookupEnvironment();
    const r = ctx.readState
      ? await ctx.readState({ previousTree, diffBytes: DEFAULT_DIFF_BYTES, env, ...READ_LIMITS })
      : await ctx.exec(repoStateScript(previousTree), { ...READ_LIMITS, env });
    if (r.timedOut) return null;
    // A read not let through: the observer emptied its object store, and the next read starts afresh.
    if ('unobserved' in r && r.unobserved) {
      previous = null;
      return null;
    }
    const next = parseRepoState(r.stdout, previous);
    if (next) previous = next;
    return next?.state ?? null;
  };
  return {
    read() {
      const read = last.then(readOnce);
      last = read.catch(() => undefined);
      return read;
    },
  };
}

/**
 * The reader of an attempt's own loop: through the session's runner where it reads the state itself
 * (one request, git's processes only), else the script through the tool context.
 */
export function sessionRepoStateReader(
  session: Pick<Sandbox, 'readRepoState'>,
  repoDir: string,
  ctx: Pick<RepoStateExec, 'exec'>,
  /** Every read in full: never the runner's answer for an unchanged repository (a bench's or a test's comparison). */
  { fullRead = false }: { fullRead?: boolean } = {},
): RepoStateReader {
  const readRepoState = session.readRepoState?.bind(session);
  return repoStateReader({
    exec: (command, options) => ctx.exec(command, options),
    ...(readRepoState ? { readState: (options) => readRepoState({ ...options, cwd: repoDir, fullRead }) } : {}),
  });
}
