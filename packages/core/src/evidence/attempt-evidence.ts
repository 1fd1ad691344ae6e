import { z } from 'zod';
import { AGENT_EXIT_STATUSES } from '../agent/exit-status';
import { AGENT_SCORED_ON } from '../agent/scored-on';
import { ATTEMPT_OUTCOMES } from '../campaign/attempt-outcome';
import { GGB_JUDGE_RESULTS, GGB_SCENARIOS, GIST_FAILURES, GRADER_VERDICT_KINDS } from '../families/outcome';
import { MODES } from '../mode';
import { COST_SOURCES } from '../models/usage';

/**
 * Everything one try of an Attempt produced, as one typed record: the prompt, the answer, every model
 * call (messages, usage, cost, retries, route), the sandbox and its commands, the scorer's checks, the
 * judge's verdict, and the error that ended it. Writers (the worker, the legacy importer) produce
 * exactly this shape and readers (pages, exports) parse it, so nothing is read by guesswork.
 *
 * `origin` tells a try run here from one imported from an upstream result file, which recorded
 * less and in its own words. Bump ATTEMPT_EVIDENCE_VERSION on an incompatible change and keep a
 * parser for the older version.
 */
export const ATTEMPT_EVIDENCE_VERSION = 1;

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();
const json = z.record(z.string(), z.unknown());

export const execRecordSchema = z
  .object({
    command: z.string(),
    exitCode: z.number().int(),
    stdout: z.string(),
    stderr: z.string(),
    timedOut: z.boolean(),
    truncated: z.boolean(),
    durationMs: ms,
  })
  .strict();

export const sandboxEvidenceSchema = z
  .object({
    answer: z.array(execRecordSchema),
    stoppedAt: count.optional(),
    probes: z.record(z.string(), execRecordSchema),
    repoStateAfter: z.string().optional(),
  })
  .strict();

/** Where the try's commands ran: no sandbox (scored on text, or why not), or the one it alone used. */
export const attemptSandboxSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none'), reason: z.string() }).strict(),
  z
    .object({
      kind: z.enum(['docker', 'local']),
      image: z.string(),
      imageId: z.string(),
      isolated: z.boolean(),
      /** The sandbox this try alone used (a container id for Docker), removed afterwards; tries recorded before it was kept have none. */
      sandboxId: z.string().optional(),
      evidence: sandboxEvidenceSchema,
      aborted: z.string().optional(),
      durationMs: ms,
      /**
       * The answer ran no command, so the scorer's look-ups were read once on the fixture's repository
       * as built, in the build's sandbox of this image, instead of in a sandbox of this try's own.
       */
      atBuild: z.literal(true).optional(),
    })
    .strict(),
]);
export type AttemptSandbox = z.infer<typeof attemptSandboxSchema>;

export const scoreCheckSchema = z
  .object({
    check: z.string(),
    ok: z.boolean(),
    detail: z.string(),
    expected: z.string().optional(),
    actual: z.string().optional(),
  })
  .strict();

export const attemptHashesSchema = z
  .object({
    /** Recomputed for this try from the fixture definition and the restored repository. */
    input: z.string(),
    /** The snapshot's input hash: what `input` must equal. */
    expectedInput: z.string(),
    definition: z.string(),
    prompt: z.string(),
    expected: z.string(),
    scorerConfig: z.string(),
  })
  .strict();
export type AttemptHashes = z.infer<typeof attemptHashesSchema>;

const ggbCommitSchema = z
  .object({ sha: z.string(), subject: z.string(), message: z.string(), files: z.array(z.string()), diff: z.string() })
  .strict();

/** What a task family's metrics read from the attempt (families/outcome.ts), kept with the score. */
export const familyOutcomeSchema = z.discriminatedUnion('family', [
  z
    .object({
      family: z.literal('repo_task'),
      process: z.boolean(),
      result: z.boolean(),
      comments: z.string(),
      quality: z.number(),
      kind: z.enum(GRADER_VERDICT_KINDS),
      marketValueUsd: z.number(),
    })
    .strict(),
  z
    .object({
      family: z.literal('gist'),
      fidelity: z.boolean(),
      failure: z.enum(GIST_FAILURES).nullable(),
      detail: z.string(),
      lineExecutionRate: z.number().nullable(),
      executedLines: count.nullable(),
      executableLines: count.nullable(),
      lineExistenceRate: z.number().nullable(),
      foundLines: count.nullable(),
      countedLines: count.nullable(),
    })
    .strict(),
  z
    .object({
      family: z.literal('ggb'),
      scenario: z.enum(GGB_SCENARIOS),
      success: z.boolean(),
      solved: z.boolean().nullable(),
      detail: z.string(),
      mcr: z
        .object({
          mergeCommit: z.string(),
          unmerged: z.array(z.string()),
          diff: z.string(),
          diffTruncated: z.boolean(),
        })
        .strict()
        .optional(),
      histories: z
        .object({
          original: z.array(ggbCommitSchema),
          agent: z.array(ggbCommitSchema),
          rebaseInProgress: z.boolean(),
          targetFile: z.string().nullable(),
        })
        .strict()
        .optional(),
      judge: z
        .object({
          status: z.enum(['scored', 'unscored']),
          reason: z.string().nullable(),
          verdicts: z.array(
            z
              .object({
                agentAs: z.enum(['HISTORY-1', 'HISTORY-2']),
                result: z.enum(GGB_JUDGE_RESULTS),
                reason: z.string(),
                agentWon: z.boolean(),
              })
              .strict(),
          ),
        })
        .strict()
        .optional(),
    })
    .strict(),
]);

export const scoringEvidenceSchema = z
  .object({
    scoringType: z.string(),
    outcome: z.enum(ATTEMPT_OUTCOMES),
    passed: z.boolean(),
    score: z.number(),
    checks: z.array(scoreCheckSchema),
    /** What the scorer read: the answer, or a structured answer turned back into text. */
    scoredText: z.string(),
    /** Why a structured answer could not be used (a scored failure). */
    structuredError: z.string().nullable(),
    hashes: attemptHashesSchema,
    timings: z.object({ totalMs: ms, modelMs: ms.optional(), sandboxMs: ms.optional(), scoreMs: ms }).strict(),
    /** Repository tasks, gists and GitGoodBench: the facts their family metrics are computed from. */
    family: familyOutcomeSchema.nullable().optional(),
  })
  .strict();

export const tokenUsageSchema = z
  .object({
    inputTokens: count.nullable(),
    outputTokens: count.nullable(),
    reasoningTokens: count.nullable(),
    totalTokens: count.nullable(),
  })
  .strict();

export const costSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal(COST_SOURCES[0]), usd: z.number() }).strict(),
  z.object({ source: z.literal(COST_SOURCES[1]), usd: z.number(), priceDate: z.string() }).strict(),
  z.object({ source: z.literal(COST_SOURCES[2]), usd: z.null() }).strict(),
]);

export const retryRecordSchema = z
  .object({
    attempt: count,
    reason: z.string(),
    status: z.number().int().nullable(),
    message: z.string(),
    waitMs: ms,
    waitSource: z.enum(['retry_after', 'backoff', 'none']),
    durationMs: ms,
  })
  .strict();

export const transcriptMessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string(),
    reasoning: z.string().optional(),
  })
  .strict();

export const routeSchema = z
  .object({
    provider: z.string(),
    profile: z.string(),
    baseUrl: z.string().nullable(),
    requestedModel: z.string(),
    servedModel: z.string().nullable(),
    responseId: z.string().nullable(),
    upstreamProvider: z.string().nullable(),
    simulated: z.boolean(),
    replay: z
      .object({
        file: z.string(),
        recordedRoute: json.nullable(),
        recordedVerdict: z
          .object({ passed: z.boolean(), similarity: z.number().nullable(), error: z.string().nullable() })
          .strict(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** One call of the target model, everything the provider recorded about it. */
export const modelCallSchema = z
  .object({
    output: z.string(),
    reasoning: z.string().nullable(),
    usage: tokenUsageSchema,
    cost: costSchema,
    apiDurationMs: ms,
    route: routeSchema,
    /** What was sent, minus the prompt and any secret. */
    requestConfig: json,
    retries: z.array(retryRecordSchema),
    transcript: z.array(transcriptMessageSchema),
    flags: z.array(z.string()),
    qualityFailure: z
      .object({ code: z.enum(['malformed_json', 'schema_violation']), message: z.string() })
      .strict()
      .nullable(),
  })
  .strict();
export type ModelCall = z.infer<typeof modelCallSchema>;

const judgeMemberSchema = z
  .object({
    memberId: z.string(),
    model: z.string(),
    status: z.enum(['scored', 'failed']),
    score: z.number().nullable(),
    reason: z.string().nullable(),
    rawReply: z.string().nullable(),
    usage: tokenUsageSchema.nullable(),
    cost: costSchema,
    apiDurationMs: ms.nullable(),
    route: json.nullable(),
    error: z.object({ kind: z.string(), code: z.string(), message: z.string() }).strict().nullable(),
  })
  .strict();

export const judgementSchema = z
  .object({
    verdict: z.discriminatedUnion('status', [
      z
        .object({
          status: z.literal('scored'),
          method: z.literal('mean'),
          score: z.number(),
          threshold: z.number(),
          passed: z.boolean(),
          scoredMembers: count,
          members: z.array(judgeMemberSchema),
        })
        .strict(),
      z
        .object({
          status: z.literal('unscored'),
          method: z.literal('mean'),
          threshold: z.number(),
          reason: z.string(),
          members: z.array(judgeMemberSchema),
        })
        .strict(),
    ]),
    cacheKey: z.string(),
    judgeConfigHash: z.string(),
    cacheHit: z.boolean(),
  })
  .strict();

/** An agent try's loop in brief (its steps are stored apart, in the Trajectory tables). */
export const agentEvidenceSchema = z
  .object({
    exitStatus: z.enum(AGENT_EXIT_STATUSES),
    exitDetail: z.string().nullable(),
    protocol: z.enum(['native', 'text']),
    toolSet: z.string(),
    steps: count,
    toolCalls: count,
    scoredOn: z.enum(AGENT_SCORED_ON),
    submission: z.string().nullable(),
  })
  .strict();
export type AgentEvidence = z.infer<typeof agentEvidenceSchema>;

const base = {
  version: z.literal(ATTEMPT_EVIDENCE_VERSION),
  mode: z.enum(MODES),
  /** The prompt exactly as the model saw it. */
  prompt: z.string().nullable(),
  /** The model's answer as returned (an agent's submission). */
  output: z.string().nullable(),
  expected: z.string().nullable(),
  error: z.object({ class: z.string(), message: z.string() }).strict().nullable(),
};

export const gitbenchEvidenceSchema = z
  .object({
    ...base,
    origin: z.literal('gitbench'),
    /** Null when the try ended before scoring finished (a failure was thrown). */
    scoring: scoringEvidenceSchema.nullable(),
    sandbox: attemptSandboxSchema.nullable(),
    calls: z.array(modelCallSchema),
    judge: judgementSchema.nullable(),
    /**
     * GitGoodBench IR/ICC: the history judge's model calls (both orderings; none when its verdict came
     * from the campaign's cache or the scripted judge), with their usage and cost. Judge cost, as the
     * LLM judge's members under `judge`: never counted in the target model's usage (`calls`). The
     * verdicts themselves are the scoring's family evidence.
     */
    historyJudgeCalls: z.array(modelCallSchema).optional(),
    /** What the reader must know about how this try ran (no isolation, output cut to the limits). */
    warnings: z.array(z.string()).optional(),
    /** Agent mode: why the loop stopped and what was scored; the steps are in the try's Trajectory. */
    agent: agentEvidenceSchema.optional(),
  })
  .strict();

/** A try imported from an upstream result file: its verdict and call as upstream recorded them. */
export const upstreamEvidenceSchema = z
  .object({
    ...base,
    origin: z.literal('upstream'),
    verdict: z
      .object({ passed: z.boolean(), similarity: z.number().nullable(), error: z.string().nullable() })
      .strict(),
    transcript: z.array(json),
    requestConfig: json,
    route: json,
    telemetry: json,
    usage: z
      .object({
        input: z.number().nullable(),
        output: z.number().nullable(),
        reasoning: z.number().nullable(),
        total: z.number().nullable(),
        costUsd: z.number().nullable(),
      })
      .strict(),
  })
  .strict();

export const attemptEvidenceSchema = z.discriminatedUnion('origin', [gitbenchEvidenceSchema, upstreamEvidenceSchema]);
export type AttemptEvidence = z.infer<typeof attemptEvidenceSchema>;
export type GitbenchEvidence = z.infer<typeof gitbenchEvidenceSchema>;
export type UpstreamEvidence = z.infer<typeof upstreamEvidenceSchema>;

export class EvidenceParseError extends Error {
  override name = 'EvidenceParseError';
}

/** Parses a stored record; the error names the field, so a page can say what is wrong instead of guessing. */
export function parseAttemptEvidence(value: unknown): AttemptEvidence {
  const result = attemptEvidenceSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new EvidenceParseError(`attempt evidence: ${issue.path.join('.') || '(record)'}: ${issue.message}`);
}
