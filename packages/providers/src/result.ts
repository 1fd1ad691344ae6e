import {
  parseModelId,
  ConfigurationError,
  type Cost,
  type ModelId,
  type RetryRecord,
  type TokenUsage,
} from '@gitbench/core';
import { checkAnswer } from './structured';
import type { CompletionRequest, CompletionResult, RouteMetadata } from './types';

/** Model id and request shape checks every provider makes before doing anything else. */
export function prepareRequest(request: CompletionRequest): ModelId {
  const model = parseModelId(request.model);
  if (request.outputMode === 'json_schema' && !request.schema) {
    throw new ConfigurationError(
      'missing_schema',
      `json_schema output requested for '${request.model}' without the fixture's contract.`,
    );
  }
  return model;
}

export interface RawAnswer {
  output: string;
  reasoning: string | null;
  usage: TokenUsage;
  cost: Cost;
  apiDurationMs: number;
  route: RouteMetadata;
  requestConfig: Record<string, unknown>;
  retries: RetryRecord[];
}

/** Turns what a provider received into the recorded result: quality check, transcript, flags. */
export function buildResult(request: CompletionRequest, model: ModelId, raw: RawAnswer): CompletionResult {
  const quality = checkAnswer(raw.output, request.outputMode, request.schema);
  const flags: string[] = [];
  const reasoned = (raw.reasoning !== null && raw.reasoning.trim() !== '') || (raw.usage.reasoningTokens ?? 0) > 0;
  // Asked for no reasoning and reasoned anyway: kept as evidence, not a failure of the answer.
  if (model.effort === 'none' && reasoned) flags.push('reasoning_despite_effort_none');
  return {
    model,
    output: raw.output,
    ...(quality.structuredOutput !== undefined ? { structuredOutput: quality.structuredOutput } : {}),
    qualityFailure: quality.qualityFailure,
    reasoning: raw.reasoning,
    usage: raw.usage,
    cost: raw.cost,
    apiDurationMs: raw.apiDurationMs,
    route: raw.route,
    requestConfig: raw.requestConfig,
    retries: raw.retries,
    transcript: [
      { role: 'user', content: request.prompt },
      { role: 'assistant', content: raw.output, ...(raw.reasoning ? { reasoning: raw.reasoning } : {}) },
    ],
    flags,
  };
}

/** Schema names allowed by OpenAI's response_format: letters, digits, `_` and `-`, at most 64. */
export function schemaName(name: string | undefined): string {
  const cleaned = (name ?? 'answer').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned || 'answer';
}

export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
