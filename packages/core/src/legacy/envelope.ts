import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ANSWER_MODES, type AnswerMode } from '../mode';

/**
 * The result envelope written by the upstream Python GitBench (one file per model and output mode).
 * Imported as a one-trial legacy campaign: its numbers are shown, never ranked by default, and no
 * stability or pass_any_at_n claims are made from it.
 */
export const legacyScoreSchema = z
  .object({
    fixture_id: z.string().min(1),
    passed: z.boolean(),
    similarity: z.number().nullish(),
    model_output: z.string().nullish(),
    error: z.string().nullish(),
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    total_tokens: z.number().nullish(),
    reasoning_tokens: z.number().nullish(),
    cost_usd: z.number().nullish(),
    api_duration_ms: z.number().nullish(),
    duration_ms: z.number().nullish(),
    transcript: z.array(z.object({ role: z.string(), content: z.unknown() }).passthrough()).nullish(),
    purpose: z.string().nullish(),
    difficulty: z.string().nullish(),
    tags: z.array(z.string()).nullish(),
    prompt: z.string().nullish(),
    expected: z.string().nullish(),
    description: z.string().nullish(),
    reasoning_level: z.string().nullish(),
    request_telemetry: z.record(z.string(), z.unknown()).nullish(),
    provider_route_metadata: z.record(z.string(), z.unknown()).nullish(),
    request_config: z.record(z.string(), z.unknown()).nullish(),
    output_mode: z.string().nullish(),
    /** json_schema mode: the JSON text the model returned, before upstream turned it into text. */
    raw_structured_output: z.string().nullish(),
    safety_review: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();

export const legacyEnvelopeSchema = z
  .object({
    benchmark_suite_version: z.string(),
    timestamp: z.string(),
    git_sha: z.string().nullish(),
    model: z.string().min(1),
    profile: z.string().nullish(),
    output_mode: z.enum(ANSWER_MODES).default('text'),
    results: z.array(
      z
        .object({
          benchmark: z.string().min(1),
          scores: z.array(legacyScoreSchema),
        })
        .passthrough(),
    ),
    safety_review: z.object({ status: z.string() }).passthrough().nullish(),
  })
  .passthrough();

export type LegacyEnvelope = z.infer<typeof legacyEnvelopeSchema>;
export type LegacyScore = z.infer<typeof legacyScoreSchema>;

export type LegacyAttemptStatus = 'VALID_PASS' | 'VALID_FAIL' | 'INFRA_FAILURE';

export interface LegacyAttempt {
  domain: string;
  fixtureId: string;
  difficulty: string;
  tags: string[];
  status: LegacyAttemptStatus;
  score: LegacyScore;
}

export interface LegacyImportPlan {
  fingerprint: string;
  model: string;
  outputMode: AnswerMode;
  suiteVersion: string;
  timestamp: string;
  /** The upstream harness commit that produced the file (its `git_sha`), when it recorded one. */
  gitSha: string | null;
  safetyReview: 'approved' | 'pending' | 'blocked' | 'not_configured';
  attempts: LegacyAttempt[];
}

export class LegacyEnvelopeError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'LegacyEnvelopeError';
  }
}

// Upstream writes transport and provider failures into `error` with no output; scorer mismatches
// always come with the output they judged. Only the former are infrastructure failures.
const TRANSPORT_ERROR =
  /(timed? ?out|timeout|rate.?limit|429|5\d\d\b|connection|network|api error|provider|exhausted|unavailable)/i;

export function classifyLegacyScore(score: LegacyScore): LegacyAttemptStatus {
  if (score.passed) return 'VALID_PASS';
  const output = score.model_output ?? '';
  if (output.trim() === '' && score.error && TRANSPORT_ERROR.test(score.error)) return 'INFRA_FAILURE';
  return 'VALID_FAIL';
}

function safetyStatus(envelope: LegacyEnvelope): LegacyImportPlan['safetyReview'] {
  const status = envelope.safety_review?.status;
  if (!status) return 'not_configured';
  if (status === 'complete' || status === 'allow' || status === 'approved') return 'approved';
  if (status === 'blocked' || status === 'deny') return 'blocked';
  return 'pending';
}

/** Validates one envelope already read as JSON; the error names the file and the JSON path. */
export function parseLegacyEnvelope(file: string, json: unknown): LegacyEnvelope {
  const parsed = legacyEnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LegacyEnvelopeError(file, `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The output mode a score was recorded in: its own field when it names a mode, else the file's. */
export function legacyScoreOutputMode(score: LegacyScore, envelope: Pick<LegacyEnvelope, 'output_mode'>): AnswerMode {
  return score.output_mode === 'text' || score.output_mode === 'json_schema' ? score.output_mode : envelope.output_mode;
}

/** Parses and validates one envelope; errors name the file and the JSON path. */
export function planLegacyImport(file: string, text: string): LegacyImportPlan {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new LegacyEnvelopeError(file, `not valid JSON (${(err as Error).message})`);
  }
  const envelope = parseLegacyEnvelope(file, json);
  const attempts: LegacyAttempt[] = [];
  const seen = new Set<string>();
  for (const result of envelope.results) {
    for (const score of result.scores) {
      const key = `${result.benchmark}/${score.fixture_id}`;
      if (seen.has(key)) throw new LegacyEnvelopeError(file, `fixture ${key} appears twice`);
      seen.add(key);
      attempts.push({
        domain: result.benchmark,
        fixtureId: score.fixture_id,
        difficulty: score.difficulty ?? 'unknown',
        tags: score.tags ?? [],
        status: classifyLegacyScore(score),
        score,
      });
    }
  }
  if (attempts.length === 0) throw new LegacyEnvelopeError(file, 'no scores to import');
  // The file's content identifies the import: importing the same file twice finds the first one.
  const fingerprint = createHash('sha256').update(text).digest('hex');
  return {
    fingerprint,
    model: envelope.model,
    outputMode: envelope.output_mode,
    suiteVersion: envelope.benchmark_suite_version,
    timestamp: envelope.timestamp,
    gitSha: envelope.git_sha ?? null,
    safetyReview: safetyStatus(envelope),
    attempts,
  };
}
