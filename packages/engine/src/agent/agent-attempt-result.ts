import type { SandboxEvidence, TrajectorySummary } from '@gitbench/core';
import type { Sandbox, SandboxDriver } from '@gitbench/sandbox';
import type { AttemptHashes, AttemptResult } from '../attempt-result';
import { hashMismatchError } from '../score-attempt';
import type { AgentAttemptInput } from './agent-attempt-input';

/**
 * The agent's processes tampered with the session's channel or the scorer's view: the attempt ends
 * TAMPERING, a counted failure scored 0, with what was found as its error. Every reader of attempts
 * (the CLI's report and result file, the worker's rows) sees it as the failure it is, never as an
 * attempt that did not run.
 */
export function tampered(
  input: AgentAttemptInput,
  prompt: string,
  hashes: AttemptHashes,
  session: Sandbox,
  durationMs: number,
  tampering: Error,
): AttemptResult {
  const error = `the agent's processes tampered with the sandbox: ${tampering.message}`;
  return unscored(input, { prompt, hashes, session, durationMs }, 'TAMPERING', error, error);
}

/**
 * The restored repository is not the fixture's: the attempt ends HASH_MISMATCH unscored (as a single
 * answer's does in scoreAttempt), its hashes saying which input hash was found and which expected.
 */
export function hashMismatch(
  input: AgentAttemptInput,
  prompt: string,
  hashes: AttemptHashes,
  session: Sandbox,
  durationMs: number,
): AttemptResult {
  const error = hashMismatchError(hashes);
  return unscored(
    input,
    { prompt, hashes, session, durationMs },
    'HASH_MISMATCH',
    error,
    `${error}; the agent was not run`,
  );
}

/** An attempt that ends without its scorer's checks: one failed check saying why, and the session that ran. */
export function unscored(
  input: AgentAttemptInput,
  ran: { prompt: string; hashes: AttemptHashes; session: Sandbox; durationMs: number },
  outcome: 'TAMPERING' | 'HASH_MISMATCH',
  error: string,
  detail: string,
): AttemptResult {
  const { fixture } = input;
  // The sandbox that ran: a third-party agent's image, or the sandbox image.
  const d = (input.thirdParty?.driver ?? input.driver).describe();
  const durationMs = Math.round(ran.durationMs);
  return {
    domain: fixture.domain,
    fixtureId: fixture.id,
    scoringType: fixture.scoring.type,
    outputMode: 'text',
    outcome,
    passed: false,
    score: 0,
    checks: [{ check: 'attempt', ok: false, detail }],
    prompt: ran.prompt,
    output: '',
    scoredText: '',
    error,
    hashes: ran.hashes,
    sandbox: {
      kind: d.driver,
      image: d.image,
      imageId: d.imageId,
      isolated: d.isolated,
      sandboxId: ran.session.id,
      evidence: { answer: [], probes: {} },
      durationMs,
    },
    timings: { totalMs: durationMs, scoreMs: 0 },
  };
}

/**
 * The session the attempt ran and was scored in, instead of scoreAttempt's "no sandbox" for recorded
 * evidence; its duration is the session's, from its start to the scorer's end.
 */
export function withSession(
  attempt: AttemptResult,
  driver: SandboxDriver,
  session: Sandbox,
  evidence: SandboxEvidence | null,
  durationMs: number,
): AttemptResult {
  const d = driver.describe();
  return {
    ...attempt,
    sandbox: {
      kind: d.driver,
      image: d.image,
      imageId: d.imageId,
      isolated: d.isolated,
      sandboxId: session.id,
      evidence: evidence ?? { answer: [], probes: {} },
      durationMs: Math.round(durationMs),
    },
  };
}

/** A state scorer's "answer commands" check speaks of a single answer's commands; an agent ran its own. */
export function agentChecks(attempt: AttemptResult, summary: TrajectorySummary): AttemptResult {
  return {
    ...attempt,
    checks: attempt.checks.map((c) =>
      c.check === 'answer commands (not decisive)'
        ? {
            check: 'agent actions (not decisive)',
            ok: true,
            detail:
              `the agent made ${summary.totals.toolCalls} tool call(s) in ${summary.steps} ` +
              `step(s) (${summary.exitStatus}); assertions checked on the repository it left`,
          }
        : c,
    ),
  };
}
