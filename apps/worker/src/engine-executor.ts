import { classifyEnding, failureOf, type Fixture, type TrajectoryStep, type TrajectorySummary } from '@gitbench/core';
import {
  abandonTrajectory,
  appendTrajectoryStep,
  finishTrajectory,
  PostgresHistoryJudgeCache,
  PostgresJudgeCache,
  startTrajectory,
  type AttemptWrite,
} from '@gitbench/db';
import {
  buildFixtureRepositories,
  executeAttempt,
  fixtureBuildKey,
  type BuildOutcome,
  type FixtureSnapshot,
  type ThirdPartyAgentTarget,
} from '@gitbench/engine';
import { DEPLOYMENT_LABEL, DockerSandboxDriver, WORKER_LABEL } from '@gitbench/sandbox';
import { StorageError, type AttemptExecutor, type AttemptToRun, type BuiltRepository } from '@gitbench/use-cases';
import { agentTargets, type AgentTargets } from './agent-targets';
import type { EngineExecutorDeps } from './engine-executor-deps';
import { evidenceOf, json, redacted, storageFailureRun, toRows } from './try-rows';

export type { EngineExecutorDeps } from './engine-executor-deps';
export { DEFAULT_MAX_EVIDENCE_BYTES } from './try-rows';

/**
 * Runs attempts with the engine: the sandbox driver for everything executed, the provider registry
 * for the model (one per process, so limits and cooldowns are shared), judges for llm_judge fixtures.
 * Every failure is classified here into an outcome; only bugs propagate.
 */
export function createEngineExecutor(deps: EngineExecutorDeps): AttemptExecutor {
  const { driver } = deps;
  const agentTarget = agentTargets(deps);

  return {
    describeSandbox: () => {
      const d = driver.describe();
      return `${d.driver} ${d.image}`;
    },

    sandboxEngine: async () =>
      driver instanceof DockerSandboxDriver
        ? `engine ${(await driver.docker.version()).Version}`
        : 'no engine: the local driver (unsafe)',

    removeSandboxes: (labels) => driver.removeByLabels(labels),

    removeOrphanSandboxes: (alive, createdBeforeMs) =>
      driver.removeOrphans(WORKER_LABEL, alive, { [DEPLOYMENT_LABEL]: deps.deploymentId }, { createdBeforeMs }),

    buildKey: (fixture) => fixtureBuildKey(fixture, driver.describe()),

    async buildRepositories(fixtures: Fixture[], labels, onBuilt): Promise<(BuiltRepository | { error: string })[]> {
      const index = new Map(fixtures.map((f, i) => [f, i]));
      const outcomes = await buildFixtureRepositories(fixtures, driver, {
        labels,
        sandboxes: deps.buildSandboxes,
        ...(onBuilt ? { onBuilt: (o: BuildOutcome) => onBuilt(index.get(o.fixture)!, repositoryOf(o)) } : {}),
      });
      return outcomes.map(repositoryOf);
    },

    runAttempt: (a, signal) => runOne(deps, agentTarget, a, signal),
  };
}

function repositoryOf(o: BuildOutcome): BuiltRepository | { error: string } {
  if (o.error) return { error: o.error.message };
  // Storage keeps the archive as the sandbox compressed it; attempts read it back from there.
  const { tar: _plain, packed, ...buildInfo } = o.snapshot;
  return {
    inputHash: o.snapshot.inputHash,
    repoState: o.snapshot.repoState,
    archive: packed,
    setupLog: [o.snapshot.setupLog.stdout, o.snapshot.setupLog.stderr].filter(Boolean).join('\n'),
    buildInfo: buildInfo as unknown as Record<string, unknown>,
  };
}
async function runOne(
  deps: EngineExecutorDeps,
  agentTarget: AgentTargets,
  a: AttemptToRun,
  signal: AbortSignal,
): Promise<AttemptWrite> {
  const { driver, registry, db } = deps;
  const started = Date.now();
  const snapshot = {
    ...(a.buildInfo as unknown as Omit<FixtureSnapshot, 'tar'>),
    tar: a.repoArchive,
  } as FixtureSnapshot;
  // The plan recorded what the repository must be; the attempt re-derives it, never copies it.
  snapshot.inputHash = a.plannedInputHash;
  snapshot.repoState = a.repoState;
  let target;
  let thirdParty: ThirdPartyAgentTarget | undefined;
  try {
    target = await registry.resolve({ model: a.modelId, profile: a.profile });
    if (a.thirdPartyAgent) thirdParty = await agentTarget(a.thirdPartyAgent);
  } catch (err) {
    const ending = classifyEnding({ failure: failureOf(err, signal.aborted) });
    return redacted(deps, {
      status: ending.status,
      summary: {
        errorClass: ending.errorClass,
        errorMessage: (err as Error).message,
        wallDurationMs: Date.now() - started,
      },
      record: { errorClass: ending.errorClass, errorMessage: (err as Error).message },
    });
  }
  const judgeProfile = a.judgeProfile;
  const trajectory = a.outputMode === 'agent' ? trajectoryWriter(deps, a) : undefined;
  const run = await executeAttempt({
    fixture: a.fixture,
    snapshot,
    driver,
    model: target.provider,
    modelName: target.model,
    mode: a.outputMode,
    ...(trajectory
      ? { agent: { ...(a.agent ? { config: a.agent } : {}), onStart: trajectory.start, onStep: trajectory.step } }
      : {}),
    ...(thirdParty ? { thirdParty } : {}),
    trial: a.trial,
    labels: a.sandboxLabels,
    exec: {
      ...(deps.limits?.maxAnswerCommands ? { maxAnswerCommands: deps.limits.maxAnswerCommands } : {}),
      ...(deps.limits?.maxAttemptOutputBytes ? { maxAttemptOutputBytes: deps.limits.maxAttemptOutputBytes } : {}),
    },
    signal,
    ...(judgeProfile
      ? {
          judge: {
            panel: () => registry.judgePanel(judgeProfile),
            cache: new PostgresJudgeCache(db, a.campaignId),
            historyCache: new PostgresHistoryJudgeCache(db, a.campaignId),
          },
        }
      : {}),
  }).catch((err: unknown) => {
    // The worker gives the attempt back; what its model calls had cost goes with it onto the try.
    if (err instanceof StorageError) err.spent = { evidence: json(evidenceOf(deps, storageFailureRun(err), a)) };
    throw err;
  });
  // A loop that ended (any exit status) is finished; one that never ended (cancelled, thrown) is abandoned.
  if (trajectory) await (run.agent ? trajectory.finish(run.agent.summary) : trajectory.abandon());
  return redacted(deps, toRows(run, started, evidenceOf(deps, run, a)));
}
/**
 * The try's trajectory in Postgres, written as the loop goes: the row when the loop starts, each step
 * as it finishes (readers see a running attempt live), the summary at the end. A write that fails is
 * the worker's storage failing, so the attempt is given back (its trajectory then marked abandoned).
 * Stored provider keys are cut out of every step and the summary, as from the attempt's rows.
 */
function trajectoryWriter(deps: EngineExecutorDeps, a: AttemptToRun) {
  const { db } = deps;
  let id: string | null = null;
  const stored = async <T>(what: string, write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (err) {
      throw new StorageError(`storing the trajectory (${what}) of attempt ${a.attemptId}: ${(err as Error).message}`);
    }
  };
  return {
    start: async (info: { agent: string; model: string; toolSet: string }) => {
      id = await stored('start', () =>
        startTrajectory(db, { attemptId: a.attemptId, tryNumber: a.tryNumber, ...info }),
      );
    },
    step: async (step: TrajectoryStep, protocol: 'native' | 'text') => {
      if (id) await stored(`step ${step.index}`, () => appendTrajectoryStep(db, id!, redacted(deps, step), protocol));
    },
    finish: async (summary: TrajectorySummary) => {
      if (id) await stored('finish', () => finishTrajectory(db, id!, redacted(deps, summary)));
    },
    abandon: async () => {
      if (id) await stored('abandon', () => abandonTrajectory(db, a.attemptId, a.tryNumber));
    },
  };
}
