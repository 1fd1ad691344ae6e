import { InMemoryJudgeCache } from '@gitbench/core';
import type { JudgePanel, LlmJudgement } from '@gitbench/providers';
import type { SandboxDriver } from '@gitbench/sandbox';
import type { AttemptResult } from './attempt-result';
import { buildFixtureRepositories } from './build-fixture-repository';
import type { AgentConfigInput } from '@gitbench/core';
import { isBrokenOutcome, isQualityOutcome, type AnswerMode, type Fixture } from './core-api';
import type { FixtureSnapshot } from './fixture-snapshot';
import { executeAttempt, type AttemptRun } from './execute-attempt';
import type { ThirdPartyAgentTarget } from './agent/agent-attempt-input';
import { agentResponse } from './agent/agent-response';
import { mapPool } from './map-pool';
import type { ModelClient, ModelResponse } from './model-client';

export interface SuiteRunOptions {
  model: ModelClient;
  /** The model id put in every request, effort included (`openai/o3-mini#high`). */
  modelName: string;
  outputModes: AnswerMode[];
  trials: number;
  workers: number;
  /** Judges llm_judge attempts; without it they stay NEEDS_JUDGE (unscored), never scored another way. */
  judge?: JudgePanel;
  /** Agent mode: every attempt runs the agent loop with this configuration (scored as text; outputModes ignored). */
  agent?: AgentConfigInput;
  /** With agent: a third-party agent runs each attempt (its image's driver), the model through the gateway. */
  thirdParty?: ThirdPartyAgentTarget;
  labels?: Record<string, string>;
  /** After each attempt, with what it produced (the CLI prints a line per attempt). */
  onProgress?: (done: number, total: number, entry: SuiteRunEntry) => void;
}

export interface SuiteRunEntry {
  fixture: Fixture;
  outputMode: AnswerMode;
  trial: number;
  attempt: AttemptResult | null;
  /** The target model's last call (a single answer has one). */
  response: ModelResponse | null;
  /** The attempt as the engine classified it; absent when its fixture could not be built. */
  run?: AttemptRun;
  /** The judge's decision on an llm_judge attempt, with every member's call. */
  judgement?: LlmJudgement;
  /** Set when the attempt could not run (fixture set-up or the model call failed). */
  error?: string;
  durationMs: number;
}

/**
 * The embedded mode: every fixture × output mode × trial in this process. Each fixture's repository
 * is built once and restored into a fresh sandbox for each of its attempts.
 */
export async function runSuite(
  fixtures: readonly Fixture[],
  driver: SandboxDriver,
  opts: SuiteRunOptions,
): Promise<SuiteRunEntry[]> {
  // Built first, many fixtures per sandbox as campaign planning does; a fixture that fails to build
  // fails its own attempts only.
  const builds = new Map(
    (
      await buildFixtureRepositories(fixtures, driver, {
        sandboxes: opts.workers,
        ...(opts.labels ? { labels: opts.labels } : {}),
      })
    ).map((b) => [b.fixture, b]),
  );
  const snapshotOf = (f: Fixture): FixtureSnapshot => {
    const b = builds.get(f)!;
    if (b.error) throw b.error;
    return b.snapshot;
  };
  // One run asks the judge once per distinct answer, as a campaign does.
  const judgeCache = new InMemoryJudgeCache();
  const jobs = fixtures.flatMap((fixture) =>
    Array.from({ length: opts.trials }, (_, t) =>
      (opts.agent ? (['text'] as const) : opts.outputModes).map((outputMode) => ({
        fixture,
        outputMode,
        trial: t + 1,
      })),
    ).flat(),
  );
  let done = 0;
  return mapPool(jobs, opts.workers, async ({ fixture, outputMode, trial }) => {
    const started = performance.now();
    let entry: SuiteRunEntry;
    try {
      const run = await executeAttempt({
        fixture,
        snapshot: snapshotOf(fixture),
        driver,
        model: opts.model,
        modelName: opts.modelName,
        ...(opts.agent
          ? {
              mode: 'agent' as const,
              agent: { config: opts.agent },
              ...(opts.thirdParty ? { thirdParty: opts.thirdParty } : {}),
            }
          : { mode: outputMode }),
        trial,
        ...(opts.judge ? { judge: { panel: () => opts.judge!, cache: judgeCache } } : {}),
        ...(opts.labels ? { labels: opts.labels } : {}),
      });
      entry = {
        fixture,
        outputMode,
        trial,
        attempt: run.attempt,
        response: run.calls.at(-1) ?? (run.agent ? agentResponse(run.agent, opts.modelName) : null),
        run,
        durationMs: performance.now() - started,
      };
      if (run.judgement) entry.judgement = run.judgement;
      if (!run.attempt) entry.error = run.errorMessage ?? run.errorClass ?? 'unknown error';
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      entry = {
        fixture,
        outputMode,
        trial,
        attempt: null,
        response: null,
        error: err.message,
        durationMs: performance.now() - started,
      };
    }
    opts.onProgress?.(++done, jobs.length, entry);
    return entry;
  });
}

/** PASS and FAIL are quality outcomes; everything else is excluded from quality figures. */
export function isScoredEntry(e: SuiteRunEntry): e is SuiteRunEntry & { attempt: AttemptResult } {
  return e.attempt !== null && isQualityOutcome(e.attempt.outcome);
}

/** Why an entry has no quality outcome: not run, unscored (judge), or an infrastructure outcome. */
export function whyNotScored(e: SuiteRunEntry): string {
  if (!e.attempt) return `not run: ${e.error ?? 'unknown error'}`;
  if (!isBrokenOutcome(e.attempt.outcome))
    return e.attempt.error ?? 'unscored: an llm_judge fixture and no judge profile (--judge-profile)';
  return `${e.attempt.outcome}: ${e.attempt.error ?? 'no detail'}`;
}
