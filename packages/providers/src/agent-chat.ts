import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { parseModelId } from '@gitbench/core';
import type { AgentChatRequest, AgentChatResult, AgentMessage, AgentToolCall } from './types';
import { resolveCost } from './cost';
import {
  completionRoute,
  completionUsage,
  createCompletion,
  reasoningParameters,
  reasoningText,
  type AdapterOptions,
  type ExtendedMessage,
} from './openai-compatible';

/** How a tool's result is put to a model that has no tool calling: a user message. */
export function textToolResult(name: string, content: string): string {
  return `Output of ${name}:\n${content}`;
}

/** The conversation as the endpoint takes it: tool messages natively, or folded into user messages. */
export function wireMessages(
  messages: readonly AgentMessage[],
  protocol: AgentChatRequest['protocol'],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      if (protocol === 'native') {
        out.push({ role: 'tool', tool_call_id: m.callId, content: m.content });
        continue;
      }
      const last = out[out.length - 1];
      const text = textToolResult(m.name, m.content);
      // Several results of one turn travel as one user message.
      if (last?.role === 'user' && typeof last.content === 'string' && last.content.startsWith('Output of '))
        last.content = `${last.content}\n\n${text}`;
      else out.push({ role: 'user', content: text });
    } else if (m.role === 'assistant') {
      const calls = protocol === 'native' ? (m.toolCalls ?? []) : [];
      out.push({
        role: 'assistant',
        content: m.content ?? (calls.length > 0 ? null : ''),
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      });
    } else out.push({ role: m.role, content: m.content });
  }
  return out;
}

interface RawToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

function toolCallsOf(message: { tool_calls?: RawToolCall[] | null }, responseId: string): AgentToolCall[] {
  return (message.tool_calls ?? []).map((c, i) => {
    const args = c.function?.arguments;
    return {
      id: typeof c.id === 'string' && c.id !== '' ? c.id : `call_${responseId}_${i}`,
      name: typeof c.function?.name === 'string' ? c.function.name : '',
      // Some servers (Ollama's older versions) send an object: kept as its JSON text.
      arguments: typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args),
    };
  });
}

/**
 * One agent turn through the openai SDK, under the same budget and retry policy as a single answer
 * (429 waits out Retry-After, 5xx backs off). An endpoint that refuses tools throws
 * ConfigurationError('tools_unsupported') so the loop can fall back to the text protocol.
 */
export function createAgentChat(
  options: AdapterOptions,
  baseUrl: string,
): (request: AgentChatRequest) => Promise<AgentChatResult> {
  const { profile } = options;
  const client = new OpenAI({
    apiKey: options.apiKey ?? 'no-key-configured',
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: options.policy.timeoutMs * 2,
  });
  return async (request) => {
    const model = parseModelId(request.model);
    const native = request.protocol === 'native' && request.tools.length > 0;
    const body: Record<string, unknown> = {
      ...profile.extraBody,
      model: model.baseModel,
      messages: wireMessages(request.messages, request.protocol),
      ...reasoningParameters(profile.provider, model),
      ...(profile.provider === 'openrouter' ? { usage: { include: true } } : {}),
      ...(native
        ? {
            tools: request.tools.map((t) => ({
              type: 'function',
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
            tool_choice: 'auto',
          }
        : {}),
    };
    const outcome = await createCompletion(client, options, model.baseModel, body, baseUrl, request.signal, native);
    const completion = outcome.value;
    const choice = completion.choices[0]!;
    const message = choice.message as ExtendedMessage & { tool_calls?: RawToolCall[] | null };
    const { usage, reportedCost } = completionUsage(completion);
    const responseId = typeof completion.id === 'string' ? completion.id : null;
    return {
      content: typeof message.content === 'string' ? message.content : null,
      reasoning: reasoningText(message),
      toolCalls: toolCallsOf(message, responseId ?? 'x'),
      finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
      usage,
      cost: resolveCost(reportedCost, model.baseModel, usage, { table: options.priceTable }),
      apiDurationMs: outcome.durationMs,
      retries: outcome.retries,
      route: completionRoute(completion, profile, baseUrl, model.baseModel),
    };
  };
}
