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
  type GatewayCallRecord,
  type TrajectoryStep,
  type TrajectorySummary,
} from '@gitbench/core';
import type { RouteMetadata } from '@gitbench/providers';
import type { Sandbox } from '@gitbench/sandbox';
import type { AttemptResult } from '../attempt-result';
import { sessionStateStep } from '../sandbox-steps';
import { REFRESH_INDEXES } from '../execute-plan';
import { archiveBytes } from '../fixture-snapshot';
import { referenceAnswer } from '../reference-answer';
import { attemptHashes, scoreAttempt } from '../score-attempt';
import { sandboxExit } from './agent-exit';
import { sessionRepoStateReader } from './repo-state-reader';
import { runAgent } from './run-agent';
import { sessionToolContext } from './session-tool-context';
import { gatewaySocketDir, runThirdPartyAgent } from './third-party-agent';
import type { AgentAttemptRecord, AgentAttemptInput } from './agent-attempt-input';
import { agentTaskPrompt, thirdPartyTaskPrompt } from './agent-task-prompt';
import { agentModelFor } from './agent-model';
import { readLeftFile, filesAsBlocks } from './left-files';
import { tampered, hashMismatch, withSession, agentChecks } from './agent-attempt-result';
import { probeSession } from './agent-probes';

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
  // The session runs where the agent runs: a third-party agent's image, with the gateway's socket mounted.
  const sessionDriver = thirdParty?.driver ?? driver;
  const { tmpBytes } = sessionDriver.describe();
  // Our loop stops each command at the configured limit, and its system prompt states the budget.
  const prompt = thirdParty
    ? thirdPartyTaskPrompt(fixture, snapshot, config.limits, tmpBytes)
    : agentTaskPrompt(fixture, snapshot, 'submit', config.limits.commandTimeoutMs);
  const scoredOn = agentScoredOn(fixture);
  const tar = await archiveBytes(snapshot.tar);
  const started = performance.now();
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
        repoState: sessionRepoStateReader(session, ctx.repoDir, ctx),
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
