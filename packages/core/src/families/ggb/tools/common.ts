import { z } from 'zod';
import {
  CAP_NOTE,
  type ToolContext,
  type ToolExecOptions,
  type ToolExecRecord,
  type ToolResult,
} from '../../../agent/tool-set';
import { AGENT_GIT_ENV } from '../../../agent/tools/bash-tool';
import { LINE_RANGE_ARGS, LINE_RANGE_PARAMETERS } from '../../../agent/tools/editor-tools';
import { shellQuote } from '../../../shell-quote';

/** Every GitGoodBench tool takes a required `reason` (the paper's tools do): why the agent calls it. */
export const reason = z.string().min(1, 'give a reason for this call');
export const REASON_PARAMETER = { type: 'string', description: 'Why you call this tool now (required).' } as const;

/** The arguments of a tool that takes nothing but its reason. */
export const REASON_ONLY = {
  parameters: {
    type: 'object' as const,
    properties: { reason: REASON_PARAMETER },
    required: ['reason'],
    additionalProperties: false,
  },
  args: z.object({ reason }).strict(),
};

/** What a view that pages its answer calls it when an offset is past its end (lineRange's `what`). */
export const THE_ANSWER = 'the answer';

/** How to read past the output cap of a view that pages its answer. */
export const PAGED_ANSWER_HINT = 'read the answer in parts with offset (first line) and limit (number of lines)';
/** The end of such a view's description: what is cut, and how to read the rest. */
export const PAGED_CAP_NOTE = `${CAP_NOTE}: to see the rest, ${PAGED_ANSWER_HINT}.`;

/**
 * The arguments of a view that takes its reason and pages its answer by lines (not in the paper's tools, which could
 * not page).
 */
export const REASON_AND_LINE_RANGE = {
  parameters: {
    type: 'object' as const,
    properties: { reason: REASON_PARAMETER, ...LINE_RANGE_PARAMETERS },
    required: ['reason'],
    additionalProperties: false,
  },
  args: z.object({ reason, ...LINE_RANGE_ARGS }).strict(),
  truncationHint: PAGED_ANSWER_HINT,
};

const decoder = new TextDecoder('utf-8');
export const decode = (bytes: Uint8Array): string => decoder.decode(bytes);

/**
 * Bytes of a command's stdout and stderr a tool reads. A session keeps only the attempt's output limit
 * (16 KiB by default, head and tail) of a command unless told otherwise, and these commands' output is
 * not the model's answer: the tools parse it (hunks, todo lines) or page it, and the loop caps what the
 * model is sent afterwards. Cut at the attempt's limit, a history or diff longer than it lost its middle
 * before a view could page it, and a commit's hunks were read from a cut diff.
 */
export const TOOL_READ_BYTES = 8 * 1024 * 1024;

/** Runs one git command with the agent's non-interactive environment; commands are recorded. */
export async function run(
  ctx: ToolContext,
  commands: ToolExecRecord[],
  command: string,
  options: ToolExecOptions = {},
): Promise<ToolExecRecord> {
  const record = await ctx.exec(command, {
    timeoutMs: ctx.limits.commandTimeoutMs,
    maxOutputBytes: TOOL_READ_BYTES,
    ...options,
    env: { ...AGENT_GIT_ENV, ...options.env },
  });
  commands.push(record);
  return record;
}

export function result(output: string, isError: boolean, commands: ToolExecRecord[]): ToolResult {
  return { output, isError, commands };
}

export const q = shellQuote;

/** Lines with their line endings kept (CRLF stays CRLF). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The line ending a file uses (the first line's), so written content keeps it. */
export function lineEnding(text: string): '\r\n' | '\n' {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}

export function withEnding(content: string, eol: '\r\n' | '\n'): string {
  const normal = content.replace(/\r\n/g, '\n');
  return eol === '\r\n' ? normal.replace(/\n/g, '\r\n') : normal;
}
