import type { AgentConfig, getToolSet } from '@gitbench/core';
import type { AgentModel } from '@gitbench/providers';
import type { Sandbox, SandboxDriver } from '@gitbench/sandbox';
import type { AttemptResult } from '../attempt-result';
import type { AgentAttemptInput, AgentAttemptRecord } from './agent-attempt-input';
import type { gatewaySocketDir } from './third-party-agent';

/** What an agent attempt returns: the scored attempt (null when the loop ended on infrastructure), the trajectory. */
export interface AgentAttemptOutcome {
  attempt: AttemptResult | null;
  agent: AgentAttemptRecord | null;
  prompt: string;
}

/** What an attempt settles before its sandbox starts. */
export interface AgentAttemptPlan {
  config: AgentConfig;
  toolSet: ReturnType<typeof getToolSet>;
  reference: string;
  /** Our loop's model side; null for a third-party agent, which brings its own loop. */
  model: AgentModel | null;
  /** Where the session runs: a third-party agent's image, else the attempt's driver. */
  sessionDriver: SandboxDriver;
  tmpBytes: number | undefined;
  prompt: string;
  scoredOn: AgentAttemptRecord['scoredOn'];
}

/** One attempt's live session: what every step after the sandbox started works with. */
export interface AgentSession {
  input: AgentAttemptInput;
  plan: AgentAttemptPlan;
  session: Sandbox;
  socket: Awaited<ReturnType<typeof gatewaySocketDir>> | null;
  /** The snapshot's workspace archive, as restored into the session. */
  tar: Buffer;
  /** performance.now() when the attempt started: the session's time is measured from it. */
  started: number;
}
