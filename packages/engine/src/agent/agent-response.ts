import { parseModelId, UNKNOWN_COST } from '@gitbench/core';
import type { CompletionResult } from '@gitbench/providers';
import type { AgentAttemptRecord } from './agent-attempt-input';

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
