import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import {
  ConfigurationError,
  TransientError,
  type ModelCallError,
  type ModelId,
  type PriceTable,
  type TokenUsage,
} from '@gitbench/core';
import { TOOLS_UNSUPPORTED } from './agent-types';
import type { RequestBudget } from './budget';
import { resolveCost } from './cost';
import { classifyHttpFailure, classifyNetworkFailure, parseRetryAfter } from './http-errors';
import type { Profile } from './profiles';
import { buildResult, numberOrNull, prepareRequest, schemaName } from './result';
import { callWithRetries, type CallContext, type CallOutcome, type RetryPolicy } from './retry';
import type { CompletionRequest, Provider, RouteMetadata } from './types';

export interface AdapterOptions {
  profile: Profile;
  /** Read from the profile's api_key_env by the caller; never recorded. */
  apiKey?: string;
  budget: RequestBudget;
  /** Capacity group key of a base model (shared cooldown and limits). */
  capacityGroupOf: (baseModel: string) => string;
  policy: RetryPolicy;
  random?: () => number;
  priceTable?: PriceTable;
}

/**
 * How reasoning effort is asked for. OpenRouter normalises it as `reasoning: {effort}` and turns
 * reasoning off with `{enabled: false}`; OpenAI and the servers copying its API take `reasoning_effort`.
 */
export function reasoningParameters(kind: string, model: ModelId): Record<string, unknown> {
  if (!model.effort) return {};
  if (kind === 'openrouter') {
    return { reasoning: model.effort === 'none' ? { enabled: false } : { effort: model.effort } };
  }
  return { reasoning_effort: model.effort };
}

export interface ExtendedMessage {
  content?: string | null;
  reasoning?: unknown;
  reasoning_content?: unknown;
  reasoning_details?: Array<{ text?: unknown; summary?: unknown }>;
}

/** Reasoning text as OpenRouter (`reasoning`, `reasoning_details`) or vLLM/DeepSeek (`reasoning_content`) send it. */
export function reasoningText(message: ExtendedMessage): string | null {
  for (const candidate of [message.reasoning, message.reasoning_content]) {
    if (typeof candidate === 'string' && candidate !== '') return candidate;
  }
  const details = (message.reasoning_details ?? [])
    .map((d) => (typeof d.text === 'string' ? d.text : typeof d.summary === 'string' ? d.summary : ''))
    .filter(Boolean);
  return details.length > 0 ? details.join('\n') : null;
}

/** An error of the openai SDK as a ModelCallError of ours (an abort passes through untouched). */
export function openAICallError(
  error: unknown,
  where: { baseUrl: string; model: string; apiKeyEnv: string | null; toolsSent?: boolean },
): unknown {
  const { baseUrl, model } = where;
  if (error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new TransientError('timeout', `No answer from ${baseUrl} in time`, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) return classifyNetworkFailure(error.cause ?? error, baseUrl);
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const body = error.error as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : error.message;
    if (where.toolsSent && toolsUnsupported(error.status, message)) {
      return new ConfigurationError(
        TOOLS_UNSUPPORTED,
        `${baseUrl} (HTTP ${error.status}) does not support tool calling for '${model}': ${message}`,
      );
    }
    return classifyHttpFailure({
      status: error.status,
      message,
      retryAfterMs: parseRetryAfter(error.headers),
      baseUrl,
      model,
      apiKeyEnv: where.apiKeyEnv,
    });
  }
  if (error instanceof SyntaxError) {
    return new TransientError('bad_response', `${baseUrl} sent a response that is not JSON: ${error.message}`, {
      cause: error,
    });
  }
  return error;
}

/**
 * What endpoints answer when a model cannot take tools: Ollama 400 "does not support tools",
 * OpenRouter 404 "No endpoints found that support tool use", vLLM 400 about `tool_choice` / the auto
 * tool choice flag it was started without.
 */
export function toolsUnsupported(status: number, message: string): boolean {
  if (status === 400 && /does not support tools/i.test(message)) return true;
  if (status === 404 && /support tool use/i.test(message)) return true;
  return status === 400 && /tool[_ ]choice|enable-auto-tool-choice|tool-call-parser/i.test(message);
}

export function createOpenAICompatibleProvider(options: AdapterOptions): Provider {
  const { profile } = options;
  const baseUrl = (profile.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const client = new OpenAI({
    // Local servers (vLLM, LM Studio, llama.cpp) need no key, but the SDK insists on one.
    apiKey: options.apiKey ?? 'no-key-configured',
    baseURL: baseUrl,
    maxRetries: 0,
    // Our own timer aborts each try; the SDK's is only a backstop.
    timeout: options.policy.timeoutMs * 2,
  });

  return {
    name: `${profile.provider} (profile ${profile.name})`,
    kind: profile.provider,
    async complete(request: CompletionRequest) {
      const model = prepareRequest(request);
      const body: Record<string, unknown> = {
        ...profile.extraBody,
        model: model.baseModel,
        messages: [{ role: 'user', content: request.prompt }],
        ...reasoningParameters(profile.provider, model),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        // OpenRouter reports the cost of a call only when usage accounting is asked for.
        ...(profile.provider === 'openrouter' ? { usage: { include: true } } : {}),
      };
      if (request.outputMode === 'json_schema') {
        body.response_format = {
          type: 'json_schema',
          json_schema: { name: schemaName(request.schemaName), strict: true, schema: request.schema },
        };
      }
      const { messages: _messages, ...sent } = body;
      const requestConfig = {
        provider: profile.provider,
        baseUrl,
        outputMode: request.outputMode,
        ...sent,
        timeoutMs: options.policy.timeoutMs,
        maxAttempts: options.policy.maxAttempts,
      };

      const outcome = await createCompletion(client, options, model.baseModel, body, baseUrl, request.signal);
      const completion = outcome.value;
      const message = completion.choices[0]?.message as ExtendedMessage;
      const { usage, reportedCost } = completionUsage(completion);
      return buildResult(request, model, {
        output: message.content ?? '',
        reasoning: reasoningText(message),
        usage,
        cost: resolveCost(reportedCost, model.baseModel, usage, { table: options.priceTable }),
        apiDurationMs: outcome.durationMs,
        route: completionRoute(completion, profile, baseUrl, model.baseModel),
        requestConfig,
        retries: outcome.retries,
      });
    },
  };
}

/** The call context every request of an adapter runs under: its profile's slot, budget and retry policy. */
export function retryContext(options: AdapterOptions, baseModel: string, signal: AbortSignal | undefined): CallContext {
  return {
    budget: options.budget,
    slot: { profile: options.profile.name, group: options.capacityGroupOf(baseModel) },
    policy: options.policy,
    signal,
    random: options.random,
  };
}

/** One chat completion under the budget and the retry policy; `toolsSent` lets a refusal of tools be told apart. */
export function createCompletion(
  client: OpenAI,
  options: AdapterOptions,
  baseModel: string,
  body: Record<string, unknown>,
  baseUrl: string,
  signal: AbortSignal | undefined,
  toolsSent = false,
): Promise<CallOutcome<ChatCompletion>> {
  return callWithRetries(retryContext(options, baseModel, signal), async (signal) => {
    let completion: ChatCompletion;
    try {
      completion = await client.chat.completions.create(body as unknown as ChatCompletionCreateParamsNonStreaming, {
        signal,
      });
    } catch (error) {
      throw openAICallError(error, { baseUrl, model: baseModel, apiKeyEnv: options.profile.apiKeyEnv, toolsSent });
    }
    return checkCompletion(completion, baseUrl);
  });
}

/** Where a completion was served: the model the server names, its response id, the router's upstream. */
export function completionRoute(
  completion: ChatCompletion,
  profile: Profile,
  baseUrl: string,
  requestedModel: string,
): RouteMetadata {
  const upstream = (completion as { provider?: unknown }).provider;
  return {
    provider: profile.provider,
    profile: profile.name,
    baseUrl,
    requestedModel,
    servedModel: typeof completion.model === 'string' ? completion.model : null,
    responseId: typeof completion.id === 'string' ? completion.id : null,
    upstreamProvider: typeof upstream === 'string' ? upstream : null,
    simulated: false,
  };
}

/** Token counts as OpenAI-compatible servers report them, and the cost a router reported (OpenRouter's usage.cost). */
export function completionUsage(completion: ChatCompletion): { usage: TokenUsage; reportedCost: number | null } {
  const rawUsage = completion.usage as (ChatCompletion['usage'] & { cost?: unknown }) | undefined;
  return {
    usage: {
      inputTokens: numberOrNull(rawUsage?.prompt_tokens),
      outputTokens: numberOrNull(rawUsage?.completion_tokens),
      reasoningTokens: numberOrNull(rawUsage?.completion_tokens_details?.reasoning_tokens),
      totalTokens: numberOrNull(rawUsage?.total_tokens),
    },
    reportedCost: numberOrNull(rawUsage?.cost),
  };
}

/** A 200 without an answer (no choices, or an error object inside) is the service failing, not the model. */
export function checkCompletion(completion: ChatCompletion, baseUrl: string): ChatCompletion {
  const embedded = (completion as { error?: { message?: unknown; code?: unknown } }).error;
  if (embedded) {
    const failure: ModelCallError = new TransientError(
      'provider_error',
      `${baseUrl} answered with an error: ${String(embedded.message ?? embedded.code ?? 'unknown')}`,
    );
    throw failure;
  }
  if (!Array.isArray(completion.choices) || !completion.choices[0]?.message) {
    throw new TransientError('empty_response', `${baseUrl} answered without a message`);
  }
  return completion;
}
