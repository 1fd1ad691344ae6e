import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { parseModelId, TransientError, type ModelId, type TokenUsage } from '@gitbench/core';
import { resolveCost } from './cost';
import { classifyHttpFailure, classifyNetworkFailure, parseRetryAfter } from './http-errors';
import { retryContext, type AdapterOptions } from './openai-compatible';
import { buildResult, prepareRequest, schemaName } from './result';
import { callWithRetries, type CallOutcome } from './retry';
import type {
  AgentChatRequest,
  AgentChatResult,
  AgentMessage,
  CompletionRequest,
  Provider,
  RouteMetadata,
} from './types';

/**
 * Anthropic's own Messages API through @anthropic-ai/sdk, for profiles with `provider: anthropic`: a
 * Claude model reached without an OpenAI-compatible router in between, so what Claude Code sends the
 * gateway reaches it in its own protocol's terms (tool_use and tool_result blocks). Same budget and
 * retry policy as every adapter; errors classified as the OpenAI-compatible ones are.
 */

const DEFAULT_MAX_TOKENS = 8192;
/** Extended thinking's budget per effort; `none` (or no effort) sends no thinking. */
const THINKING_BUDGET: Record<string, number> = { minimal: 1024, low: 2048, medium: 8192, high: 24_576 };

function thinking(model: ModelId, maxTokens: number): Record<string, unknown> {
  const budget = model.effort ? THINKING_BUDGET[model.effort] : undefined;
  // The budget is part of max_tokens, which must stay above it.
  return budget ? { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: maxTokens + budget } : {};
}

function parsedInput(text: string): unknown {
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    return { raw: text };
  }
}

/**
 * Our conversation as Messages: system text apart, tool results as tool_result blocks of a user turn,
 * and turns of one role merged (the API wants user and assistant to alternate).
 */
export function anthropicMessages(messages: readonly AgentMessage[]): {
  system: string | undefined;
  messages: MessageParam[];
} {
  const system: string[] = [];
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = out[out.length - 1];
    if (last?.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') push('user', [{ type: 'text', text: m.content }]);
    else if (m.role === 'tool') push('user', [{ type: 'tool_result', tool_use_id: m.callId, content: m.content }]);
    else if (m.role === 'assistant') {
      const blocks: ContentBlockParam[] = [];
      if (m.content) blocks.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: parsedInput(c.arguments) });
      push('assistant', blocks.length > 0 ? blocks : [{ type: 'text', text: '' }]);
    }
  }
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: out };
}

function anthropicCallError(error: unknown, baseUrl: string, model: string, apiKeyEnv: string | null): unknown {
  if (error instanceof Anthropic.APIUserAbortError) return error;
  if (error instanceof Anthropic.APIConnectionTimeoutError)
    return new TransientError('timeout', `No answer from ${baseUrl} in time`, { cause: error });
  if (error instanceof Anthropic.APIConnectionError) return classifyNetworkFailure(error.cause ?? error, baseUrl);
  if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
    const body = error.error as { error?: { message?: unknown } } | undefined;
    const message = typeof body?.error?.message === 'string' ? body.error.message : error.message;
    // 529 is Anthropic's "overloaded": a server error like any 5xx.
    return classifyHttpFailure({
      status: error.status,
      message,
      retryAfterMs: parseRetryAfter(error.headers),
      baseUrl,
      model,
      apiKeyEnv,
    });
  }
  return error;
}

function usageOf(message: Message): TokenUsage {
  const input =
    message.usage.input_tokens +
    (message.usage.cache_read_input_tokens ?? 0) +
    (message.usage.cache_creation_input_tokens ?? 0);
  return {
    inputTokens: input,
    outputTokens: message.usage.output_tokens,
    reasoningTokens: null,
    totalTokens: input + message.usage.output_tokens,
  };
}

function route(message: Message, options: AdapterOptions, baseUrl: string, requestedModel: string): RouteMetadata {
  return {
    provider: 'anthropic',
    profile: options.profile.name,
    baseUrl,
    requestedModel,
    servedModel: message.model,
    responseId: message.id,
    upstreamProvider: null,
    simulated: false,
  };
}

export function createAnthropicProvider(options: AdapterOptions): Provider {
  const { profile } = options;
  const baseUrl = (profile.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '').replace(/\/v1$/, '');
  const client = new Anthropic({
    apiKey: options.apiKey ?? 'no-key-configured',
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: options.policy.timeoutMs * 2,
  });
  const maxTokens =
    typeof profile.extraBody.max_tokens === 'number' ? profile.extraBody.max_tokens : DEFAULT_MAX_TOKENS;

  const create = (
    model: ModelId,
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<CallOutcome<Message>> =>
    callWithRetries(retryContext(options, model.baseModel, signal), async (trySignal) => {
      try {
        return await client.messages.create(
          {
            ...profile.extraBody,
            max_tokens: maxTokens,
            ...body,
            ...thinking(model, maxTokens),
            model: model.baseModel,
          } as unknown as MessageCreateParamsNonStreaming,
          {
            signal: trySignal,
          },
        );
      } catch (error) {
        throw anthropicCallError(error, baseUrl, model.baseModel, profile.apiKeyEnv);
      }
    });

  const texts = (message: Message, type: 'text' | 'thinking') =>
    message.content
      .map((b) =>
        type === 'text' && b.type === 'text' ? b.text : type === 'thinking' && b.type === 'thinking' ? b.thinking : '',
      )
      .filter(Boolean)
      .join('\n');

  return {
    name: `anthropic (profile ${profile.name})`,
    kind: 'anthropic',
    async complete(request: CompletionRequest) {
      const model = prepareRequest(request);
      const structured = request.outputMode === 'json_schema';
      const tool = schemaName(request.schemaName);
      // Messages has no response format: a structured answer is the input of one tool the model must call.
      const body: Record<string, unknown> = {
        messages: [{ role: 'user', content: request.prompt }],
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(structured
          ? {
              tools: [{ name: tool, description: 'Give the answer.', input_schema: request.schema }],
              tool_choice: { type: 'tool', name: tool },
            }
          : {}),
      };
      const outcome = await create(model, body, request.signal);
      const message = outcome.value;
      const used = message.content.find((b) => b.type === 'tool_use');
      const usage = usageOf(message);
      const { messages: _messages, ...sent } = body;
      return buildResult(request, model, {
        output: structured ? (used ? JSON.stringify(used.input) : texts(message, 'text')) : texts(message, 'text'),
        reasoning: texts(message, 'thinking') || null,
        usage,
        cost: resolveCost(null, model.baseModel, usage, { table: options.priceTable }),
        apiDurationMs: outcome.durationMs,
        route: route(message, options, baseUrl, model.baseModel),
        requestConfig: {
          provider: 'anthropic',
          baseUrl,
          outputMode: request.outputMode,
          max_tokens: maxTokens,
          ...sent,
          timeoutMs: options.policy.timeoutMs,
          maxAttempts: options.policy.maxAttempts,
        },
        retries: outcome.retries,
      });
    },
    async chat(request: AgentChatRequest): Promise<AgentChatResult> {
      const model = parseModelId(request.model);
      const { system, messages } = anthropicMessages(request.messages);
      const native = request.protocol === 'native' && request.tools.length > 0;
      const outcome = await create(
        model,
        {
          ...(system !== undefined ? { system } : {}),
          messages,
          ...(native
            ? {
                tools: request.tools.map((t) => ({
                  name: t.name,
                  description: t.description,
                  input_schema: t.parameters,
                })),
              }
            : {}),
        },
        request.signal,
      );
      const message = outcome.value;
      const usage = usageOf(message);
      const toolCalls = message.content.flatMap((b) =>
        b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) }] : [],
      );
      return {
        content: texts(message, 'text') || null,
        reasoning: texts(message, 'thinking') || null,
        toolCalls,
        finishReason:
          message.stop_reason === 'tool_use' ? 'tool_calls' : message.stop_reason === 'max_tokens' ? 'length' : 'stop',
        usage,
        cost: resolveCost(null, model.baseModel, usage, { table: options.priceTable }),
        apiDurationMs: outcome.durationMs,
        retries: outcome.retries,
        route: route(message, options, baseUrl, model.baseModel),
      };
    },
  };
}
