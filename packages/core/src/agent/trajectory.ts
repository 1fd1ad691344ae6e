import { z } from 'zod';
import { AGENT_EXIT_STATUSES } from './exit-status';

/**
 * The record of an Agent attempt: one Trajectory per try, one Step per model turn. Writers (the
 * runtime) produce exactly these shapes and readers (pages, exports, re-scoring) parse them, so no
 * page reads JSON by guesswork. Bump TRAJECTORY_VERSION on any incompatible change and keep a parser
 * for the older version.
 */
export const TRAJECTORY_VERSION = 1;

/** How one step's tool calls reached the runtime. */
export const TOOL_CALL_CHANNELS = ['native', 'text', 'leaked'] as const;
export type ToolCallChannel = (typeof TOOL_CALL_CHANNELS)[number];

const ms = z.number().nonnegative();
const count = z.number().int().nonnegative();

export const toolCallRecordSchema = z
  .object({
    /** The model's call id (native), or one the runtime made (text, leaked); every id gets a result. */
    id: z.string(),
    name: z.string(),
    /** The arguments exactly as the model sent them (possibly truncated or not JSON). */
    rawArguments: z.string(),
    /** The validated arguments; null when they could not be parsed or validated. */
    arguments: z.unknown().nullable(),
    /** Why the arguments were refused (sent back to the model), null when accepted. */
    parseError: z.string().nullable(),
  })
  .strict();
export type ToolCallRecord = z.infer<typeof toolCallRecordSchema>;

export const toolCallResultSchema = z
  .object({
    callId: z.string(),
    name: z.string(),
    isError: z.boolean(),
    exitCode: z.number().int().nullable(),
    timedOut: z.boolean(),
    durationMs: ms,
    /** What the model was shown (capped, head and tail kept). */
    output: z.string(),
    /** Size of the full output before capping, and how much of it the model did not see. */
    outputBytes: count,
    truncatedBytes: count,
    /**
     * True when the result is only what a third-party agent said its own tool returned (the next
     * request it sent through the model gateway): GitBench never saw that tool run, so the output may
     * be anything the agent chose to send. Its repository state is read by GitBench, never taken from
     * here. Absent for our own loop's results, which the runtime ran and observed.
     */
    agentReported: z.boolean().optional(),
    /**
     * Why the call has no answer of its own: the sandbox failed while it ran (its container gone, its runner
     * lost), as the sandbox said it. An infrastructure error of the step, kept out of `output` so that nothing
     * reads it as what the command printed (the output says only that the sandbox failed). Absent otherwise.
     */
    sandboxError: z.string().optional(),
  })
  .strict();
export type ToolCallResult = z.infer<typeof toolCallResultSchema>;

export const REPO_OPERATIONS = ['merge', 'rebase', 'cherry-pick', 'revert', 'bisect', 'am'] as const;

/** The repository after a step's tools ran: what the viewer shows beside each step. */
export const repoStepStateSchema = z
  .object({
    head: z.string().nullable(),
    /** Null on a detached HEAD. */
    branch: z.string().nullable(),
    staged: count,
    unstaged: count,
    untracked: count,
    conflicted: count,
    /** Git operations in progress after the step. */
    operations: z.array(z.enum(REPO_OPERATIONS)),
    refsChanged: z.array(
      z.object({ ref: z.string(), before: z.string().nullable(), after: z.string().nullable() }).strict(),
    ),
    /** Diff of the working tree and index against the previous step's state (capped). */
    diff: z.string(),
    diffBytes: count,
    diffTruncatedBytes: count,
  })
  .strict();
export type RepoStepState = z.infer<typeof repoStepStateSchema>;

export const stepUsageSchema = z
  .object({
    inputTokens: count.nullable(),
    outputTokens: count.nullable(),
    reasoningTokens: count.nullable(),
    totalTokens: count.nullable(),
    costUsd: z.number().nonnegative().nullable(),
    costEstimated: z.boolean(),
  })
  .strict();
export type StepUsage = z.infer<typeof stepUsageSchema>;

export const trajectoryStepSchema = z
  .object({
    /** 0-based, dense. */
    index: count,
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime(),
    /** Time waiting for the model, and time running this step's tools, apart. */
    modelMs: ms,
    toolMs: ms,
    channel: z.enum(TOOL_CALL_CHANNELS),
    message: z.object({ content: z.string().nullable(), reasoning: z.string().nullable() }).strict(),
    toolCalls: z.array(toolCallRecordSchema),
    results: z.array(toolCallResultSchema),
    usage: stepUsageSchema,
    finishReason: z.string().nullable(),
    /** Failed tries of this step's model call before it succeeded. */
    retries: count,
    /** The turn had no usable tool call: the runtime answered with a continue message. */
    formatStrike: z.boolean(),
    /** What the runtime told the model besides tool results (the continue message), if anything. */
    runtimeNote: z.string().nullable(),
    /** Null when the state could not be read (the step broke the sandbox). */
    repo: repoStepStateSchema.nullable(),
  })
  .strict();
export type TrajectoryStep = z.infer<typeof trajectoryStepSchema>;

export const trajectorySummarySchema = z
  .object({
    version: z.literal(TRAJECTORY_VERSION),
    /** The agent: a model id through a provider, or a built-in (`oracle`, `nop`, `simulated:3`, `replay:<name>`). */
    agent: z.string(),
    model: z.string(),
    toolSet: z.string(),
    /** The protocol actually used (`auto` resolved). */
    protocol: z.enum(['native', 'text']),
    exitStatus: z.enum(AGENT_EXIT_STATUSES),
    exitDetail: z.string().nullable(),
    /** Index of the step where the loop stopped for exitStatus. */
    exitStep: count.nullable(),
    submission: z.string().nullable(),
    steps: count,
    totals: stepUsageSchema.extend({ modelMs: ms, toolMs: ms, wallMs: ms, toolCalls: count }).strict(),
    /** The system and first user message exactly as the model saw them. */
    systemPrompt: z.string(),
    taskPrompt: z.string(),
  })
  .strict();
export type TrajectorySummary = z.infer<typeof trajectorySummarySchema>;
