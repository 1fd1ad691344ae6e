import {
  agentConfigSchema,
  agentScoredOn,
  ANSWER_ENV,
  environmentPreamble,
  exitStatusIsScored,
  getToolSet,
  resolveToolSet,
  SandboxFailure,
  tamperingIn,
  WORKSPACE_VARIABLE,
  type ToolContext,
  type TrajectoryStep,
} from '@gitbench/core';
import type { Sandbox, SandboxDriver } from '@gitbench/sandbox';
import type { AttemptHashes } from '../attempt-result';
import { sessionStateStep } from '../sandbox-steps';
import { REFRESH_INDEXES } from '../execute-plan';
import { archiveBytes, type FixtureSnapshot } from '../fixture-snapshot';
import { referenceAnswer } from '../reference-answer';
import { attemptHashes } from '../score-attempt';
import { sessionRepoStateReader } from './repo-state-reader';
import { runAgent } from './run-agent';
import { sessionToolContext } from './session-tool-context';
import { gatewaySocketDir, runThirdPartyAgent } from './third-party-agent';
import type { AgentAttemptRecord, AgentAttemptInput } from './agent-attempt-input';
import { agentTaskPrompt, thirdPartyTaskPrompt } from './agent-task-prompt';
import { agentModelFor } from './agent-model';
import { tampered, hashMismatch } from './agent-attempt-result';
import { scoreAgentRun } from './agent-attempt-scoring';
import type { AgentAttemptOutcome, AgentAttemptPlan, AgentSession } from './agent-session';

type LoopRun = Pick<AgentAttemptRecord, 'summary' | 'steps' | 'error' | 'route' | 'calls'>;

/**
 * One agent attempt: a session sandbox restored from the snapshot (its hash checked), the loop, then
 * the fixture's own scorer on what the fixture is scored on: the repository the agent left (probes in
 * the same session) or the submitted answer (scored like a single answer, on the repository as built).
 * Returns the scored attempt (null when the loop ended on infrastructure) and the trajectory; a restored
 * repository that is not the fixture's ends HASH_MISMATCH with no trajectory (the agent is not run).
 */
export async function runAgentAttempt(input: AgentAttemptInput): Promise<AgentAttemptOutcome> {
  const plan = planAgentAttempt(input);
  const tar = await archiveBytes(input.snapshot.tar);
  const started = performance.now();
  const socket = input.thirdParty ? await gatewaySocketDir() : null;
  const session = await startSession(input, plan.sessionDriver, socket);
  const abort = () => void session.cleanup();
  input.signal?.addEventListener('abort', abort, { once: true });
  try {
    return await attemptInSession({ input, plan, session, socket, tar, started });
  } finally {
    input.signal?.removeEventListener('abort', abort);
    await session.cleanup().catch(() => undefined);
    await socket?.remove();
  }
}

function planAgentAttempt(input: AgentAttemptInput): AgentAttemptPlan {
  const { fixture, snapshot, driver, thirdParty } = input;
  const config = agentConfigSchema.parse(input.agent?.config ?? {});
  const toolSet = getToolSet(resolveToolSet(fixture, config.toolSet));
  const reference = referenceAnswer(fixture, snapshot);
  // A third-party agent brings its own loop; the gateway plays the built-in models through its tools.
  const model = thirdParty ? null : agentModelFor(input, fixture, reference, toolSet);
  // The session runs where the agent runs: a third-party agent's image, with the gateway's socket mounted.
  const sessionDriver = thirdParty?.driver ?? driver;
  const { tmpBytes } = sessionDriver.describe();
  // Our loop stops each command at the configured limit, and its system prompt states the budget.
  const prompt = thirdParty
    ? thirdPartyTaskPrompt(fixture, snapshot, config.limits, tmpBytes)
    : agentTaskPrompt(fixture, snapshot, 'submit', config.limits.commandTimeoutMs);
  return { config, toolSet, reference, model, sessionDriver, tmpBytes, prompt, scoredOn: agentScoredOn(fixture) };
}

async function startSession(
  input: AgentAttemptInput,
  sessionDriver: SandboxDriver,
  socket: AgentSession['socket'],
): Promise<Sandbox> {
  try {
    return await sessionDriver.create({
      ...(input.labels ? { labels: input.labels } : {}),
      ...(socket ? { mounts: [socket.mount] } : {}),
    });
  } catch (error) {
    await socket?.remove();
    throw new SandboxFailure(`the agent's sandbox could not start: ${(error as Error).message}`, { cause: error });
  }
}

/** The attempt once its session runs: the repository restored and checked, the loop, the scorer. */
async function attemptInSession(s: AgentSession): Promise<AgentAttemptOutcome> {
  const { input, plan, session } = s;
  const { fixture, snapshot } = input;
  const { prompt } = plan;
  const repoCwd = snapshot.repoDir;
  await prepareSession(session, s.tar);
  const hashes = attemptHashes(fixture, snapshot, prompt, await readRestoredState(session, repoCwd));
  if (hashes.input !== hashes.expectedInput) {
    // Not the fixture's repository: HASH_MISMATCH, as for a single answer, before the agent is run.
    return {
      attempt: hashMismatch(input, prompt, hashes, session, performance.now() - s.started),
      agent: null,
      prompt,
    };
  }
  await session.exec(REFRESH_INDEXES, { cwd: repoCwd, timeoutMs: 60_000 });

  const ctx = sessionToolContext({
    session,
    repoDir: repoCwd,
    limits: plan.config.limits,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const run = input.thirdParty ? await runThirdPartyLoop(s) : await runOwnLoop(s, ctx);
  const record: AgentAttemptRecord = {
    summary: run.summary,
    steps: run.steps,
    scoredOn: plan.scoredOn,
    error: run.error,
    route: run.route,
    ...(run.calls ? { calls: run.calls } : {}),
  };
  return scoreUnlessEnded(s, ctx, hashes, record);
}

/** The loop's own ending decides first: tampering is a counted failure, infrastructure leaves it unscored. */
async function scoreUnlessEnded(
  s: AgentSession,
  ctx: ToolContext,
  hashes: AttemptHashes,
  record: AgentAttemptRecord,
): Promise<AgentAttemptOutcome> {
  const { input, plan } = s;
  const loopTampering = input.signal?.aborted ? undefined : tamperingIn(record.error);
  if (loopTampering)
    return {
      attempt: tampered(input, plan.prompt, hashes, s.session, performance.now() - s.started, loopTampering),
      agent: record,
      prompt: plan.prompt,
    };
  if (!exitStatusIsScored(record.summary.exitStatus)) return { attempt: null, agent: record, prompt: plan.prompt };
  return scoreAgentRun(s, ctx, hashes, record);
}

async function prepareSession(session: Sandbox, tar: Buffer): Promise<void> {
  try {
    await session.restore(tar);
    await session.applyPreamble(
      [
        environmentPreamble(),
        `export ${WORKSPACE_VARIABLE}="$PWD"`,
        ...Object.entries(ANSWER_ENV).map(([k, v]) => `export ${k}='${v}'`),
      ].join('\n'),
    );
  } catch (error) {
    throw new SandboxFailure(`the agent's sandbox could not be prepared: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The restored repository's state text, which its input hash is computed from. */
async function readRestoredState(session: Sandbox, repoCwd: FixtureSnapshot['repoDir']): Promise<string> {
  const stateStep = sessionStateStep(repoCwd);
  const state = await session.exec(stateStep.command, {
    cwd: repoCwd,
    maxOutputBytes: stateStep.maxOutputBytes,
    timeoutMs: 60_000,
  });
  if (state.exitCode !== 0)
    throw new SandboxFailure(
      `the restored repository could not be read (exit ${state.exitCode}): ${state.stderr.slice(0, 300)}`,
    );
  return state.stdout;
}

async function runThirdPartyLoop(s: AgentSession): Promise<LoopRun> {
  const { input, plan } = s;
  const thirdParty = input.thirdParty!;
  await input.agent?.onStart?.({
    agent: `${thirdParty.adapter.name}@${thirdParty.adapter.version}`,
    model: input.modelName,
    toolSet: thirdParty.adapter.name,
  });
  return runThirdPartyAgent({
    adapter: thirdParty.adapter,
    session: s.session,
    socketDir: s.socket!.dir,
    repoDir: input.snapshot.repoDir,
    fixture: input.fixture,
    reference: plan.reference,
    modelName: input.modelName,
    model: input.model,
    config: plan.config,
    taskPrompt: plan.prompt,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.agent?.onCall ? { onCall: input.agent.onCall } : {}),
    // Rebuilt from the calls as they come (a step is whole once a later request carries its results):
    // they go where our own loop's go, so the worker stores them alike, live.
    ...(input.agent?.onStep ? { onStep: (step: TrajectoryStep) => input.agent!.onStep!(step, 'native') } : {}),
  });
}

async function runOwnLoop(s: AgentSession, ctx: ToolContext): Promise<LoopRun> {
  const { input, plan } = s;
  await input.agent?.onStart?.({ agent: input.modelName, model: input.modelName, toolSet: plan.toolSet.name });
  return runAgent({
    model: plan.model!,
    modelName: input.modelName,
    agent: input.modelName,
    toolSet: plan.toolSet,
    config: plan.config,
    taskPrompt: plan.prompt,
    ctx,
    repoLabel: `${ctx.repoDir} (the current directory of every command)`,
    ...(plan.tmpBytes !== undefined ? { tmpBytes: plan.tmpBytes } : {}),
    repoState: sessionRepoStateReader(s.session, ctx.repoDir, ctx),
    ...(input.agent?.onStep ? { onStep: input.agent.onStep } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
}
