import type { SandboxDriver } from '@gitbench/sandbox';
import type { AttemptHashes, AttemptOutcome, AttemptResult, AttemptSandbox } from './attempt-result';
import {
  type AnswerMode,
  expectedHash,
  fixtureDefinitionHash,
  getScorer,
  runScorer,
  inputHash,
  promptHash,
  scorerConfigHash,
  type Fixture,
  type SandboxEvidence,
  type SandboxPlan,
  type Scorer,
  type ScoreResult,
} from './core-api';
import { DEFAULT_MAX_ANSWER_COMMANDS, executePlan, type ExecutePlanOptions } from './execute-plan';
import { archiveBytes, type FixtureSnapshot } from './fixture-snapshot';
import { pristineEvidence } from './pristine-probes';
import { toScoredText } from './structured-answer';

export interface ScoreAttemptInput {
  fixture: Fixture;
  snapshot: FixtureSnapshot;
  driver: SandboxDriver;
  outputMode: AnswerMode;
  /** The rendered prompt the model answered. */
  prompt: string;
  /** The model's raw answer. */
  output: string;
  labels?: Record<string, string>;
  exec?: ExecutePlanOptions;
  /** Time the model took, recorded in the timings. */
  modelMs?: number;
  /**
   * Rewrites the text before the scorer plans (re-scoring maps commit hashes of another run onto this
   * run's repository). The attempt still records the answer as given.
   */
  adaptText?: (text: string) => string;
  /**
   * Evidence taken from elsewhere (re-scoring reads it from the prompt upstream recorded): used
   * instead of running the plan, and no sandbox is started.
   */
  recordedEvidence?: SandboxEvidence;
}

/**
 * Every hash an attempt records. `input` is recomputed from the repository state given (the
 * snapshot's own until a sandbox has read the restored repository); it must equal `expectedInput`.
 */
export function attemptHashes(
  fixture: Fixture,
  snapshot: Pick<FixtureSnapshot, 'inputHash' | 'repoState'>,
  prompt: string,
  restoredState = snapshot.repoState,
): AttemptHashes {
  const definition = fixtureDefinitionHash(fixture);
  return {
    input: inputHash(definition, restoredState),
    expectedInput: snapshot.inputHash,
    definition,
    prompt: promptHash(prompt),
    expected: expectedHash(fixture),
    scorerConfig: scorerConfigHash(fixture.scoring),
  };
}

/** A HASH_MISMATCH attempt's error: which input hash the restored repository had, and which the snapshot recorded. */
export function hashMismatchError(hashes: AttemptHashes): string {
  return (
    `restored repository differs from the fixture snapshot (input ` +
    `hash ${hashes.input.slice(0, 12)} ≠ ${hashes.expectedInput.slice(0, 12)})`
  );
}

/**
 * Scores one answer: converts a structured answer back to text, lets the scorer plan, runs the plan
 * in a fresh sandbox restored from the snapshot (none when the plan is null), recomputes every hash
 * for this attempt, and lets the scorer decide.
 */
export async function scoreAttempt(input: ScoreAttemptInput): Promise<AttemptResult> {
  const started = performance.now();
  const { fixture, snapshot, driver, outputMode, prompt, output } = input;
  const base = {
    domain: fixture.domain,
    fixtureId: fixture.id,
    scoringType: fixture.scoring.type,
    outputMode,
    prompt,
    output,
  };
  const hashes = attemptHashes(fixture, snapshot, prompt);
  const finish = (
    outcome: AttemptOutcome,
    score: ScoreResult,
    rest: { scoredText: string; sandbox: AttemptSandbox; structuredError?: string; error?: string; sandboxMs?: number },
  ): AttemptResult => {
    const result: AttemptResult = {
      ...base,
      outcome,
      passed: outcome === 'PASS',
      score: score.score,
      checks: score.checks,
      scoredText: rest.scoredText,
      hashes,
      sandbox: rest.sandbox,
      timings: { totalMs: Math.round(performance.now() - started), scoreMs: 0 },
    };
    if (score.family) result.family = score.family;
    if (rest.structuredError !== undefined) result.structuredError = rest.structuredError;
    if (rest.error !== undefined) result.error = rest.error;
    if (input.modelMs !== undefined) result.timings.modelMs = Math.round(input.modelMs);
    if (rest.sandboxMs !== undefined) result.timings.sandboxMs = rest.sandboxMs;
    return result;
  };
  const noSandbox = (reason: string): AttemptSandbox => ({ kind: 'none', reason });

  let scorer: Scorer;
  try {
    scorer = getScorer(fixture.scoring.type);
  } catch (err) {
    const error = (err as Error).message;
    return finish('CONFIG_ERROR', failed(error), { scoredText: output, sandbox: noSandbox('not scored'), error });
  }
  const converted = toScoredText(fixture, output, outputMode);
  if (!converted.ok) {
    // An unusable structured answer is the model's failure, scored and kept with its raw output.
    return finish('FAIL', failed(`structured output rejected: ${converted.error}`), {
      scoredText: '',
      structuredError: converted.error,
      sandbox: noSandbox('not run: structured output rejected'),
    });
  }
  const scoredText = converted.text;
  const planned = input.adaptText ? input.adaptText(scoredText) : scoredText;
  let plan: SandboxPlan | null;
  try {
    plan = scorer.plan(fixture, planned);
  } catch (err) {
    const error = `${scorer.type} could not plan: ${(err as Error).message}`;
    return finish('CONFIG_ERROR', failed(error), { scoredText, sandbox: noSandbox('not run'), error });
  }
  const maxCommands = input.exec?.maxAnswerCommands ?? DEFAULT_MAX_ANSWER_COMMANDS;
  if (plan && plan.answerCommands.length > maxCommands) {
    // The model's answer, judged as given: too long to run, so it fails unrun and says why.
    const error =
      `The answer holds ${plan.answerCommands.length} commands; ` +
      `at most ${maxCommands} run (GITBENCH_MAX_ANSWER_COMMANDS).`;
    return finish('FAIL', failed(error), { scoredText, sandbox: noSandbox('not run: too many commands'), error });
  }
  let evidence: SandboxEvidence | undefined;
  let sandbox: AttemptSandbox = noSandbox('sandbox: none (scored on text)');
  let sandboxMs: number | undefined;
  const atBuild = plan && !input.recordedEvidence ? pristineEvidence(plan, snapshot.pristine, input.exec) : null;
  if (plan && input.recordedEvidence) {
    evidence = input.recordedEvidence;
    sandbox = noSandbox('sandbox: none (evidence read from the recorded prompt)');
  } else if (atBuild) {
    // Nothing of the answer runs: the repository is the one the build read (see pristine-probes.ts).
    evidence = atBuild;
    const i = snapshot.image;
    sandbox = {
      kind: i.driver,
      image: i.tag,
      imageId: i.id,
      isolated: i.isolated,
      evidence,
      durationMs: 0,
      atBuild: true,
    };
  } else if (plan) {
    // Fetching the archive is storage, not the sandbox: a failure here propagates to the caller,
    // which retries the attempt, instead of being recorded as this attempt's sandbox error.
    const tar = await archiveBytes(snapshot.tar);
    const t0 = performance.now();
    let execution;
    try {
      execution = await executePlan(
        plan,
        driver,
        { ...snapshot, tar },
        { ...input.exec, ...(input.labels ? { labels: input.labels } : {}) },
      );
    } catch (err) {
      const error = `sandbox failed: ${(err as Error).message}`;
      return finish('SANDBOX_ERROR', failed(error), { scoredText, sandbox: noSandbox(error), error });
    }
    sandboxMs = Math.round(performance.now() - t0);
    if (execution.stoppedOutside) {
      const error = `sandbox failed: ${execution.stoppedOutside}`;
      return finish('SANDBOX_ERROR', failed(error), { scoredText, sandbox: noSandbox(error), error, sandboxMs });
    }
    if (!execution.stateRead) {
      // What happens once the answer runs is the answer's doing (a command that kills its own sandbox
      // fails its checks); a sandbox that broke before then is infrastructure, never a quality result.
      const error =
        `sandbox failed before the answer ` + `ran: ${execution.aborted ?? 'the repository state could not be read'}`;
      return finish('SANDBOX_ERROR', failed(error), { scoredText, sandbox: noSandbox(error), error, sandboxMs });
    }
    hashes.input = inputHash(hashes.definition, execution.repoState);
    evidence = execution.evidence;
    const d = driver.describe();
    sandbox = {
      kind: d.driver,
      image: d.image,
      imageId: d.imageId,
      isolated: d.isolated,
      sandboxId: execution.sandboxId,
      evidence,
      durationMs: execution.durationMs,
    };
    if (execution.aborted) sandbox.aborted = execution.aborted;
    if (hashes.input !== hashes.expectedInput) {
      const error = hashMismatchError(hashes);
      return finish('HASH_MISMATCH', failed(error), { scoredText, sandbox, error, sandboxMs });
    }
    if (execution.tampering) {
      // The state was read, so the answer's commands could run: only they can have broken the records.
      const error = `the answer's processes tampered with ${execution.tampering}`;
      return finish('TAMPERING', failed(error), { scoredText, sandbox, error, sandboxMs });
    }
  }
  const t1 = performance.now();
  const score = runScorer(
    scorer,
    evidence
      ? { fixture, output: planned, evidence, repoStateBefore: snapshot.repoState }
      : { fixture, output: planned },
  );
  const outcome: AttemptOutcome = score.needsJudge ? 'NEEDS_JUDGE' : score.passed ? 'PASS' : 'FAIL';
  const result = finish(outcome, score, { scoredText, sandbox, sandboxMs });
  result.timings.scoreMs = Math.round(performance.now() - t1);
  return result;
}

function failed(detail: string): ScoreResult {
  return { passed: false, score: 0, checks: [{ check: 'attempt', ok: false, detail }] };
}
