import {
  capHeadTail,
  DEFAULT_TRUNCATION_HINT,
  findTool,
  ToolRefusal,
  type AgentLimits,
  type Tool,
  type ToolCallRecord,
  type ToolCallResult,
  type ToolContext,
  type ToolSet,
} from '@gitbench/core';
import type { AgentToolCall } from '@gitbench/providers';
import { sandboxExit, type AgentExit } from './agent-exit';

class SandboxBroke extends Error {
  override name = 'SandboxBroke';
}

export const NOT_RUN_SUBMITTED = 'Not run: the task was already submitted in this turn.';
export const NOT_RUN_TIME = 'Not run: the time limit was reached.';
export const NOT_RUN_SANDBOX = 'Not run: the sandbox failed.';
/** The answer to the call under which the sandbox failed: not its output (there is none), and why nothing follows. */
export const sandboxFailedUnder = (tool: string) =>
  `Error: the sandbox failed while ${tool} ran; nothing it printed could be read, and the attempt ends here.`;

function describeIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** The arguments of one call, validated against its tool, or why not (sent back to the model, never `{}`). */
export function validateCall(
  toolSet: ToolSet,
  call: AgentToolCall,
  finishReason: string | null,
): { tool: Tool; args: unknown } | { error: string } {
  const tool = findTool(toolSet, call.name);
  if (!tool)
    return { error: `unknown tool '${call.name}'; the tools are ${toolSet.tools.map((t) => t.name).join(', ')}` };
  const cut = finishReason === 'length' ? ' (your reply was cut at the output token limit)' : '';
  let parsed: unknown;
  if (call.arguments.trim() === '') return { error: `no arguments given for ${tool.name}; send a JSON object${cut}` };
  try {
    parsed = JSON.parse(call.arguments);
  } catch (e) {
    return { error: `the arguments of ${tool.name} are not valid JSON: ${(e as Error).message}${cut}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: `the arguments of ${tool.name} must be a JSON object` };
  const checked = tool.args.safeParse(parsed);
  if (!checked.success) return { error: `invalid arguments for ${tool.name}: ${describeIssues(checked.error)}` };
  return { tool, args: checked.data };
}

export interface ExecuteContext {
  toolSet: ToolSet;
  ctx: ToolContext;
  limits: Pick<AgentLimits, 'maxToolOutputBytes'>;
  deadline: number;
  now: () => number;
  throwIfCancelled: () => void;
}

/** What a turn's calls came to: every call id answered, in order. */
export interface ExecutedCalls {
  toolCalls: ToolCallRecord[];
  results: ToolCallResult[];
  toolMs: number;
  /** Calls that ran in the sandbox (not refused, not invalid). */
  ran: number;
  /** A submit, a broken sandbox; null when the loop goes on. */
  exit: AgentExit | null;
  submission: string | null;
  /** Why the calls after some point were not run (the time limit, a submit, a broken sandbox). */
  stopCalls: string | null;
}

/**
 * Runs one turn's calls one at a time in the attempt's sandbox, like Inspect's execute_tools: each is
 * validated against its tool first, and every call id gets an answer, a refusal or an error included.
 * After a submit, the time limit or a broken sandbox, the remaining calls are answered as not run;
 * `stopped` (the sandbox broke before the turn's calls) answers them all so.
 */
export async function executeCalls(
  x: ExecuteContext,
  calls: readonly AgentToolCall[],
  finishReason: string | null,
  stopped: { exit: AgentExit; why: string } | null = null,
): Promise<ExecutedCalls> {
  const out: ExecutedCalls = {
    toolCalls: [],
    results: [],
    toolMs: 0,
    ran: 0,
    exit: stopped?.exit ?? null,
    submission: null,
    stopCalls: stopped?.why ?? null,
  };
  for (const call of calls) {
    const record: ToolCallRecord = {
      id: call.id,
      name: call.name,
      rawArguments: call.arguments,
      arguments: null,
      parseError: null,
    };
    out.toolCalls.push(record);
    const answer = (output: string, isError: boolean, extra: Partial<ToolCallResult> = {}): void => {
      const capped = capHeadTail(output, x.limits.maxToolOutputBytes);
      out.results.push({
        callId: call.id,
        name: call.name,
        isError,
        exitCode: null,
        timedOut: false,
        durationMs: 0,
        output: capped.text,
        outputBytes: capped.bytes,
        truncatedBytes: capped.truncatedBytes,
        ...extra,
      });
    };
    if (out.stopCalls) {
      answer(out.stopCalls, true);
      continue;
    }
    if (x.now() >= x.deadline) {
      out.stopCalls = NOT_RUN_TIME;
      answer(out.stopCalls, true);
      continue;
    }
    const checked = validateCall(x.toolSet, call, finishReason);
    if ('error' in checked) {
      record.parseError = checked.error;
      answer(`Error: ${checked.error}`, true);
      continue;
    }
    record.arguments = checked.args;
    const t0 = x.now();
    let res;
    try {
      res = await checked.tool.run(checked.args, x.ctx);
    } catch (error) {
      x.throwIfCancelled();
      if (error instanceof ToolRefusal) {
        // The call asked for something the sandbox refuses (a file too large to read): the model is told.
        answer(`Error: ${error.message}`, true, { durationMs: Math.max(0, x.now() - t0) });
        continue;
      }
      const said = (error as Error).message;
      const detail = `the sandbox failed while ${call.name} ran: ${said}`;
      // What the sandbox said is the step's error, beside the result: never the command's output.
      answer(sandboxFailedUnder(call.name), true, { durationMs: Math.max(0, x.now() - t0), sandboxError: said });
      out.exit = sandboxExit(detail, new SandboxBroke(detail, { cause: error }));
      out.stopCalls = NOT_RUN_SANDBOX;
      continue;
    }
    const durationMs = Math.max(0, x.now() - t0);
    out.toolMs += durationMs;
    out.ran++;
    const capped = capHeadTail(
      res.output,
      x.limits.maxToolOutputBytes,
      checked.tool.truncationHint ?? DEFAULT_TRUNCATION_HINT,
    );
    const fullBytes = res.outputBytes ?? capped.bytes;
    out.results.push({
      callId: call.id,
      name: call.name,
      isError: res.isError,
      exitCode: res.exitCode ?? null,
      timedOut: res.timedOut ?? false,
      durationMs,
      output: capped.text,
      outputBytes: fullBytes,
      // What the sandbox already left out of the streams, plus what the cap cut here.
      truncatedBytes: capped.truncatedBytes + Math.max(0, fullBytes - capped.bytes),
    });
    if (res.submission) {
      out.submission = res.submission.answer;
      out.exit = { status: 'submitted', detail: null };
      out.stopCalls = NOT_RUN_SUBMITTED;
    }
  }
  return out;
}
