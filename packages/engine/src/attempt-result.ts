import type { AnswerMode, AttemptHashes, AttemptOutcome, AttemptSandbox, FamilyOutcome, ScoreCheck } from './core-api';

export type { AttemptHashes, AttemptOutcome, AttemptSandbox };

export interface AttemptResult {
  domain: string;
  fixtureId: string;
  scoringType: string;
  outputMode: AnswerMode;
  outcome: AttemptOutcome;
  passed: boolean;
  score: number;
  checks: ScoreCheck[];
  /** What a task family's metrics read from this attempt (repository tasks, gists), when it has one. */
  family?: FamilyOutcome;
  /** The prompt exactly as the model saw it. */
  prompt: string;
  /** The model's answer as returned. */
  output: string;
  /** What the scorer read: the answer, or in json_schema mode the structured answer turned back into text. */
  scoredText: string;
  /** json_schema mode: why the structured answer could not be used (a scored failure). */
  structuredError?: string;
  /** Why the outcome is not a plain verdict: HASH_MISMATCH, SANDBOX_ERROR, CONFIG_ERROR and TAMPERING. */
  error?: string;
  hashes: AttemptHashes;
  sandbox: AttemptSandbox;
  timings: { totalMs: number; modelMs?: number; sandboxMs?: number; scoreMs: number };
}
