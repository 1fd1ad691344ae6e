import {
  capJsonStrings,
  redactSecrets,
  classifyEnding,
  failureOf,
  sumCallUsage,
  type Fixture,
  type GitbenchEvidence,
  type TrajectoryStep,
  type TrajectorySummary,
} from '@gitbench/core';
import {
  abandonTrajectory,
  appendTrajectoryStep,
  finishTrajectory,
  PostgresHistoryJudgeCache,
  PostgresJudgeCache,
  startTrajectory,
  type AttemptWrite,
  type Db,
  type Prisma,
} from '@gitbench/db';
import {
  evidenceOfRun,
  attemptRows,
  buildFixtureRepositories,
  executeAttempt,
  fixtureBuildKey,
  openAgentTarget,
  type AttemptRun,
  type BuildOutcome,
  type FixtureSnapshot,
  type ThirdPartyAgentTarget,
} from '@gitbench/engine';
import type { ProviderRegistry } from '@gitbench/providers';
import { DEPLOYMENT_LABEL, DockerSandboxDriver, WORKER_LABEL, type SandboxDriver } from '@gitbench/sandbox';
import { StorageError, type AttemptExecutor, type AttemptToRun, type BuiltRepository } from '@gitbench/use-cases';

const json = (v: unknown) => v as Prisma.InputJsonValue;

export interface EngineExecutorDeps {
  db: Db;
  driver: SandboxDriver;
  registry: ProviderRegistry;
  /** Which deployment this worker serves (see deploymentId in main.ts); orphan clean-up stays inside it. */
  deploymentId: string;
  /** Sandboxes one planning job builds fixture repositories in at once. */
  buildSandboxes: number;
  /** Limits on what one attempt may run and store (GITBENCH_MAX_* in the worker's environment). */
  limits?: { maxAnswerCommands?: number; maxAttemptOutputBytes?: number; maxEvidenceBytes?: number };
  /** Said in every attempt's evidence (the unsafe local driver). */
  warnings?: string[];
  /** Stored provider keys: cut out of anything the attempt stores, whatever a provider echoed. */
  secrets?: () => Iterable<string>;
  /**
   * Where a third-party agent's image is built from (GITBENCH_STATE_DIR: its staged npm install) and the
   * labels its containers carry (this worker's and deployment's, so shutdown and the orphan sweep find them).
   */
  agents?: { stateDir: string; labels: Record<string, string> };
}

export const DEFAULT_MAX_EVIDENCE_BYTES = 16 * 1024 * 1024;

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

type AgentTargets = (name: string) => Promise<ThirdPartyAgentTarget>;

/**
 * Each third-party agent's image and driver, opened once per worker process on the first attempt that
 * needs it: the image is built on demand (an npm install, minutes the first time on a machine), then
 * found by its content tag. A failed opening is forgotten, so the next attempt tries again.
 */
function agentTargets(deps: EngineExecutorDeps): AgentTargets {
  const opened = new Map<string, Promise<ThirdPartyAgentTarget>>();
  return (name) => {
    let target = opened.get(name);
    if (!target) {
      const sandbox = deps.driver.describe();
      target =
        sandbox.driver !== 'docker'
          ? Promise.reject(
              new Error(
                `the agent ${name} needs the Docker sandbox (its model gateway's socket ` +
                  `is mounted into the container); this worker runs ${sandbox.driver}`,
              ),
            )
          : openAgentTarget(name, {
              sandboxImage: sandbox.image,
              stateDir: deps.agents?.stateDir ?? '.gitbench',
              ...(deps.agents ? { labels: deps.agents.labels } : {}),
            });
      target.catch(() => opened.delete(name));
      opened.set(name, target);
    }
    return target;
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
 * What the worker stores (the rows, a trajectory's steps and summary) with every stored provider key
 * replaced, in case a provider's error or echo carried one.
 */
function redacted<T>(deps: EngineExecutorDeps, value: T): T {
  const secrets = [...(deps.secrets?.() ?? [])];
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value);
  const clean = redactSecrets(text, secrets);
  return clean === text ? value : (JSON.parse(clean) as T);
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

/** The try's evidence record with the worker's warnings, no larger than GITBENCH_MAX_EVIDENCE_BYTES. */
function evidenceOf(deps: EngineExecutorDeps, run: AttemptRun, a: AttemptToRun): GitbenchEvidence {
  const evidence = evidenceOfRun(run, { mode: a.outputMode, expected: a.fixture.expected });
  const warnings = [...(deps.warnings ?? [])];
  if (warnings.length > 0) evidence.warnings = warnings;
  const max = deps.limits?.maxEvidenceBytes ?? DEFAULT_MAX_EVIDENCE_BYTES;
  const capped = capJsonStrings(evidence, max, 'GITBENCH_MAX_EVIDENCE_BYTES');
  if (!capped.cut) return evidence;
  return {
    ...capped.value,
    warnings: [
      ...warnings,
      `The evidence was larger than ${max} bytes (GITBENCH_MAX_EVIDENCE_BYTES): its longest texts are cut.`,
    ],
  };
}

/** What a try that the worker's storage stopped had done: its model calls, no scoring. */
function storageFailureRun(err: StorageError): AttemptRun {
  const calls = err.calls as AttemptRun['calls'];
  return {
    ending: { failure: 'transient' },
    status: 'INFRA_FAILURE',
    errorClass: 'storage',
    errorMessage: err.message,
    passed: null,
    score: null,
    attempt: null,
    calls,
    usage: sumCallUsage(calls),
    durationMs: 0,
  };
}

/**
 * The engine's classified attempt as the attempt row's columns and the try's evidence record (as JSON for
 * Prisma), with a third-party agent's gateway calls, which the same write stores beside the try.
 */
function toRows(run: AttemptRun, started: number, evidence: GitbenchEvidence): AttemptWrite {
  const rows = attemptRows(run, Date.now() - started, evidence);
  const record = rows.record.evidence
    ? { ...rows.record, evidence: json(rows.record.evidence) }
    : { errorClass: rows.record.errorClass, errorMessage: rows.record.errorMessage };
  const calls = run.agent?.calls;
  return { ...rows, record: calls?.length ? { ...record, gatewayCalls: calls } : record };
}
