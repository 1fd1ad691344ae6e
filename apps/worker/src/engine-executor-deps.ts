import type { Db } from '@gitbench/db';
import type { ProviderRegistry } from '@gitbench/providers';
import type { SandboxDriver } from '@gitbench/sandbox';

export interface EngineExecutorDeps {
  db: Db;
  driver: SandboxDriver;
  registry: ProviderRegistry;
  /** Which deployment this worker serves (see deploymentId in main.ts); orphan clean-up stays inside it. */
  deploymentId: string;
  /** Sandboxes one planning job builds fixture repositories in at once. */
  buildSandboxes: number;
  /** Limits on what one attempt may run and store (GITBENCH_MAX_* in the worker's environment). */
  limits?: { maxAnswerCommands?: number; maxAttemptOutputBytes?: number; maxEvidenceBytes?: number };
  /** Said in every attempt's evidence (the unsafe local driver). */
  warnings?: string[];
  /** Stored provider keys: cut out of anything the attempt stores, whatever a provider echoed. */
  secrets?: () => Iterable<string>;
  /**
   * Where a third-party agent's image is built from (GITBENCH_STATE_DIR: its staged npm install) and the
   * labels its containers carry (this worker's and deployment's, so shutdown and the orphan sweep find them).
   */
  agents?: { stateDir: string; labels: Record<string, string> };
}
