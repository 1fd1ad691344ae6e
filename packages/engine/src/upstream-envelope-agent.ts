/** An agent attempt in a result file: its conversation as upstream's transcripts hold one, and what it did. */
import type { AgentAttemptRecord } from './agent/agent-attempt-input';

/**
 * An agent's conversation as it happened, in the chat shape upstream's transcripts use: the system and
 * user prompts actually sent, then every step's message with its tool calls, each call's output
 * (with its exit code) and whatever the runtime said besides.
 */
export function agentTranscript(record: AgentAttemptRecord): Record<string, unknown>[] {
  const s = record.summary;
  const messages: Record<string, unknown>[] = [
    ...(s.systemPrompt ? [{ role: 'system', content: s.systemPrompt }] : []),
    { role: 'user', content: s.taskPrompt },
  ];
  for (const step of record.steps) {
    messages.push({
      role: 'assistant',
      content: step.message.content ?? '',
      ...(step.message.reasoning ? { reasoning: step.message.reasoning } : {}),
      ...(step.toolCalls.length
        ? { tool_calls: step.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.rawArguments })) }
        : {}),
    });
    for (const r of step.results) {
      // A third-party agent's result is its own report (never seen run): the result file says so.
      messages.push({
        role: 'tool',
        tool_call_id: r.callId,
        name: r.name,
        content: r.output,
        exit_code: r.exitCode,
        is_error: r.isError,
        truncated_bytes: r.truncatedBytes,
        ...(r.agentReported ? { agent_reported: true } : {}),
        ...(r.sandboxError !== undefined ? { sandbox_error: r.sandboxError } : {}),
      });
    }
    if (step.runtimeNote) messages.push({ role: 'user', content: step.runtimeNote });
  }
  return messages;
}

/** What an agent attempt did, beside upstream's fields: the loop's ending, its size and its prompts' tool set. */
export function agentSection(record: AgentAttemptRecord): Record<string, unknown> {
  const s = record.summary;
  return {
    tool_set: s.toolSet,
    protocol: s.protocol,
    exit_status: s.exitStatus,
    exit_detail: s.exitDetail,
    steps: s.steps,
    tool_calls: s.totals.toolCalls,
    scored_on: record.scoredOn,
    model_ms: s.totals.modelMs,
    tool_ms: s.totals.toolMs,
    wall_ms: s.totals.wallMs,
  };
}
