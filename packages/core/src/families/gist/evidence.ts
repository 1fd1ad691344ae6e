import { z } from 'zod';

/**
 * What the gist evaluator (evaluator.ts) prints, parsed: the facts the metrics are computed from.
 * Kept with the attempt as the probe's output, so a campaign can be re-scored without running anything.
 */

export const UNIT_KINDS = ['code', 'potential', 'nonexec'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

const unitSchema = z.object({
  /** First and last physical line (1-based). */
  lines: z.tuple([z.number().int(), z.number().int()]),
  /** Path of the enclosing class/function (`Foo.bar`), `''` at top level. */
  block: z.string(),
  /**
   * For the line execution rate: `code` counts; `potential` (except blocks, pass, ...) and `nonexec` (docstrings) do
   * not.
   */
  kind: z.enum(UNIT_KINDS),
  /** Normalised text(s); a combined import gives one per name. */
  texts: z.array(z.string()),
});
export type GistUnit = z.infer<typeof unitSchema>;

const reportSchema = z.object({
  test: z.string(),
  when: z.string(),
  outcome: z.string(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  error: z.string().optional(),
  xfail: z.string().optional(),
  /** A failed phase's exception type and the end of its traceback: they explain a failure, never compared. */
  exception: z.string().optional(),
  traceback: z.string().optional(),
});

const runSchema = z.object({
  ran: z.boolean(),
  why: z.string().optional(),
  exit: z.number().int().optional(),
  collected: z.number().int().optional(),
  reports: z.array(reportSchema).optional(),
  collectErrors: z.array(z.string()).optional(),
  borrowed: z.array(z.string()).optional(),
  output: z.string().optional(),
});
export type GistRun = z.infer<typeof runSchema>;

export const gistEvidenceSchema = z.object({
  version: z.literal(1),
  evaluatorError: z.string().optional(),
  originalProblem: z.string().optional(),
  original: runSchema.optional(),
  gist: z
    .object({
      path: z.string(),
      exists: z.boolean(),
      bytes: z.number().int().optional(),
      text: z.string().optional(),
      textTruncated: z.boolean().optional(),
      syntaxError: z.string().optional(),
      units: z.array(unitSchema).optional(),
      testsFound: z.array(z.string()).optional(),
      testsMissing: z.array(z.string()).optional(),
      /** Tests of the gist replaced by the original's before the run, with the gist's lines they held. */
      replaced: z
        .array(z.object({ test: z.string(), lines: z.tuple([z.number().int(), z.number().int()]) }))
        .optional(),
      /** Per gist line (index 0 = line 1): its line in the file that ran, null inside a replaced test. */
      lineMap: z.array(z.number().int().nullable()).optional(),
    })
    .optional(),
  /** Per block path of the gist: the original blocks with that path, and which of the gist's texts each holds. */
  candidates: z.record(z.string(), z.array(z.object({ file: z.string(), found: z.array(z.string()) }))).optional(),
  /** The gist's top-level texts that the original has at top level (in any file). */
  topLevelFound: z.array(z.string()).optional(),
  run: runSchema.optional(),
  fidelity: z.object({ ok: z.boolean(), detail: z.string() }).optional(),
  execution: z
    .object({
      /** Units of the file that ran when tests were replaced (else the gist's own units apply). */
      units: z.array(unitSchema).nullable(),
      /** Lines of the file that ran that the tracer saw execute. */
      executed: z.array(z.number().int()),
    })
    .optional(),
});
export type GistEvidence = z.infer<typeof gistEvidenceSchema>;

export type GistEvidenceRead = { ok: true; evidence: GistEvidence } | { ok: false; problem: string };

/** The evaluator's JSON from its probe's stdout (its last line). */
export function parseGistEvidence(stdout: string): GistEvidenceRead {
  const line = stdout.trim().split('\n').pop() ?? '';
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, problem: 'the gist evaluator printed no JSON' };
  }
  const parsed = gistEvidenceSchema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      problem: `the gist evaluator's output does not have the expected shape: ${parsed.error.issues[0]?.message ?? ''}`,
    };
  return { ok: true, evidence: parsed.data };
}
