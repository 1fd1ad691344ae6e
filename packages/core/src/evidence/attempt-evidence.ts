import { z } from 'zod';
import { AGENT_EXIT_STATUSES } from '../agent/exit-status';
import { AGENT_SCORED_ON } from '../agent/scored-on';
import { MODES } from '../mode';
import { count, json } from './evidence-fields';
import { attemptSandboxSchema } from './sandbox-evidence';
import { scoringEvidenceSchema } from './scoring-evidence';
import { modelCallSchema } from './model-call-evidence';
import { judgementSchema } from './judgement-evidence';

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
