import type { ExecRecord } from './core-api';

/** What a context command printed in the fixture repository; appended to the prompt by core's renderer. */
export interface ContextResult {
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * A fixture's repository, built once in a sandbox and restored into each attempt's fresh sandbox.
 * The workspace (repository plus its siblings such as bare remotes and worktrees) is one tar archive.
 */
export interface FixtureSnapshot {
  domain: string;
  fixtureId: string;
  /** Directory of the repository inside the workspace, e.g. `git_bisect_f001`. */
  repoDir: string;
  /** The workspace archive, or how to fetch it: an attempt scored on text alone never needs it. */
  tar: RepoArchive;
  /** Canonical repository state text (refs, HEAD, index, working tree) as core's script prints it. */
  repoState: string;
  definitionHash: string;
  inputHash: string;
  /** `git rev-parse HEAD` after set-up (empty when the repository has no commit). */
  head: string;
  context: ContextResult[];
  /** Every commit reachable from a ref or reflog, with its subject (re-scoring maps hashes by subject). */
  commits: { hash: string; subject: string }[];
  setupLog: ExecRecord;
  /** The scorer's look-ups for an answer that runs nothing, read by the build; absent from older builds. */
  pristine?: PristineProbes;
  image: { tag: string; id: string; driver: 'docker' | 'local'; isolated: boolean };
  buildMs: number;
}

/** The scorer's look-ups on the repository as built (see pristine-probes.ts). */
export interface PristineProbes {
  /** The plan's environment the probes ran with. */
  env: Record<string, string>;
  probes: PristineProbe[];
  /** The repository's canonical state after the probes, as an attempt's sandbox reads it last. */
  repoStateAfter?: string;
}

export interface PristineProbe {
  id: string;
  command: string;
  /** As the plan gave it; null for the sandbox's default. */
  timeoutMs: number | null;
  maxOutputBytes: number;
  record: ExecRecord;
}

/**
 * A snapshot fresh from a build, its archive in hand: as a plain tar, and gzip-compressed as the
 * build's sandbox made it, which is what storage keeps (compressing there moves a sixth of the bytes
 * through Docker's stream and the worker's parser, and spares the worker the compression).
 */
export type BuiltSnapshot = FixtureSnapshot & { tar: Buffer; packed: Buffer };

export type RepoArchive = Buffer | (() => Promise<Buffer>);

export async function archiveBytes(tar: RepoArchive): Promise<Buffer> {
  return typeof tar === 'function' ? tar() : tar;
}

/** The fixture's repository directory name: upstream's `<benchmark>_<id>`, so paths in prompts read alike. */
export function repoDirOf(fixture: { domain: string; id: string }): string {
  return `${fixture.domain}_${fixture.id}`.replace(/[^A-Za-z0-9._-]/g, '_');
}
