import type { FamilyOutcome } from '../families/outcome';
import type { Fixture } from '../fixtures/types';

/**
 * The contract between pure scorers (here, in core) and whatever executes things in a sandbox
 * (packages/engine). A scorer first says what it needs run (`plan`); the engine runs exactly that in
 * the attempt's own sandbox and hands back the records (`SandboxEvidence`); the scorer then decides
 * (`score`) as a pure function. A scorer whose plan is null decides on the text alone, and no sandbox
 * is started for it.
 */

/** One command executed in a sandbox, as recorded. */
export interface ExecRecord {
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

/** A read-only look-up run in the repository root after the answer commands, e.g. `cat -- file`. */
export interface Probe {
  id: string;
  command: string;
  /** Its own time limit, where the sandbox's default (30 s) is too short, e.g. a task's grader. */
  timeoutMs?: number;
  /**
   * True when the look-up cannot change what a state read sees (it only tests, lists or prints). Set
   * by the scorer that wrote the command; a probe without it may write.
   */
  readOnly?: boolean;
}

export interface SandboxPlan {
  /** Commands taken from the model's answer, run in order in the repository; stop at the first failure. */
  answerCommands: string[];
  /** Look-ups run after the answer commands (or on the untouched fixture repository when there are none). */
  probes: Probe[];
  /** Extra environment for the answer commands (e.g. GIT_ALLOW_PROTOCOL for local submodules). */
  env?: Record<string, string>;
}

export interface SandboxEvidence {
  answer: ExecRecord[];
  /** Index of the answer command that failed and stopped execution, if any. */
  stoppedAt?: number;
  probes: Record<string, ExecRecord>;
  /** The repository's canonical state (REPO_STATE_SCRIPT) after the answer and the probes, for people. */
  repoStateAfter?: string;
}

/** One human-readable line of what a scorer checked. */
export interface ScoreCheck {
  check: string;
  ok: boolean;
  detail: string;
  expected?: string;
  actual?: string;
}

export interface ScoreResult {
  passed: boolean;
  /** 0..1 */
  score: number;
  checks: ScoreCheck[];
  /** True for llm_judge fixtures: the verdict comes from a Judge, not from this result. */
  needsJudge?: boolean;
  /** What a task family's own metrics read from this attempt (repository tasks, gists). */
  family?: FamilyOutcome;
}

export interface ScoreInput {
  fixture: Fixture;
  /** The model's answer as text (structured answers are turned back into text before scoring). */
  output: string;
  /** Present when `plan` returned a plan. */
  evidence?: SandboxEvidence;
  /**
   * The repository's canonical state as the build left it (the snapshot's, which the attempt's input
   * hash covers), for a scorer that compares the state after the attempt with it.
   */
  repoStateBefore?: string;
}

export interface Scorer {
  readonly type: string;
  /**
   * Its probes only read the repository (no staged files, no tests run): cheap enough for a build to
   * read them ahead once for every answer that runs nothing (the engine's pristine-probes.ts).
   */
  readonly readsRepositoryOnly?: true;
  plan(fixture: Fixture, output: string): SandboxPlan | null;
  score(input: ScoreInput): ScoreResult;
}

/** Every scoring type a fixture may name. The scorer registry implements each one. */
export const SCORING_TYPES = [
  'exact_match',
  'similarity',
  'unordered_line_set',
  'numeric_exact',
  'json_semantic_equal',
  'command_equivalence',
  'structured',
  'state_assertions',
  'resolved_file_blocks',
  'commit_selection',
  'commit_hash_by_subject',
  'bisect_regression',
  'reflog_recovery',
  'stash_recovery',
  'llm_judge',
  'repo_task',
  'gist',
  'ggb_mcr',
  'ggb_ir',
  'ggb_icc',
  'repo_checks',
] as const;
export type ScoringType = (typeof SCORING_TYPES)[number];

/** Assertion kinds of state_assertions. */
export const ASSERTION_TYPES = [
  'file_exists',
  'file_not_exists',
  'dir_exists',
  'dir_not_exists',
  'file_content',
  'file_not_contains',
  'branch_exists',
  'git_config',
  'git_output',
  'model_output',
] as const;
export type AssertionType = (typeof ASSERTION_TYPES)[number];
