import type { AgentLimits } from '@gitbench/core';

/** The worker's wall-clock limit of one attempt, and what the attempt's error says when it is hit. */
export interface AttemptDeadline {
  ms: number;
  /** Stored as the attempt's errorMessage (class attempt_timeout): names the limit that applied. */
  message: string;
}

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * When the worker stops an attempt as an infrastructure failure (attempt_timeout).
 *
 * A single answer gets GITBENCH_ATTEMPT_TIMEOUT_MS: one model call, its sandbox and a judge.
 *
 * An agent attempt has a wall limit of its own (maxWallMs, up to 6 h), which ends the loop as a graded
 * time_limit exit, scored on what the agent left. The worker must not cut it first, so its deadline
 * is that limit plus:
 *  - commandTimeoutMs: a tool command started just before maxWallMs runs to its own limit (the loop
 *    checks the wall clock between calls, and aborts only model calls at maxWallMs);
 *  - GITBENCH_ATTEMPT_TIMEOUT_MS as the margin for everything outside the loop: opening the session
 *    sandbox and restoring the repository before it, the scorer's probes and a judge after it. That is
 *    the time a whole single answer (model call, sandbox, judge) is given, more than this work needs;
 *    an attempt stuck there still ends, as before, one such limit after the agent's own.
 */
export function attemptDeadline(
  attemptTimeoutMs: number,
  agent?: Pick<AgentLimits, 'maxWallMs' | 'commandTimeoutMs'> | null,
): AttemptDeadline {
  if (!agent) {
    return {
      ms: attemptTimeoutMs,
      message:
        `The attempt ran longer than its wall-clock limit ` +
        `of ${seconds(attemptTimeoutMs)} s (GITBENCH_ATTEMPT_TIMEOUT_MS) and was stopped.`,
    };
  }
  const ms = agent.maxWallMs + agent.commandTimeoutMs + attemptTimeoutMs;
  return {
    ms,
    message:
      `The agent attempt ran longer than the worker's wall-clock limit of ${seconds(ms)} ` +
      `s and was stopped: the agent's maxWallMs (${seconds(agent.maxWallMs)} s) ` +
      `plus its commandTimeoutMs (${seconds(agent.commandTimeoutMs)} s) for ` +
      `a last command, plus GITBENCH_ATTEMPT_TIMEOUT_MS (${seconds(attemptTimeoutMs)} ` +
      `s) for the sandbox, scoring and judging around the loop.`,
  };
}
