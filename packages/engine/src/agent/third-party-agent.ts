import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  agentScoredOn,
  callsToTrajectory,
  ConfigurationError,
  lookupEnvironment,
  SandboxFailure,
  settledSteps,
  sumStepUsage,
  tamperingIn,
  thirdPartyExit,
  thirdPartySubmission,
  TRAJECTORY_VERSION,
  type AgentConfig,
  type Fixture,
  type GatewayCallRecord,
  type RepoStepState,
  type TamperingError,
  type TrajectoryStep,
  type TrajectorySummary,
} from '@gitbench/core';
import { agentInvocation, GATEWAY_SOCKET_DIR, GATEWAY_SOCKET_NAME, type AgentAdapter } from '@gitbench/agents';
import { startModelGateway, type GatewayBackend } from '@gitbench/gateway';
import type { Provider, RouteMetadata } from '@gitbench/providers';
import type { Sandbox, SandboxMount } from '@gitbench/sandbox';
import { sandboxExit } from './agent-exit';
import { referenceShellCommands } from './builtin-agents';
import { repoStateReader, type RepoStateReader } from './repo-state-reader';

/** Bytes of the agent's own stdout and stderr kept (head and tail): its event log, not our evidence. */
const AGENT_OUTPUT_BYTES = 256 * 1024;
/** Past this much output the pipe is closed, so a flood stops its writer (as for our own tool calls). */
const AGENT_DRAIN_BYTES = 64 * 1024 * 1024;
/** Time the agent gets past the gateway's wall time to surface the gateway's refusal and exit by itself. */
const WALL_GRACE_MS = 15_000;

/** A directory on the host for one attempt's gateway socket, mounted into its container. */
export async function gatewaySocketDir(
  root = os.tmpdir(),
): Promise<{ dir: string; mount: SandboxMount; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(root, 'gitbench-gw-'));
  // The agent runs as another uid in the container: it must reach the socket, which the gateway makes 0666.
  await chmod(dir, 0o755);
  return {
    dir,
    mount: { hostPath: dir, containerPath: GATEWAY_SOCKET_DIR, readOnly: true },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Who answers the agent's calls: the built-in oracle or nop, or the target's provider (its key stays here). */
export function gatewayBackend(
  modelName: string,
  model: Pick<Provider, 'name'> & Partial<Pick<Provider, 'chat'>>,
  adapter: AgentAdapter,
  fixture: Fixture,
  reference: string,
): GatewayBackend {
  if (modelName === 'oracle') {
    const answer = agentScoredOn(fixture) === 'answer';
    return {
      kind: 'builtin',
      model: 'oracle',
      commands: referenceShellCommands(fixture, reference),
      finalText: answer ? reference : 'Done.',
      shellTool: adapter.shellTool,
    };
  }
  if (modelName === 'nop') return { kind: 'builtin', model: 'nop', finalText: '' };
  const chat = model.chat;
  if (!chat)
    throw new ConfigurationError(
      'no_agent_side',
      `${model.name} cannot drive a third-party agent (it has no ` +
        `tool-calling side); use a provider model, oracle or nop.`,
    );
  return { kind: 'provider', model: modelName, chat: (request) => chat.call(model, request) };
}

/**
 * Reads the repository beside the running agent (Sandbox.observeRepoState, the session runner's read
 * run as a uid of its own): with the look-ups' environment (no hook, no fsmonitor, no global
 * configuration), every filter key of the repository and its submodules set empty, the repository
 * trusted whoever owns it, and a state directory only it can write, named so the agent cannot prepare it.
 */
function observerReader(session: Sandbox, repoDir: string): RepoStateReader {
  const observe = session.observe;
  const observeRepoState = session.observeRepoState;
  if (!observe || !observeRepoState)
    throw new SandboxFailure(
      'this sandbox driver cannot read a repository beside a running agent; third-party agents need the Docker driver',
    );
  const stateDir = `/tmp/gitbench-observer-${randomUUID()}`;
  const env = lookupEnvironment();
  const n = Number(env.GIT_CONFIG_COUNT ?? 0);
  const observerEnv = {
    ...env,
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: 'safe.directory',
    [`GIT_CONFIG_VALUE_${n}`]: '*',
    TMPDIR: stateDir,
  };
  let made: Promise<unknown> | null = null;
  const ready = () => (made ??= observe(`mkdir -m 700 ${stateDir}`, { timeoutMs: 10_000 }));
  return repoStateReader({
    async exec(command, options) {
      await ready();
      return observe(command, { ...options, cwd: repoDir, env: { ...options.env, ...observerEnv } });
    },
    async readState(options) {
      await ready();
      return observeRepoState({ ...options, cwd: repoDir, env: { ...options.env, ...observerEnv } });
    },
  });
}

export interface ThirdPartyRunInput {
  adapter: AgentAdapter;
  session: Sandbox;
  /** The gateway socket's directory on the host, mounted into the session at GATEWAY_SOCKET_DIR. */
  socketDir: string;
  /** The repository, relative to the session's workdir. */
  repoDir: string;
  fixture: Fixture;
  reference: string;
  modelName: string;
  model: Pick<Provider, 'name'> & Partial<Pick<Provider, 'kind' | 'chat'>>;
  config: AgentConfig;
  taskPrompt: string;
  signal?: AbortSignal;
  onCall?: (call: GatewayCallRecord) => void | Promise<void>;
  /**
   * Each step of the rebuilt trajectory, in order, once it is final: as the calls come in (settledSteps)
   * and the rest when the agent has ended, so a running attempt's steps can be watched as our own loop's.
   */
  onStep?: (step: TrajectoryStep) => void | Promise<void>;
}

export interface ThirdPartyRun {
  summary: TrajectorySummary;
  steps: TrajectoryStep[];
  calls: GatewayCallRecord[];
  error: unknown;
  route: RouteMetadata | null;
  /** The agent's own output (its event log), capped: stdout then stderr. */
  agentOutput: { stdout: string; stderr: string; exitCode: number | null };
}

/**
 * One run of a third-party agent in its session: the gateway started on the mounted socket, the
 * agent's configuration written into its home, the agent run through the loopback forwarder as one
 * request of the session (its timeout and output cap the runner's, its processes swept when it ends),
 * the repository read before every call, the trajectory rebuilt from the calls.
 */
export async function runThirdPartyAgent(input: ThirdPartyRunInput): Promise<ThirdPartyRun> {
  const { adapter, session, config } = input;
  const limits = config.limits;
  const started = performance.now();
  const repoAbs = path.posix.resolve(session.workdir, input.repoDir);
  const backend = gatewayBackend(input.modelName, input.model, adapter, input.fixture, input.reference);
  const reader = observerReader(session, input.repoDir);
  // A read during which the agent's processes ran is tampering (the observer killed them then): the
  // attempt ends as a counted failure. Any other failure of a read leaves its step without a state.
  // The agent's request can end (killed by the observer) before the read that found it out has.
  let tampering: TamperingError | undefined;
  const reading = new Set<Promise<RepoStepState | null>>();
  const observe = () => {
    const read = reader.read().catch((error: unknown) => {
      tampering ??= tamperingIn(error);
      return null;
    });
    reading.add(read);
    return read.finally(() => reading.delete(read));
  };
  // The baseline the first call's diff is compared with.
  await observe();
  const repoBeforeCall = new Map<number, RepoStepState | null>();
  // Steps handed to onStep so far; the gateway calls onCall one call at a time, in completion order.
  const completed: GatewayCallRecord[] = [];
  let emitted = 0;
  const emit = async (steps: readonly TrajectoryStep[], upTo: number) => {
    for (; emitted < upTo; emitted++) await input.onStep!(steps[emitted]!);
  };
  const onCall = async (call: GatewayCallRecord) => {
    await input.onCall?.(call);
    if (!input.onStep) return;
    completed.push(call);
    const settled = settledSteps(completed, repoBeforeCall);
    if (settled > emitted) await emit(callsToTrajectory(completed, { repoBeforeCall }), settled);
  };
  const gateway = await startModelGateway({
    socketPath: path.join(input.socketDir, GATEWAY_SOCKET_NAME),
    backend,
    budget: {
      maxCalls: limits.maxTurns,
      maxTotalTokens: limits.maxTokens,
      ...(limits.maxCostUsd !== null ? { maxCostUsd: limits.maxCostUsd } : {}),
      wallTimeMs: limits.maxWallMs,
    },
    beforeCall: async (seq) => {
      repoBeforeCall.set(seq, await observe());
    },
    ...(input.onCall || input.onStep ? { onCall } : {}),
  });
  let result: Awaited<ReturnType<Sandbox['exec']>> | null = null;
  let failure: unknown = null;
  try {
    const invocation = agentInvocation(adapter, {
      model: input.modelName,
      prompt: input.taskPrompt,
      limits,
      home: '/home/sandbox',
      workdir: repoAbs,
    });
    for (const file of invocation.files) await session.writeFile(file.path, file.content);
    result = await session.exec(invocation.command, {
      cwd: repoAbs,
      env: invocation.env,
      timeoutMs: limits.maxWallMs + WALL_GRACE_MS,
      maxOutputBytes: AGENT_OUTPUT_BYTES,
      drainBytes: AGENT_DRAIN_BYTES,
    });
  } catch (error) {
    failure = error;
  }
  await Promise.all(reading);
  const ended: unknown = tampering ?? failure;
  const repoAtEnd = ended ? null : await observe();
  await gateway.close();
  if (input.signal?.aborted) throw input.signal.reason ?? new Error('cancelled');
  const calls = gateway.calls();
  const steps = callsToTrajectory(calls, { repoBeforeCall, repoAtEnd });
  // The steps that waited for the end (text alone, results that never came, the repository at the end).
  if (input.onStep) await emit(steps, steps.length);
  const exhausted = gateway.exhausted();
  // The session ended under the agent as under our own loop: its runner killed for memory its processes
  // filled is tampering (counted), a kill from outside stays sandbox_error (excluded).
  const exit = ended
    ? sandboxExit(`the agent's sandbox failed: ${(ended as Error).message}`, ended)
    : thirdPartyExit({
        exhausted: exhausted ? { exitStatus: exhausted.exitStatus, message: exhausted.message } : null,
        timedOut: result!.timedOut,
        exitCode: result!.exitCode,
        stderrTail: result!.stderr,
        calls,
      });
  const agentName = `${adapter.name}@${adapter.version}`;
  const summary: TrajectorySummary = {
    version: TRAJECTORY_VERSION,
    agent: agentName,
    model: input.modelName,
    toolSet: adapter.name,
    protocol: 'native',
    exitStatus: exit.status,
    exitDetail: exit.detail,
    exitStep: steps.length > 0 ? steps.length - 1 : null,
    submission: thirdPartySubmission(calls),
    steps: steps.length,
    totals: {
      ...sumStepUsage(steps),
      modelMs: steps.reduce((t, s) => t + s.modelMs, 0),
      toolMs: steps.reduce((t, s) => t + s.toolMs, 0),
      wallMs: Math.max(0, performance.now() - started),
      toolCalls: steps.reduce((t, s) => t + s.toolCalls.length, 0),
    },
    systemPrompt: `(${adapter.displayName} ${adapter.version}'s own system prompt: see the first call's request)`,
    taskPrompt: input.taskPrompt,
  };
  const route: RouteMetadata = {
    provider: 'agent',
    profile: backend.kind === 'builtin' ? 'builtin' : input.model.name,
    baseUrl: null,
    requestedModel: input.modelName,
    servedModel: calls.find((c) => c.answer !== null)?.model ?? null,
    responseId: null,
    upstreamProvider: null,
    simulated: false,
  };
  return {
    summary,
    steps,
    calls,
    error: ended ?? (exit.status === 'model_error' ? new Error(exit.detail ?? 'model error') : null),
    route,
    agentOutput: { stdout: result?.stdout ?? '', stderr: result?.stderr ?? '', exitCode: result?.exitCode ?? null },
  };
}
