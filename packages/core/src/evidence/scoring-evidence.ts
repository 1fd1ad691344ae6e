import { z } from 'zod';
import { ATTEMPT_OUTCOMES } from '../campaign/attempt-outcome';
import { GGB_JUDGE_RESULTS, GGB_SCENARIOS, GIST_FAILURES, GRADER_VERDICT_KINDS } from '../families/outcome';
import { count, ms } from './evidence-fields';

/** The scorer's side of a try: its checks, the hashes it checked, and what a family's metrics read. */

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
