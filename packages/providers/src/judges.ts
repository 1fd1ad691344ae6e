import {
  aggregateJudgeVerdicts,
  aggregatePairwise,
  buildJudgePrompt,
  buildPairwisePrompt,
  classifyError,
  judgeCacheKey,
  judgeConfigHash,
  judgeReplySchema,
  outputHash,
  pairwiseReplySchema,
  JUDGE_PROMPT_VERSION,
  JUDGE_REPLY_JSON_SCHEMA,
  PAIRWISE_PROMPT_VERSION,
  PAIRWISE_REPLY_JSON_SCHEMA,
  QualityError,
  UNKNOWN_COST,
  type JudgeCache,
  type JudgeConfigIdentity,
  type JudgeMemberVerdict,
  type JudgeVerdict,
  type PairwisePreference,
  type PairwiseVerdict,
} from '@gitbench/core';
import type { CompletionResult, Provider } from './types';

/** One judge: a provider and the model id (effort included) it is asked with. */
export interface JudgeMember {
  memberId: string;
  model: string;
  provider: Provider;
  /** What identifies this member for the cache: provider kind, base URL, extra body. No secrets. */
  identity: { provider: string; baseUrl?: string; extraBody?: Record<string, unknown> };
}

export interface JudgePanel {
  /** The profile the members come from, for records. */
  profile: string;
  members: JudgeMember[];
}

export function judgePanelConfig(panel: JudgePanel, kind: JudgeConfigIdentity['kind']): JudgeConfigIdentity {
  return {
    kind,
    promptVersion: kind === 'llm_judge' ? JUDGE_PROMPT_VERSION : PAIRWISE_PROMPT_VERSION,
    members: panel.members.map((m) => ({ model: m.model, ...m.identity })),
  };
}

function memberFailure(member: JudgeMember, error: unknown, result?: CompletionResult): JudgeMemberVerdict {
  const kind = classifyError(error);
  const code =
    error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : 'error';
  return {
    memberId: member.memberId,
    model: member.model,
    status: 'failed',
    score: null,
    reason: null,
    rawReply: result?.output ?? null,
    usage: result?.usage ?? null,
    cost: result?.cost ?? UNKNOWN_COST,
    apiDurationMs: result?.apiDurationMs ?? null,
    route: result ? { ...result.route } : null,
    error: { kind, code, message: error instanceof Error ? error.message : String(error) },
  };
}

/** One structured question to a judge member; a failed call comes back as its error (a cancellation is thrown). */
export async function askStructured(
  member: JudgeMember,
  request: {
    prompt: string;
    schema: Record<string, unknown>;
    schemaName: string;
    temperature?: number;
    signal?: AbortSignal | undefined;
  },
): Promise<{ result: CompletionResult; error?: undefined } | { result?: undefined; error: unknown }> {
  const { signal, ...rest } = request;
  try {
    return {
      result: await member.provider.complete({
        model: member.model,
        outputMode: 'json_schema',
        ...rest,
        ...(signal ? { signal } : {}),
      }),
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { error };
  }
}

async function askMember(member: JudgeMember, prompt: string, signal?: AbortSignal): Promise<JudgeMemberVerdict> {
  const asked = await askStructured(member, {
    prompt,
    schema: JUDGE_REPLY_JSON_SCHEMA,
    schemaName: 'judge_score',
    signal,
  });
  if (asked.result === undefined) return memberFailure(member, asked.error);
  const result = asked.result;
  // Only the structured reply counts; a judge that answers outside the contract has failed.
  const reply = result.qualityFailure ? null : judgeReplySchema.safeParse(result.structuredOutput);
  if (!reply?.success) {
    const message =
      result.qualityFailure?.message ??
      `The judge reply does not match {score 0..1, reason}: ${reply?.error.issues[0]?.message}`;
    return memberFailure(member, new QualityError(result.qualityFailure?.code ?? 'schema_violation', message), result);
  }
  return {
    memberId: member.memberId,
    model: member.model,
    status: 'scored',
    score: reply.data.score,
    reason: reply.data.reason,
    rawReply: result.output,
    usage: result.usage,
    cost: result.cost,
    apiDurationMs: result.apiDurationMs,
    route: { ...result.route },
    error: null,
  };
}

export interface LlmJudgeInput {
  panel: JudgePanel;
  /** The fixture's prompt, as the target model saw it. */
  task: string;
  /** The fixture's expected answer. */
  reference: string;
  /** The target model's answer. */
  answer: string;
  threshold: number;
  /** Hash of the fixture's inputs (repository, prompt, expected, scoring): the first part of the cache key. */
  fixtureInputHash: string;
  cache?: JudgeCache;
  signal?: AbortSignal;
}

export interface LlmJudgement {
  verdict: JudgeVerdict;
  cacheKey: string;
  judgeConfigHash: string;
  cacheHit: boolean;
}

/**
 * llm_judge: every member scores the answer through structured output; the verdict is their mean
 * against the threshold (see aggregateJudgeVerdicts). Only scored verdicts are cached, so an unscored
 * attempt is asked again next time rather than frozen as unscored.
 */
export async function runLlmJudge(input: LlmJudgeInput): Promise<LlmJudgement> {
  const configHash = judgeConfigHash(judgePanelConfig(input.panel, 'llm_judge'));
  const cacheKey = judgeCacheKey({
    fixtureInputHash: input.fixtureInputHash,
    outputHash: outputHash(input.answer),
    judgeConfigHash: configHash,
  });
  const cached = await input.cache?.get(cacheKey);
  if (cached) return { verdict: cached, cacheKey, judgeConfigHash: configHash, cacheHit: true };

  const prompt = buildJudgePrompt({ task: input.task, reference: input.reference, answer: input.answer });
  const members = await Promise.all(input.panel.members.map((m) => askMember(m, prompt, input.signal)));
  const verdict = aggregateJudgeVerdicts(members, input.threshold);
  if (verdict.status === 'scored') await input.cache?.set(cacheKey, verdict);
  return { verdict, cacheKey, judgeConfigHash: configHash, cacheHit: false };
}

export interface PairwiseInput {
  member: JudgeMember;
  task: string;
  outputA: string;
  outputB: string;
  signal?: AbortSignal;
}

export interface PairwiseCall {
  ordering: 'A-first' | 'B-first';
  preferred: PairwisePreference | null;
  reason: string | null;
  result: CompletionResult | null;
  error: string | null;
}

export interface PairwiseJudgement {
  verdict: PairwiseVerdict;
  calls: [PairwiseCall, PairwiseCall];
}

async function askPairwise(input: PairwiseInput, ordering: PairwiseCall['ordering']): Promise<PairwiseCall> {
  const [first, second] = ordering === 'A-first' ? [input.outputA, input.outputB] : [input.outputB, input.outputA];
  let result: CompletionResult;
  try {
    result = await input.member.provider.complete({
      model: input.member.model,
      prompt: buildPairwisePrompt({ task: input.task, first, second }),
      outputMode: 'json_schema',
      schema: PAIRWISE_REPLY_JSON_SCHEMA,
      schemaName: 'pairwise_preference',
      signal: input.signal,
    });
  } catch (error) {
    if (input.signal?.aborted) throw error;
    return {
      ordering,
      preferred: null,
      reason: null,
      result: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  const reply = result.qualityFailure ? null : pairwiseReplySchema.safeParse(result.structuredOutput);
  if (!reply?.success) {
    return {
      ordering,
      preferred: null,
      reason: null,
      result,
      error: result.qualityFailure?.message ?? 'The reply does not match {preferred, reason}.',
    };
  }
  return { ordering, preferred: reply.data.preferred, reason: reply.data.reason, result, error: null };
}

/** Compares two outputs, asking twice with positions swapped; see PAIRWISE_RULE for the aggregation. */
export async function runPairwiseJudge(input: PairwiseInput): Promise<PairwiseJudgement> {
  const [aFirst, bFirst] = await Promise.all([askPairwise(input, 'A-first'), askPairwise(input, 'B-first')]);
  return { verdict: aggregatePairwise(aFirst.preferred, bFirst.preferred), calls: [aFirst, bFirst] };
}
