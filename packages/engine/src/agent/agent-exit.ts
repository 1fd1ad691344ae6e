import type { AgentExitStatus } from '@gitbench/core';

/** How the agent loop ended, and what failed for model_error and sandbox_error. */
export interface AgentExit {
  status: AgentExitStatus;
  detail: string | null;
  error?: unknown;
}
