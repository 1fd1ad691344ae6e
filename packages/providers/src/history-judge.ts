import { HISTORY_REPLY_JSON_SCHEMA, historyReplySchema, type AskHistoryJudge } from '@gitbench/core';
import { askStructured, type JudgeMember } from './judges';
import type { CompletionResult } from './types';

/**
 * GitGoodBench's history judge through one judge member: the paper's prompt, structured output
 * `{evaluation_result, evaluation_reason}` and temperature 0. Every completion is handed to `onCall`
 * (usage and cost); a reply outside the contract, or a failed call, is no reply.
 */
export function historyJudgeAsk(
  member: JudgeMember,
  options: { signal?: AbortSignal; onCall?: (result: CompletionResult) => void } = {},
): AskHistoryJudge {
  return async (prompt) => {
    const asked = await askStructured(member, {
      prompt,
      schema: HISTORY_REPLY_JSON_SCHEMA,
      schemaName: 'history_evaluation',
      temperature: 0,
      signal: options.signal,
    });
    if (asked.result === undefined)
      return { reply: null, error: asked.error instanceof Error ? asked.error.message : String(asked.error) };
    const result: CompletionResult = asked.result;
    options.onCall?.(result);
    const reply = result.qualityFailure ? null : historyReplySchema.safeParse(result.structuredOutput);
    if (!reply?.success)
      return {
        reply: null,
        error: result.qualityFailure?.message ?? 'The reply does not match {evaluation_result, evaluation_reason}.',
      };
    return { reply: reply.data };
  };
}
