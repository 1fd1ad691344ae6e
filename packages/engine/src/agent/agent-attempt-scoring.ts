import { tamperingIn, type ToolContext } from '@gitbench/core';
import type { AttemptHashes, AttemptResult } from '../attempt-result';
import { scoreAttempt } from '../score-attempt';
import { sandboxExit } from './agent-exit';
import type { AgentAttemptRecord } from './agent-attempt-input';
import { agentChecks, tampered, withSession } from './agent-attempt-result';
import type { AgentAttemptOutcome, AgentSession } from './agent-session';
import { probeSession } from './agent-probes';
import { filesAsBlocks, readLeftFile } from './left-files';

/**
 * The fixture's own scorer on a loop that ended normally: the submitted answer scored like a single answer,
 * or the repository the agent left, read in its own session. What the agent left that broke the session's
 * channel or the scorer's view ends the attempt as tampering.
 */
export async function scoreAgentRun(
  s: AgentSession,
  ctx: ToolContext,
  hashes: AttemptHashes,
  record: AgentAttemptRecord,
): Promise<AgentAttemptOutcome> {
  const { prompt } = s.plan;
  if (s.plan.scoredOn === 'answer') return { attempt: await scoreAnswer(s, record), agent: record, prompt };
  try {
    return { attempt: await scoreLeftRepository(s, ctx, record), agent: record, prompt };
  } catch (error) {
    // What the agent left broke the session's channel or the scorer's view when its repository was
    // read: its loop ends as tampering (a counted failure), and its trajectory says so.
    const tampering = s.input.signal?.aborted ? undefined : tamperingIn(error);
    if (!tampering) throw error;
    const exit = sandboxExit('', tampering);
    return {
      attempt: tampered(s.input, prompt, hashes, s.session, sessionMs(s), tampering),
      agent: {
        ...record,
        summary: { ...record.summary, exitStatus: exit.status, exitDetail: exit.detail },
        error: tampering,
      },
      prompt,
    };
  }
}

/**
 * The session the agent worked in is the sandbox that ran, for its whole life; an answer scored on
 * its text alone ran no other.
 */
function sessionMs(s: AgentSession): number {
  return performance.now() - s.started;
}

function scoreInput(s: AgentSession, record: AgentAttemptRecord) {
  const { fixture, snapshot, driver, labels } = s.input;
  return {
    fixture,
    snapshot,
    driver,
    outputMode: 'text' as const,
    prompt: s.plan.prompt,
    modelMs: record.summary.totals.modelMs,
    ...(labels ? { labels } : {}),
  };
}

async function scoreAnswer(s: AgentSession, record: AgentAttemptRecord): Promise<AttemptResult> {
  const attempt = await scoreAttempt({ ...scoreInput(s, record), output: record.summary.submission ?? '' });
  return attempt.sandbox.kind === 'none'
    ? withSession(attempt, s.plan.sessionDriver, s.session, null, sessionMs(s))
    : attempt;
}

async function scoreLeftRepository(
  s: AgentSession,
  ctx: ToolContext,
  record: AgentAttemptRecord,
): Promise<AttemptResult> {
  const { fixture } = s.input;
  const base = scoreInput(s, record);
  if (fixture.scoring.type === 'resolved_file_blocks') {
    const names = Object.keys((fixture.scoring.expected_files ?? {}) as Record<string, unknown>);
    const files = await Promise.all(
      names.map(async (n): Promise<[string, string | null]> => [n, await readLeftFile(ctx, n)]),
    );
    const attempt = await scoreAttempt({ ...base, output: filesAsBlocks(files) });
    return withSession(attempt, s.plan.sessionDriver, s.session, null, sessionMs(s));
  }
  const submission = record.summary.submission ?? '';
  const evidence = await probeSession(s.input, s.session, submission, s.tar);
  const attempt = await scoreAttempt({ ...base, output: submission, recordedEvidence: evidence });
  return withSession(agentChecks(attempt, record.summary), s.plan.sessionDriver, s.session, evidence, sessionMs(s));
}
