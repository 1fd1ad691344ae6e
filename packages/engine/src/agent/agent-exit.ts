import { tamperingIn, type AgentExitStatus } from '@gitbench/core';

/** How the agent loop ended, and what failed for model_error, sandbox_error and tampering. */
export interface AgentExit {
  status: AgentExitStatus;
  detail: string | null;
  error?: unknown;
}

/**
 * The loop's end when the sandbox failed under it: tampering when the failure is the session's
 * channel breaking its protocol (only the agent's processes can cause that: a counted failure), else
 * sandbox_error (infrastructure, excluded and retried).
 */
export function sandboxExit(detail: string, error: unknown): AgentExit {
  const tampering = tamperingIn(error);
  if (tampering)
    return {
      status: 'tampering',
      detail: `the agent's processes tampered with the sandbox: ${tampering.message}`,
      error: tampering,
    };
  return { status: 'sandbox_error', detail, error };
}
