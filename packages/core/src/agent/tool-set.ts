import type { z } from 'zod';
import type { ExecRecord } from '../scoring/types';

/**
 * Tools are plain data: a name, what the model is told, the JSON Schema of the arguments the model
 * sends, the zod schema that validates them, and what running them does. A task family adds its own
 * ToolSet without touching the runtime; the runtime only validates, runs one call at a time, and
 * records.
 *
 * `run` sees the attempt's sandbox only through ToolContext, so every tool is testable against any
 * sandbox (or a fake one) and core stays free of drivers.
 */

/** JSON Schema of a tool's arguments (an object schema), as sent to the model. */
export type ToolParameters = {
  type: 'object';
  properties: Record<string, unknown>;
  required?: readonly string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
};

export interface ToolExecOptions {
  /** Default: the agent's commandTimeoutMs. */
  timeoutMs?: number;
  /** Relative to the repository root, or absolute inside the sandbox. Default: the repository root. */
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string | Uint8Array;
  /** Bytes of stdout and of stderr kept in the record; the sizes before capping are still reported. */
  maxOutputBytes?: number;
  /** stderr written into stdout as it comes, so the two keep their order (stderr is then empty). */
  mergeStderr?: boolean;
}

/** An ExecRecord plus what capping removed, so evidence says how much was not kept. */
export interface ToolExecRecord extends ExecRecord {
  stdoutBytes: number;
  stderrBytes: number;
}

/** What a tool may do to the attempt's sandbox. Paths are relative to the repository root unless absolute. */
export interface ToolContext {
  readonly repoDir: string;
  exec(command: string, options?: ToolExecOptions): Promise<ToolExecRecord>;
  /** The file's bytes exactly (CRLF and encodings untouched), or null when it does not exist. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Writes bytes exactly; creates parent directories. */
  writeFile(path: string, content: Uint8Array | string): Promise<void>;
  readonly limits: { commandTimeoutMs: number; maxToolOutputBytes: number };
  readonly signal: AbortSignal;
}

export interface ToolResult {
  /** What the model is told, before the runtime caps it (head and tail) to maxToolOutputBytes. */
  output: string;
  /**
   * Size of the full output when the tool already cut `output` (the sandbox keeps head and tail of a
   * command's streams); absent means `output` is whole. The trajectory records the larger size.
   */
  outputBytes?: number;
  /** The call failed (bad arguments, non-zero exit, a conflict that is not there): the model is told so. */
  isError: boolean;
  /** The exit code of the tool's main command, when it has one (bash). */
  exitCode?: number | null;
  timedOut?: boolean;
  /** Every command the tool ran in the sandbox, as recorded, for the trajectory's evidence. */
  commands?: ToolExecRecord[];
  /** Set only by a terminal tool (submit): the answer that ends the loop. */
  submission?: { answer: string };
}

export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  readonly parameters: ToolParameters;
  /** Validates the parsed arguments; its error messages go back to the model, never replaced by `{}`. */
  readonly args: z.ZodType<Args>;
  /** Calling it ends the loop (submit). */
  readonly terminal?: boolean;
  /**
   * How to read what the output cap leaves out of this tool's answer (a range, a narrower command),
   * written into the cut's marker; absent: DEFAULT_TRUNCATION_HINT.
   */
  readonly truncationHint?: string;
  run(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

export interface ToolSet {
  /** Registered name, e.g. `bash+editor`, `ggb-mcr`. */
  readonly name: string;
  readonly description: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each tool carries its own argument type
  readonly tools: readonly Tool<any>[];
  /** Added to the agent's system prompt: how to use this tool set, in one paragraph. */
  readonly instructions?: string;
}

/**
 * Thrown by a ToolContext when the call itself asked for something the sandbox refuses (a file too
 * large to read): the loop answers that call with the message as an error and goes on. Anything
 * else a ToolContext throws means the sandbox failed (an infrastructure error).
 */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
}

/** What a cut says of a tool that cannot page its own answer. */
export const DEFAULT_TRUNCATION_HINT = 'the middle of this output was cut; ask for less at a time to see it';

/**
 * A tool's description of the output cap (every tool's answer is capped): what is cut and how to read
 * the rest. Descriptions cannot name the number: the limit is the attempt's configuration.
 */
export const CAP_NOTE =
  "Answers longer than the attempt's output limit (16 KiB unless configured) are cut in the " +
  'middle, keeping the beginning and the end, with a marker saying how many bytes were left out';

/** Identity helper that keeps a tool's argument type tied to its zod schema. */
export function defineTool<Args>(tool: Tool<Args>): Tool<Args> {
  return tool;
}
