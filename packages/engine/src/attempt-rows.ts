import { canonicalJson, outputHash, sha256Hex, type AttemptStatus, type GitbenchEvidence } from '@gitbench/core';
import type { AttemptRun } from './execute-attempt';
import { judgeUsageOf } from './judge-usage';

/**
 * The engine's classified attempt as an attempt row's columns and its try's evidence: what the worker
 * writes for a campaign's attempt and `gitbench human` for a person's, so both read the same way.
 */
export interface AttemptRows {
  status: Exclude<AttemptStatus, 'QUEUED' | 'RUNNING'>;
  passed?: boolean | null;
  score?: number | null;
  summary?: {
    inputHash?: string;
    promptHash?: string;
    expectedHash?: string;
    scorerConfigHash?: string;
    outputHash?: string;
    sandboxImage?: string | null;
    wallDurationMs: number;
    errorClass?: string | null;
    errorMessage?: string | null;
    judgeCalls?: number;
    judgeTotalTokens?: number | null;
    judgeCostUsd?: number | null;
    inputTokens?: number | null;
    outputTokens?: number | null;
    reasoningTokens?: number | null;
    totalTokens?: number | null;
    costUsd?: number | null;
    costEstimated?: boolean;
    apiDurationMs?: number;
    requestConfigHash?: string;
  };
  record: { errorClass?: string | null; errorMessage?: string | null; evidence?: GitbenchEvidence };
}

export function attemptRows(run: AttemptRun, wallDurationMs: number, evidence: GitbenchEvidence): AttemptRows {
  const call = run.calls.at(-1);
  const result = run.attempt;
  const error = { errorClass: run.errorClass, errorMessage: run.errorMessage };
  const record = { ...error, evidence };
  if (run.status === 'CANCELLED') return { status: 'CANCELLED', record: error };
  const judged = judgeUsageOf(run);
  const summary = {
    wallDurationMs,
    ...error,
    ...(judged ? { judgeCalls: judged.calls, judgeTotalTokens: judged.totalTokens, judgeCostUsd: judged.costUsd } : {}),
    ...(call || run.agent
      ? {
          inputTokens: run.usage.inputTokens,
          outputTokens: run.usage.outputTokens,
          reasoningTokens: run.usage.reasoningTokens,
          totalTokens: run.usage.totalTokens,
          costUsd: run.usage.costUsd,
          costEstimated: run.usage.costEstimated,
          apiDurationMs: Math.round(run.usage.apiDurationMs),
          requestConfigHash: sha256Hex(
            canonicalJson(
              call
                ? call.requestConfig
                : { mode: 'agent', toolSet: run.agent!.summary.toolSet, protocol: run.agent!.summary.protocol },
            ),
          ),
        }
      : {}),
  };
  if (!result) return { status: run.status, summary, record };
  return {
    status: run.status,
    passed: run.passed,
    score: run.score,
    summary: {
      inputHash: result.hashes.input,
      promptHash: result.hashes.prompt,
      expectedHash: result.hashes.expected,
      scorerConfigHash: result.hashes.scorerConfig,
      outputHash: outputHash(result.output),
      sandboxImage: result.sandbox.kind !== 'none' ? `${result.sandbox.image}@${result.sandbox.imageId}` : null,
      ...summary,
    },
    record,
  };
}
