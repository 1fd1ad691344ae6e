import type { UsageTotals } from '@gitbench/core';
import type { CompletionResult, LlmJudgement } from '@gitbench/providers';
import type { SandboxDriver } from '@gitbench/sandbox';
import type { AttemptResult } from './attempt-result';
import {
  awaitsJudge,
  classifyEnding,
  ConfigurationError,
  contractFor,
  failureOf,
  renderPrompt,
  StorageFailure,
  sumCallUsage,
  tamperingIn,
  type AnswerMode,
  type AttemptEnding,
  type EndingClass,
  type Fixture,
  type Mode,
} from './core-api';
import { runAgentAttempt } from './agent/agent-attempt';
import type { AgentAttemptOptions, AgentAttemptRecord, ThirdPartyAgentTarget } from './agent/agent-attempt-input';
import { ANSWER_COMMAND_TIMEOUT_MS, type ExecutePlanOptions } from './execute-plan';
import type { FixtureSnapshot } from './fixture-snapshot';
import { judgeAttempt, withJudgement } from './judge-attempt';
import { judgeHistoryAttempt, type AttemptJudge } from './judge-history-attempt';
import { fixtureRef, type ModelClient, type ModelResponse } from './model-client';
import { referenceAnswer } from './reference-answer';
import { scoreAttempt } from './score-attempt';
import { expectedStructured } from './structured-answer';

export interface ExecuteAttemptInput {
  fixture: Fixture;
  snapshot: FixtureSnapshot;
  driver: SandboxDriver;
  model: ModelClient;
  /** The model id put in every request, effort included (`openai/o3-mini#high`). */
  modelName: string;
  /** `agent` runs the agent loop in a session sandbox (options under `agent`); the others answer once. */
  mode: Mode;
  /** Agent mode: tool set and limits, and where the trajectory's steps go as they finish. */
  agent?: AgentAttemptOptions;
  /** Agent mode with a third-party agent (Claude Code, Codex CLI, ...) instead of our own loop. */
  thirdParty?: ThirdPartyAgentTarget;
  trial?: number;
  /** Absent: llm_judge attempts stay unscored (no_judge_profile), never scored another way. */
  judge?: AttemptJudge;
  labels?: Record<string, string>;
  exec?: ExecutePlanOptions;
  signal?: AbortSignal;
}

/** Everything an attempt produced, classified: what the CLI reports and the worker stores. */
export interface AttemptRun {
  ending: AttemptEnding;
  status: EndingClass['status'];
  errorClass: string | null;
  errorMessage: string | null;
  /** The verdict; null unless the ending is a quality outcome. */
  passed: boolean | null;
  score: number | null;
  /** The scored attempt; null when a failure was thrown before scoring finished. */
  attempt: AttemptResult | null;
  /** Every call of the target model, in order (judges' calls are under `judgement`). */
  calls: ModelResponse[];
  usage: UsageTotals;
  judgement?: LlmJudgement;
  /** GitGoodBench IR/ICC: the history judge's calls (both orderings), for usage and cost. */
  historyJudgeCalls?: CompletionResult[];
  durationMs: number;
  /** Agent mode: the trajectory, why the loop stopped, and what was scored. */
  agent?: AgentAttemptRecord;
}

/**
 * One attempt end to end: render the prompt from the snapshot's context, ask the model, score in the
 * attempt's own sandbox, judge when the scorer asks, and classify the ending through core's one table.
 * The CLI and the worker both call this; the worker only maps the result to rows. Only bugs and the
 * caller's own StorageFailure propagate.
 */
export async function executeAttempt(input: ExecuteAttemptInput): Promise<AttemptRun> {
  const started = performance.now();
  const calls: ModelResponse[] = [];
  let agent: AgentAttemptRecord | undefined;
  const finish = (
    ending: AttemptEnding,
    rest: Partial<AttemptRun> & { errorMessage?: string | null } = {},
  ): AttemptRun => {
    const c = classifyEnding(ending);
    const attempt = rest.attempt ?? null;
    return {
      ending,
      status: c.status,
      errorClass: c.errorClass,
      errorMessage: rest.errorMessage ?? null,
      // A quality ending without a scored attempt is tampering found before scoring: a failure, 0.
      passed: c.quality ? (attempt?.passed ?? false) : null,
      score: c.quality ? (attempt?.score ?? 0) : null,
      attempt,
      calls,
      usage: agent ? agentUsage(agent) : sumCallUsage(calls),
      ...(rest.judgement ? { judgement: rest.judgement } : {}),
      ...(rest.historyJudgeCalls ? { historyJudgeCalls: rest.historyJudgeCalls } : {}),
      durationMs: performance.now() - started,
      ...(agent ? { agent } : {}),
    };
  };

  let attempt: AttemptResult;
  try {
    if (input.mode === 'agent') {
      const run = await runAgentAttempt({ ...input, ...(input.agent ? { agent: input.agent } : {}) });
      agent = run.agent ?? undefined;
      if (!run.attempt) {
        const summary = run.agent!.summary;
        const tampering = tamperingIn(run.agent!.error);
        // The session's channel broke its protocol, or the repository the agent left could not be read
        // as it is: the model's failure.
        if (tampering)
          return finish(
            { outcome: 'TAMPERING' },
            { errorMessage: `the agent's processes tampered with the sandbox: ${tampering.message}` },
          );
        // The loop ended on infrastructure (the model's endpoint or the sandbox): excluded, retryable.
        const failure = summary.exitStatus === 'sandbox_error' ? 'sandbox' : failureOf(run.agent!.error);
        return finish({ failure }, { errorMessage: `${summary.exitStatus}: ${summary.exitDetail ?? ''}` });
      }
      attempt = run.attempt;
    } else attempt = await answerAndScore({ ...input, mode: input.mode }, calls);
  } catch (err) {
    if (err instanceof StorageFailure) {
      err.calls = calls;
      throw err;
    }
    const tampering = input.signal?.aborted ? undefined : tamperingIn(err);
    if (tampering)
      return finish(
        { outcome: 'TAMPERING' },
        { errorMessage: `the agent's processes tampered with the sandbox: ${tampering.message}` },
      );
    const ending: AttemptEnding = { failure: failureOf(err, input.signal?.aborted ?? false) };
    const message = input.signal?.aborted
      ? String((input.signal.reason as Error)?.message ?? input.signal.reason)
      : (err as Error).message;
    return finish(ending, { errorMessage: message });
  }
  const message = attempt.error ?? attempt.structuredError ?? null;
  if (!awaitsJudge(attempt.outcome)) {
    // A quality outcome keeps only the structured-output problem as its message; the error class stays null.
    return finish({ outcome: attempt.outcome }, { attempt, errorMessage: message });
  }
  if (!input.judge) {
    return finish(
      { unjudged: 'no_judge_profile' },
      { attempt, errorMessage: 'This fixture is scored by an LLM judge and no judge profile was named.' },
    );
  }
  if (attempt.family?.family === 'ggb') return judgeHistoryAttempt(input.signal, attempt, input.judge, finish, message);
  let judgement: LlmJudgement;
  try {
    judgement = await judgeAttempt({
      fixture: input.fixture,
      attempt,
      panel: input.judge.panel(),
      ...(input.judge.cache ? { cache: input.judge.cache } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (err) {
    if (input.signal?.aborted)
      return finish(
        { failure: 'cancelled' },
        { attempt, errorMessage: String((input.signal.reason as Error)?.message ?? input.signal.reason) },
      );
    // A judge this process cannot build (its key is not set here) leaves the attempt unscored, visibly.
    if (!(err instanceof ConfigurationError)) throw err;
    return finish({ unjudged: 'judge_configuration' }, { attempt, errorMessage: err.message });
  }
  const judged = withJudgement(attempt, judgement);
  if (judgement.verdict.status !== 'scored') {
    return finish(
      { unjudged: 'judge_exhausted' },
      {
        attempt: judged,
        judgement,
        errorMessage: 'Every judge member failed; the attempt is left unscored and excluded.',
      },
    );
  }
  return finish({ outcome: judged.outcome }, { attempt: judged, judgement, errorMessage: message });
}

/** Usage of an agent attempt: every step's model call. */
function agentUsage(agent: AgentAttemptRecord): AttemptRun['usage'] {
  const t = agent.summary.totals;
  return {
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    reasoningTokens: t.reasoningTokens,
    totalTokens: t.totalTokens,
    costUsd: t.costUsd,
    costEstimated: t.costEstimated,
    apiDurationMs: t.modelMs,
    calls: agent.summary.steps,
  };
}

async function answerAndScore(
  input: ExecuteAttemptInput & { mode: AnswerMode },
  calls: ModelResponse[],
): Promise<AttemptResult> {
  const { fixture, snapshot, mode } = input;
  const prompt = renderPrompt(fixture, snapshot.context, mode, ANSWER_COMMAND_TIMEOUT_MS);
  const schema = mode === 'json_schema' ? contractFor(fixture) : undefined;
  // What a correct answer says, for the oracle: commit ids are only known once the repository is built.
  const reference = referenceAnswer(fixture, snapshot);
  const t0 = performance.now();
  const response = await input.model.complete({
    model: input.modelName,
    prompt,
    outputMode: mode,
    ...(schema ? { schema } : {}),
    fixture: fixtureRef(
      fixture,
      snapshot,
      reference,
      mode === 'json_schema' ? expectedStructured(fixture, reference) : undefined,
    ),
    ...(input.trial !== undefined ? { trial: input.trial } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  calls.push(response);
  return scoreAttempt({
    fixture,
    snapshot,
    driver: input.driver,
    outputMode: mode,
    prompt,
    output: response.output,
    modelMs: performance.now() - t0,
    ...(input.labels ? { labels: input.labels } : {}),
    ...(input.exec ? { exec: input.exec } : {}),
  });
}
