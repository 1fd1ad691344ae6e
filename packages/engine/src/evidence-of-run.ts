import { ATTEMPT_EVIDENCE_VERSION, type GitbenchEvidence, type Mode, type ModelCall } from '@gitbench/core';
import type { AttemptRun } from './execute-attempt';
import type { ModelResponse } from './model-client';

function modelCall(c: ModelResponse): ModelCall {
  return {
    output: c.output,
    reasoning: c.reasoning,
    usage: c.usage,
    cost: c.cost,
    apiDurationMs: c.apiDurationMs,
    route: c.route,
    requestConfig: c.requestConfig,
    retries: c.retries,
    transcript: c.transcript,
    flags: c.flags,
    qualityFailure: c.qualityFailure,
  };
}

/**
 * The try's typed evidence record (core's AttemptEvidence) built from what the run did, as the worker stores it and the
 * pages parse it.
 */
export function evidenceOfRun(run: AttemptRun, facts: { mode: Mode; expected: string }): GitbenchEvidence {
  const a = run.attempt;
  return {
    version: ATTEMPT_EVIDENCE_VERSION,
    origin: 'gitbench',
    mode: facts.mode,
    prompt: a?.prompt ?? null,
    output: a?.output ?? run.calls.at(-1)?.output ?? run.agent?.summary.submission ?? null,
    expected: facts.expected,
    error: run.errorClass || run.errorMessage ? { class: run.errorClass ?? '', message: run.errorMessage ?? '' } : null,
    scoring: a
      ? {
          scoringType: a.scoringType,
          outcome: a.outcome,
          passed: a.passed,
          score: a.score,
          checks: a.checks,
          scoredText: a.scoredText,
          structuredError: a.structuredError ?? null,
          hashes: a.hashes,
          timings: a.timings,
          family: a.family ?? null,
        }
      : null,
    sandbox: a?.sandbox ?? null,
    calls: run.calls.map(modelCall),
    judge: run.judgement ?? null,
    ...(run.historyJudgeCalls?.length ? { historyJudgeCalls: run.historyJudgeCalls.map(modelCall) } : {}),
    ...(run.agent
      ? {
          agent: {
            exitStatus: run.agent.summary.exitStatus,
            exitDetail: run.agent.summary.exitDetail,
            protocol: run.agent.summary.protocol,
            toolSet: run.agent.summary.toolSet,
            steps: run.agent.summary.steps,
            toolCalls: run.agent.summary.totals.toolCalls,
            scoredOn: run.agent.scoredOn,
            submission: run.agent.summary.submission,
          },
        }
      : {}),
  };
}
