import {
  agentBudgetSentence,
  agentCheckStatement,
  agentConfigSchema,
  agentScoredOn,
  agentTaskText,
  ANSWER_ENV,
  ConfigurationError,
  environmentPreamble,
  exitStatusIsScored,
  getScorer,
  lookupEnvironment,
  parseModelId,
  UNKNOWN_COST,
  getToolSet,
  renderPrompt,
  resolveToolSet,
  SandboxFailure,
  TamperingError,
  tamperingIn,
  ToolRefusal,
  WORKSPACE_VARIABLE,
  type AgentConfig,
  type AgentConfigInput,
  type AgentLimits,
  type ExecRecord,
  type Fixture,
  type GatewayCallRecord,
  type SandboxEvidence,
  type ToolContext,
  type TrajectoryStep,
  type TrajectorySummary,
} from '@gitbench/core';
import type { AgentModel, AgentWireProtocol, CompletionResult, Provider, RouteMetadata } from '@gitbench/providers';
import type { AgentAdapter } from '@gitbench/agents';
import type { Sandbox, SandboxDriver } from '@gitbench/sandbox';
import type { AttemptHashes, AttemptResult } from '../attempt-result';
import { sessionStateStep, toExecRecord } from '../sandbox-steps';
import { builtGitFiles } from '../built-git-files';
import { lookupConfigStep, lookupSteps, REFRESH_INDEXES, scorerViewTampering } from '../execute-plan';
import { archiveBytes, type FixtureSnapshot } from '../fixture-snapshot';
import { referenceAnswer } from '../reference-answer';
import { attemptHashes, hashMismatchError, scoreAttempt } from '../score-attempt';
import { sandboxExit } from './agent-exit';
import { builtinAgent } from './builtin-agents';
import { repoStateReader } from './repo-state-reader';
import { runAgent } from './run-agent';
import { sessionToolContext } from './session-tool-context';
import { gatewaySocketDir, runThirdPartyAgent } from './third-party-agent';

/** What the caller of an agent attempt may add: its configuration and where steps go as they finish. */
export interface AgentAttemptOptions {
  /** Tool set and limits; defaults apply to what is not given. */
  config?: AgentConfigInput | AgentConfig;
  /** Called once, before the first model call, with what the trajectory is (the worker starts its row). */
  onStart?: (info: { agent: string; model: string; toolSet: string }) => void | Promise<void>;
  /**
   * Every finished step, in order, before the next model call (the worker stores it: live trajectories).
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

/**
 * The task as the agent is given it: the fixture's agent prompt, or its prompt without an output format
 * nothing scores, with its context, then the one statement of what is checked (core's agentTaskText and
 * agentCheckStatement).
 */
export function agentTaskPrompt(
  fixture: Fixture,
  snapshot: FixtureSnapshot,
  answerBy: 'submit' | 'final message',
  commandTimeoutMs: number | null,
): string {
  const prompt = renderPrompt(
    { ...fixture, prompt: agentTaskText(fixture) },
    snapshot.context,
    'agent',
    commandTimeoutMs,
  );
  const checked = agentCheckStatement(fixture, answerBy);
  return checked ? `${prompt}\n\n${checked}` : prompt;
}

/**
 * The task as a third-party agent gets it: its own tools set the command limit, and its system prompt
 * is its own, so the budget the gateway holds it to (model calls, wall-clock time) ends the task.
 */
export function thirdPartyTaskPrompt(
  fixture: Fixture,
  snapshot: FixtureSnapshot,
  limits: Pick<AgentLimits, 'maxTurns' | 'maxWallMs'>,
): string {
  return `${agentTaskPrompt(fixture, snapshot, 'final message', null)}\n\n${agentBudgetSentence(limits, null)}`;
}

/** The model's agent side: a built-in agent, or the provider's tool-calling turns. */
function agentModelFor(
  input: AgentAttemptInput,
  fixture: Fixture,
  reference: string,
  toolSet: ReturnType<typeof getToolSet>,
): AgentModel {
  const builtin = builtinAgent(input.modelName, {
    fixture,
    reference,
    toolSet,
    ...(input.trial !== undefined ? { trial: input.trial } : {}),
  });
  if (builtin) return builtin;
  const chat = input.model.chat;
  if (!chat) {
    const hint =
      input.model.kind === 'replay'
        ? ' A replay in agent mode needs an ATIF trajectory file (gitbench trajectory export --format atif), not a result file.'
        : '';
    throw new ConfigurationError(
      'no_agent_side',
      `${input.model.name} cannot run agent attempts (it has no tool-calling side).${hint}`,
    );
  }
  return { name: input.model.name, kind: input.model.kind ?? 'model', chat: (r) => chat.call(input.model, r) };
}

/**
 * A file as the agent left it, or null when it left none a read can return: missing, or refused (a
 * directory, a FIFO, too large), which the model chose, so the file counts as absent, not as the
 * sandbox failing.
 */
async function readLeftFile(ctx: ToolContext, name: string): Promise<string | null> {
  try {
    const bytes = await ctx.readFile(name);
    return bytes === null ? null : decoder.decode(bytes);
  } catch (error) {
    if (error instanceof ToolRefusal) return null;
    throw error;
  }
}

/** A single text that a resolved_file_blocks scorer reads: the files as the agent left them. */
function filesAsBlocks(files: [string, string | null][]): string {
  const present = files.filter((f): f is [string, string] => f[1] !== null);
  if (files.length === 1) return present[0]?.[1] ?? '';
  return present.map(([name, content]) => `--- ${name}\n${content.replace(/\n$/, '')}\n`).join('\n');
}

const decoder = new TextDecoder();

/**
 * One agent attempt: a session sandbox restored from the snapshot (its hash checked), the loop, then
 * the fixture's own scorer on what the fixture is scored on: the repository the agent left (probes in
 * the same session) or the submitted answer (scored like a single answer, on the repository as built).
 * Returns the scored attempt (null when the loop ended on infrastructure) and the trajectory; a restored
 * repository that is not the fixture's ends HASH_MISMATCH with no trajectory (the agent is not run).
 */
export async function runAgentAttempt(
  input: AgentAttemptInput,
): Promise<{ attempt: AttemptResult | null; agent: AgentAttemptRecord | null; prompt: string }> {
  const { fixture, snapshot, driver, thirdParty } = input;
  const config = agentConfigSchema.parse(input.agent?.config ?? {});
  const toolSet = getToolSet(resolveToolSet(fixture, config.toolSet));
  const reference = referenceAnswer(fixture, snapshot);
  // A third-party agent brings its own loop; the gateway plays the built-in models through its tools.
  const model = thirdParty ? null : agentModelFor(input, fixture, reference, toolSet);
  // Our loop stops each command at the configured limit, and its system prompt states the budget.
  const prompt = thirdParty
    ? thirdPartyTaskPrompt(fixture, snapshot, config.limits)
    : agentTaskPrompt(fixture, snapshot, 'submit', config.limits.commandTimeoutMs);
  const scoredOn = agentScoredOn(fixture);
  const tar = await archiveBytes(snapshot.tar);
  const started = performance.now();
  // The session runs where the agent runs: a third-party agent's image, with the gateway's socket mounted.
  const sessionDriver = thirdParty?.driver ?? driver;
  const { tmpBytes } = sessionDriver.describe();
  const socket = thirdParty ? await gatewaySocketDir() : null;

  let session: Sandbox;
  try {
    session = await sessionDriver.create({
      ...(input.labels ? { labels: input.labels } : {}),
      ...(socket ? { mounts: [socket.mount] } : {}),
    });
  } catch (error) {
    await socket?.remove();
    throw new SandboxFailure(`the agent's sandbox could not start: ${(error as Error).message}`, { cause: error });
  }
  const abort = () => void session.cleanup();
  input.signal?.addEventListener('abort', abort, { once: true });
  try {
    const repoCwd = snapshot.repoDir;
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
    const hashes = attemptHashes(fixture, snapshot, prompt, state.stdout);
    if (hashes.input !== hashes.expectedInput) {
      // Not the fixture's repository: HASH_MISMATCH, as for a single answer, before the agent is run.
      return {
        attempt: hashMismatch(input, prompt, hashes, session, performance.now() - started),
        agent: null,
        prompt,
      };
    }
    await session.exec(REFRESH_INDEXES, { cwd: repoCwd, timeoutMs: 60_000 });

    const ctx = sessionToolContext({
      session,
      repoDir: repoCwd,
      limits: config.limits,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    let run: {
      summary: TrajectorySummary;
      steps: TrajectoryStep[];
      error: unknown;
      route: RouteMetadata | null;
      calls?: GatewayCallRecord[];
    };
    if (thirdParty) {
      await input.agent?.onStart?.({
        agent: `${thirdParty.adapter.name}@${thirdParty.adapter.version}`,
        model: input.modelName,
        toolSet: thirdParty.adapter.name,
      });
      run = await runThirdPartyAgent({
        adapter: thirdParty.adapter,
        session,
        socketDir: socket!.dir,
        repoDir: repoCwd,
        fixture,
        reference,
        modelName: input.modelName,
        model: input.model,
        config,
        taskPrompt: prompt,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.agent?.onCall ? { onCall: input.agent.onCall } : {}),
        // Rebuilt from the calls as they come (a step is whole once a later request carries its results):
        // they go where our own loop's go, so the worker stores them alike, live.
        ...(input.agent?.onStep ? { onStep: (step: TrajectoryStep) => input.agent!.onStep!(step, 'native') } : {}),
      });
    } else {
      await input.agent?.onStart?.({ agent: input.modelName, model: input.modelName, toolSet: toolSet.name });
      run = await runAgent({
        model: model!,
        modelName: input.modelName,
        agent: input.modelName,
        toolSet,
        config,
        taskPrompt: prompt,
        ctx,
        repoLabel: `${ctx.repoDir} (the current directory of every command)`,
        ...(tmpBytes !== undefined ? { tmpBytes } : {}),
        repoState: repoStateReader(ctx),
        ...(input.agent?.onStep ? { onStep: input.agent.onStep } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
    }
    const record: AgentAttemptRecord = {
      summary: run.summary,
      steps: run.steps,
      scoredOn,
      error: run.error,
      route: run.route,
      ...(run.calls ? { calls: run.calls } : {}),
    };
    const loopTampering = input.signal?.aborted ? undefined : tamperingIn(run.error);
    if (loopTampering)
      return {
        attempt: tampered(input, prompt, hashes, session, performance.now() - started, loopTampering),
        agent: record,
        prompt,
      };
    if (!exitStatusIsScored(run.summary.exitStatus)) return { attempt: null, agent: record, prompt };

    const submission = run.summary.submission ?? '';
    const modelMs = run.summary.totals.modelMs;
    const base = {
      fixture,
      snapshot,
      driver,
      outputMode: 'text' as const,
      prompt,
      modelMs,
      ...(input.labels ? { labels: input.labels } : {}),
    };
    // The session the agent worked in is the sandbox that ran, for its whole life; an answer scored on
    // its text alone ran no other.
    const sessionMs = () => performance.now() - started;
    if (scoredOn === 'answer') {
      const attempt = await scoreAttempt({ ...base, output: submission });
      return {
        attempt:
          attempt.sandbox.kind === 'none' ? withSession(attempt, sessionDriver, session, null, sessionMs()) : attempt,
        agent: record,
        prompt,
      };
    }
    try {
      if (fixture.scoring.type === 'resolved_file_blocks') {
        const names = Object.keys((fixture.scoring.expected_files ?? {}) as Record<string, unknown>);
        const files = await Promise.all(
          names.map(async (n): Promise<[string, string | null]> => [n, await readLeftFile(ctx, n)]),
        );
        const attempt = await scoreAttempt({ ...base, output: filesAsBlocks(files) });
        return { attempt: withSession(attempt, sessionDriver, session, null, sessionMs()), agent: record, prompt };
      }
      const evidence = await probeSession(input, session, submission, tar);
      const attempt = await scoreAttempt({ ...base, output: submission, recordedEvidence: evidence });
      return {
        attempt: withSession(agentChecks(attempt, run.summary), sessionDriver, session, evidence, sessionMs()),
        agent: record,
        prompt,
      };
    } catch (error) {
      // What the agent left broke the session's channel or the scorer's view when its repository was
      // read: its loop ends as tampering (a counted failure), and its trajectory says so.
      const tampering = input.signal?.aborted ? undefined : tamperingIn(error);
      if (!tampering) throw error;
      const exit = sandboxExit('', tampering);
      return {
        attempt: tampered(input, prompt, hashes, session, sessionMs(), tampering),
        agent: {
          ...record,
          summary: { ...record.summary, exitStatus: exit.status, exitDetail: exit.detail },
          error: tampering,
        },
        prompt,
      };
    }
  } finally {
    input.signal?.removeEventListener('abort', abort);
    await session.cleanup().catch(() => undefined);
    await socket?.remove();
  }
}

/**
 * The agent's processes tampered with the session's channel or the scorer's view: the attempt ends
 * TAMPERING, a counted failure scored 0, with what was found as its error. Every reader of attempts
 * (the CLI's report and result file, the worker's rows) sees it as the failure it is, never as an
 * attempt that did not run.
 */
function tampered(
  input: AgentAttemptInput,
  prompt: string,
  hashes: AttemptHashes,
  session: Sandbox,
  durationMs: number,
  tampering: Error,
): AttemptResult {
  const error = `the agent's processes tampered with the sandbox: ${tampering.message}`;
  return unscored(input, { prompt, hashes, session, durationMs }, 'TAMPERING', error, error);
}

/**
 * The restored repository is not the fixture's: the attempt ends HASH_MISMATCH unscored (as a single
 * answer's does in scoreAttempt), its hashes saying which input hash was found and which expected.
 */
function hashMismatch(
  input: AgentAttemptInput,
  prompt: string,
  hashes: AttemptHashes,
  session: Sandbox,
  durationMs: number,
): AttemptResult {
  const error = hashMismatchError(hashes);
  return unscored(
    input,
    { prompt, hashes, session, durationMs },
    'HASH_MISMATCH',
    error,
    `${error}; the agent was not run`,
  );
}

/** An attempt that ends without its scorer's checks: one failed check saying why, and the session that ran. */
function unscored(
  input: AgentAttemptInput,
  ran: { prompt: string; hashes: AttemptHashes; session: Sandbox; durationMs: number },
  outcome: 'TAMPERING' | 'HASH_MISMATCH',
  error: string,
  detail: string,
): AttemptResult {
  const { fixture } = input;
  // The sandbox that ran: a third-party agent's image, or the sandbox image.
  const d = (input.thirdParty?.driver ?? input.driver).describe();
  const durationMs = Math.round(ran.durationMs);
  return {
    domain: fixture.domain,
    fixtureId: fixture.id,
    scoringType: fixture.scoring.type,
    outputMode: 'text',
    outcome,
    passed: false,
    score: 0,
    checks: [{ check: 'attempt', ok: false, detail }],
    prompt: ran.prompt,
    output: '',
    scoredText: '',
    error,
    hashes: ran.hashes,
    sandbox: {
      kind: d.driver,
      image: d.image,
      imageId: d.imageId,
      isolated: d.isolated,
      sandboxId: ran.session.id,
      evidence: { answer: [], probes: {} },
      durationMs,
    },
    timings: { totalMs: durationMs, scoreMs: 0 },
  };
}

/** The scorer's probes in the agent's own session, on the repository as the agent left it. */
async function probeSession(
  input: AgentAttemptInput,
  session: Sandbox,
  submission: string,
  tar: Buffer,
): Promise<SandboxEvidence> {
  const { fixture, snapshot } = input;
  const plan = getScorer(fixture.scoring.type).plan(fixture, submission);
  if (plan) {
    // The configuration rewritten to the whitelist and the build's files put back first, as in a single
    // answer's sandbox (execute-plan.ts); a session runs no thenPython, so python3 reads the code on
    // stdin (the build's files could pass a command line's limit). The runner killed the agent's
    // processes after its last command.
    // Its stderr names the forged objects it found, if any.
    const { thenPython, timeoutMs } = lookupConfigStep(plan, '.', builtGitFiles(tar, snapshot.repoDir));
    const prepared = await session.exec('python3 -I -S -', {
      cwd: snapshot.repoDir,
      stdin: thenPython ?? '',
      timeoutMs: timeoutMs ?? 60_000,
    });
    const unprepared = scorerViewTampering([{ id: 'lookup.config', ...prepared }]);
    if (unprepared) throw new TamperingError(unprepared);
  }
  const batch = await session.runBatch({
    cwd: snapshot.repoDir,
    ...(plan?.env ? { env: plan.env } : {}),
    groups: [
      // Each look-up with the fixed environment.
      {
        stopOnFailure: false,
        steps: plan
          ? lookupSteps(plan, '.').map((p) => ({
              id: p.id,
              command: p.command,
              env: p.env!,
              ...(p.timeoutMs ? { timeoutMs: p.timeoutMs } : {}),
            }))
          : [],
      },
      { stopOnFailure: false, steps: [{ ...sessionStateStep('.'), id: 'state.after', env: lookupEnvironment() }] },
    ],
  });
  if (batch.tampering) throw new TamperingError(batch.tampering);
  if (batch.aborted) throw new SandboxFailure(batch.aborted);
  const probes: Record<string, ExecRecord> = {};
  for (const r of batch.groups[0] ?? []) probes[r.id] = toExecRecord(r);
  const evidence: SandboxEvidence = { answer: [], probes };
  const after = batch.groups[1]?.[0];
  if (after?.exitCode === 0) evidence.repoStateAfter = after.stdout;
  return evidence;
}

/**
 * The session the attempt ran and was scored in, instead of scoreAttempt's "no sandbox" for recorded
 * evidence; its duration is the session's, from its start to the scorer's end.
 */
function withSession(
  attempt: AttemptResult,
  driver: SandboxDriver,
  session: Sandbox,
  evidence: SandboxEvidence | null,
  durationMs: number,
): AttemptResult {
  const d = driver.describe();
  return {
    ...attempt,
    sandbox: {
      kind: d.driver,
      image: d.image,
      imageId: d.imageId,
      isolated: d.isolated,
      sandboxId: session.id,
      evidence: evidence ?? { answer: [], probes: {} },
      durationMs: Math.round(durationMs),
    },
  };
}

/** A state scorer's "answer commands" check speaks of a single answer's commands; an agent ran its own. */
function agentChecks(attempt: AttemptResult, summary: TrajectorySummary): AttemptResult {
  return {
    ...attempt,
    checks: attempt.checks.map((c) =>
      c.check === 'answer commands (not decisive)'
        ? {
            check: 'agent actions (not decisive)',
            ok: true,
            detail: `the agent made ${summary.totals.toolCalls} tool call(s) in ${summary.steps} step(s) (${summary.exitStatus}); assertions checked on the repository it left`,
          }
        : c,
    ),
  };
}

/**
 * An agent attempt seen as one model response, for what reads single answers (the upstream envelope,
 * the run report): the submission as output, usage and model time summed over every step.
 */
export function agentResponse(record: AgentAttemptRecord, modelName: string): CompletionResult {
  const s = record.summary;
  const t = s.totals;
  return {
    model: parseModelId(modelName),
    output: s.submission ?? '',
    qualityFailure: null,
    reasoning: null,
    usage: {
      inputTokens: t.inputTokens,
      outputTokens: t.outputTokens,
      reasoningTokens: t.reasoningTokens,
      totalTokens: t.totalTokens,
    },
    cost:
      t.costUsd === null
        ? UNKNOWN_COST
        : t.costEstimated
          ? { source: 'estimated', usd: t.costUsd, priceDate: 'various' }
          : { source: 'provider', usd: t.costUsd },
    apiDurationMs: t.modelMs,
    route: record.route ?? {
      provider: 'agent',
      profile: 'builtin',
      baseUrl: null,
      requestedModel: modelName,
      servedModel: null,
      responseId: null,
      upstreamProvider: null,
      simulated: false,
    },
    requestConfig: {
      mode: 'agent',
      toolSet: s.toolSet,
      protocol: s.protocol,
      exitStatus: s.exitStatus,
      steps: s.steps,
      toolCalls: t.toolCalls,
    },
    retries: [],
    transcript: [
      { role: 'system', content: s.systemPrompt },
      { role: 'user', content: s.taskPrompt },
    ],
    flags: [],
  };
}
