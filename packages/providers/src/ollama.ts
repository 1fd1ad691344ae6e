import { TransientError, type ModelId } from '@gitbench/core';
import { resolveCost } from './cost';
import { classifyHttpFailure, classifyNetworkFailure, parseRetryAfter } from './http-errors';
import { retryContext, type AdapterOptions } from './openai-compatible';
import { buildResult, numberOrNull, prepareRequest } from './result';
import { callWithRetries } from './retry';
import type { CompletionRequest, Provider } from './types';

interface OllamaChatResponse {
  model?: unknown;
  created_at?: unknown;
  message?: { content?: unknown; thinking?: unknown };
  prompt_eval_count?: unknown;
  eval_count?: unknown;
  error?: unknown;
}

/**
 * Ollama's `think` switch: false for `none`; the named levels its reasoning models accept pass through;
 * any other level just turns thinking on. The value sent is recorded in the request configuration.
 */
export function ollamaThink(model: ModelId): boolean | string | undefined {
  if (!model.effort) return undefined;
  if (model.effort === 'none') return false;
  return ['low', 'medium', 'high'].includes(model.effort) ? model.effort : true;
}

/** Ollama's native /api/chat, where structured output goes through `format` (a JSON Schema). */
export function createOllamaProvider(options: AdapterOptions): Provider {
  const { profile } = options;
  // Users often paste Ollama's OpenAI-compatible URL; the native API lives beside it.
  const baseUrl = (profile.baseUrl ?? 'http://127.0.0.1:11434').replace(/\/+$/, '').replace(/\/v1$/, '');

  return {
    name: `ollama (profile ${profile.name})`,
    kind: 'ollama',
    async complete(request: CompletionRequest) {
      const model = prepareRequest(request);
      const think = ollamaThink(model);
      const body: Record<string, unknown> = {
        ...profile.extraBody,
        model: model.baseModel,
        messages: [{ role: 'user', content: request.prompt }],
        stream: false,
        ...(think !== undefined ? { think } : {}),
        ...(request.outputMode === 'json_schema' ? { format: request.schema } : {}),
        ...(request.temperature !== undefined
          ? {
              options: {
                ...(profile.extraBody?.['options'] as Record<string, unknown> | undefined),
                temperature: request.temperature,
              },
            }
          : {}),
      };
      const { messages: _messages, ...sent } = body;

      const outcome = await callWithRetries(retryContext(options, model.baseModel, request.signal), async (signal) => {
        let response: Response;
        try {
          response = await fetch(`${baseUrl}/api/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
            signal,
          });
        } catch (error) {
          if (signal.aborted) throw error;
          throw classifyNetworkFailure(error, baseUrl);
        }
        const text = await response.text();
        let parsed: OllamaChatResponse;
        try {
          parsed = JSON.parse(text) as OllamaChatResponse;
        } catch {
          if (!response.ok) parsed = { error: text.slice(0, 500) };
          else throw new TransientError('bad_response', `${baseUrl} sent a response that is not JSON`);
        }
        if (!response.ok) {
          throw classifyHttpFailure({
            status: response.status,
            message: typeof parsed.error === 'string' ? parsed.error : '',
            retryAfterMs: parseRetryAfter(response.headers),
            baseUrl,
            model: model.baseModel,
            apiKeyEnv: null,
          });
        }
        if (!parsed.message || typeof parsed.message.content !== 'string') {
          throw new TransientError('empty_response', `${baseUrl} answered without a message`);
        }
        return parsed;
      });

      const reply = outcome.value;
      const inputTokens = numberOrNull(reply.prompt_eval_count);
      const outputTokens = numberOrNull(reply.eval_count);
      const usage = {
        inputTokens,
        outputTokens,
        // Ollama does not count thinking tokens separately; they are inside eval_count.
        reasoningTokens: null,
        totalTokens: inputTokens !== null && outputTokens !== null ? inputTokens + outputTokens : null,
      };
      const thinking = reply.message?.thinking;
      return buildResult(request, model, {
        output: reply.message?.content as string,
        reasoning: typeof thinking === 'string' && thinking !== '' ? thinking : null,
        usage,
        cost: resolveCost(null, model.baseModel, usage, { table: options.priceTable }),
        apiDurationMs: outcome.durationMs,
        route: {
          provider: 'ollama',
          profile: profile.name,
          baseUrl,
          requestedModel: model.baseModel,
          servedModel: typeof reply.model === 'string' ? reply.model : null,
          responseId: typeof reply.created_at === 'string' ? reply.created_at : null,
          upstreamProvider: null,
          simulated: false,
        },
        requestConfig: {
          provider: 'ollama',
          baseUrl,
          outputMode: request.outputMode,
          ...sent,
          timeoutMs: options.policy.timeoutMs,
          maxAttempts: options.policy.maxAttempts,
        },
        retries: outcome.retries,
      });
    },
  };
}
