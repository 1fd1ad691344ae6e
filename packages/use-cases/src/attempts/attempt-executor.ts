import { StorageFailure, type AgentConfig, type Fixture, type Mode } from '@gitbench/core';
import type { AttemptWrite } from '@gitbench/db';

/**
 * What the worker needs from the engine, kept narrow so the worker's bookkeeping (claims,
 * heartbeats, conditional writes) does not depend on how attempts are executed.
 */
export interface BuiltRepository {
  inputHash: string;
  repoState: string;
  /** The workspace's tar archive, gzip-compressed (as storage keeps it) or plain. */
  archive: Buffer;
  setupLog: string;
  /** Everything else the engine needs to restore and use the repository (JSON, no archive). */
  buildInfo: Record<string, unknown>;
}

/**
 * The worker's own storage failed while the attempt ran (its archive could not be read): not the
 * attempt's outcome. The executor lets it through; the worker releases the attempt and retries it.
 */
export class StorageError extends StorageFailure {
  override name = 'StorageError';
  /** What the try's model call had cost before the failure (set by the executor), kept on the released try. */
  spent?: Partial<AttemptWrite['record']>;
}

export interface AttemptToRun {
  attemptId: string;
  campaignId: string;
  /** The try this run is (an agent's trajectory is stored per try). */
  tryNumber: number;
  trial: number;
  seed: number;
  modelId: string;
  outputMode: Mode;
  /** Agent mode: the campaign's agent configuration (tool set, protocol, limits). */
  agent?: AgentConfig;
  /** Agent mode: the third-party agent (claude-code, codex, ...) of the target, instead of our own loop. */
  thirdPartyAgent?: string;
  profile: string;
  fixture: Fixture;
  /** Input hash recorded when the campaign was planned: the attempt must rebuild the same state. */
  plannedInputHash: string;
  /** The restored workspace's archive, fetched when the attempt starts a sandbox. */
  repoArchive: () => Promise<Buffer>;
  repoState: string;
  buildInfo: Record<string, unknown>;
  judgeProfile?: string;
  /** Labels put on every sandbox of this attempt, so cancel and shutdown can find them. */
  sandboxLabels: Record<string, string>;
}

export interface AttemptExecutor {
  /** What a build of this fixture depends on, hashed; null when builds must not be shared. */
  buildKey(fixture: Fixture): string | null;
  /**
   * Builds every fixture's repository (few sandboxes, many fixtures each); a failure fails alone.
   * `onBuilt` hears of each fixture (by its index) as soon as it is built, before the others end.
   */
  buildRepositories(
    fixtures: Fixture[],
    labels: Record<string, string>,
    onBuilt?: (index: number, outcome: BuiltRepository | { error: string }) => void,
  ): Promise<(BuiltRepository | { error: string })[]>;
  /**
   * Runs the attempt and classifies every failure into an outcome; throws only on bugs and on the
   * worker's own StorageError. Its sandboxes are one-shot: each removes itself after its batch.
   */
  runAttempt(attempt: AttemptToRun, signal: AbortSignal): Promise<AttemptWrite>;
  /** Removes every sandbox carrying these labels (cancel, shutdown). */
  removeSandboxes(labels: Record<string, string>): Promise<number>;
  /** Removes sandboxes of workers that are no longer alive (killed without their shutdown). */
  removeOrphanSandboxes(aliveWorkerIds: ReadonlySet<string>, createdBeforeMs: number): Promise<number>;
  describeSandbox(): string;
  /**
   * Asks the sandbox engine itself (Docker's version), for the status page: the web app holds no
   * Docker socket, so a worker answers for the engine it uses.
   */
  sandboxEngine?(): Promise<string>;
}
