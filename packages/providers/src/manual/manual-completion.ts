import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ManualAnswerError, parseManualAnswer, type ChatRequest, type ManualAnswer } from '@gitbench/core';

/** A person's answer read from what they gave, and written back as a Chat Completions reply. */

/** The answer as a chat.completion object of the request's model; a call's ids are made up here. */
export function completionOf(request: ChatRequest, answer: ManualAnswer): Record<string, unknown> {
  const id = `chatcmpl-manual-${randomBytes(6).toString('hex')}`;
  const toolCalls = answer.toolCalls.map((c, i) => ({
    id: `call_${id.slice(-12)}_${i}`,
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
  }));
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
  };
}

/** The same answer as one server-sent chunk and [DONE], for a client that asked to stream. */
export function streamCompletion(res: ServerResponse, completion: Record<string, unknown>): void {
  const choice = (
    completion.choices as { message: { content: string | null; tool_calls?: unknown[] }; finish_reason: string }[]
  )[0]!;
  const toolCalls = (choice.message.tool_calls ?? []).map((c, index) => ({ index, ...(c as object) }));
  const chunk = {
    ...completion,
    object: 'chat.completion.chunk',
    choices: [
      {
        index: 0,
        delta: {
          role: 'assistant',
          content: choice.message.content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: choice.finish_reason,
      },
    ],
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
}

/** An answer given as the wire's assistant message rather than as typed text. */
export interface MessageAnswer {
  content?: unknown;
  tool_calls?: unknown;
}

/** The answer a person gave, typed or as the wire's message, checked against the tools the request offers. */
export function parseGiven(given: string | MessageAnswer, request: ChatRequest): ManualAnswer {
  const tools = request.tools ?? [];
  if (typeof given === 'string') return parseManualAnswer(given, tools);
  if (tools.length > 0) return parseManualAnswer(JSON.stringify(given), tools);
  if (typeof given.content !== 'string' || (Array.isArray(given.tool_calls) && given.tool_calls.length > 0)) {
    throw new ManualAnswerError(
      'This request offers no tools: the message needs "content" (a string) and no "tool_calls".',
    );
  }
  return { content: given.content, toolCalls: [] };
}
