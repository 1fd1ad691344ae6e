import type {
  AgentConfig,
  AgentConfigInput,
  Fixture,
  GatewayCallRecord,
  TrajectoryStep,
  TrajectorySummary,
} from '@gitbench/core';
import type { AgentWireProtocol, Provider, RouteMetadata } from '@gitbench/providers';
import type { AgentAdapter } from '@gitbench/agents';
import type { SandboxDriver } from '@gitbench/sandbox';
import type { FixtureSnapshot } from '../fixture-snapshot';

/** What the caller of an agent attempt may add: its configuration and where steps go as they finish. */
export interface AgentAttemptOptions {
  /** Tool set and limits; defaults apply to what is not given. */
  config?: AgentConfigInput | AgentConfig;
  /** Called once, before the first model call, with what the trajectory is (the worker starts its row). */
  onStart?: (info: { agent: string; model: string; toolSet: string }) => void | Promise<void>;
  /**
   * Every finished step, in order (the worker stores it: live trajectories). A step of our own loop is
   * finished once the repository's state after it is read, which overlaps the next model call: it comes
   * during that call or after it, and before the next turn's tool calls run or the loop returns.
   * A third-party agent's steps are rebuilt from its gateway calls, each once it is final (settledSteps).
   */
  onStep?: (step: TrajectoryStep, protocol: AgentWireProtocol) => void | Promise<void>;
  /** A third-party agent's every call through the model gateway, as it completes. */
  onCall?: (call: GatewayCallRecord) => void | Promise<void>;
}

/** A third-party agent (Claude Code, Codex CLI, ...) instead of our own loop, and the driver on its image. */
export interface ThirdPartyAgentTarget {
  adapter: AgentAdapter;
  /** A Docker driver whose image is the agent's (gitbench-agent-<name>:<hash>); the attempt records it. */
  driver: SandboxDriver;
}

/** The agent's side of an attempt: its trajectory and why it stopped. */
export interface AgentAttemptRecord {
  summary: TrajectorySummary;
  steps: TrajectoryStep[];
  /** Whether the result was scored on the repository or on the submitted answer. */
  scoredOn: 'repository' | 'answer';
  /** Set for model_error, sandbox_error and tampering: what failed (the attempt's failure class is read from it). */
  error: unknown;
  route: RouteMetadata | null;
  /** A third-party agent's calls through the gateway, the trajectory's source. */
  calls?: GatewayCallRecord[];
}

export interface AgentAttemptInput {
  fixture: Fixture;
  snapshot: FixtureSnapshot;
  driver: SandboxDriver;
  model: Pick<Provider, 'name'> & Partial<Pick<Provider, 'kind' | 'chat'>>;
  modelName: string;
  trial?: number;
  labels?: Record<string, string>;
  signal?: AbortSignal;
  agent?: AgentAttemptOptions;
  thirdParty?: ThirdPartyAgentTarget;
}
