import {
  getScorer,
  lookupEnvironment,
  SandboxFailure,
  TamperingError,
  type ExecRecord,
  type SandboxEvidence,
} from '@gitbench/core';
import type { Sandbox } from '@gitbench/sandbox';
import { sessionStateStep, toExecRecord } from '../sandbox-steps';
import { builtGitFiles } from '../built-git-files';
import { lookupConfigStep, lookupSteps, scorerViewTampering } from '../execute-plan';
import type { AgentAttemptInput } from './agent-attempt-input';

/** The scorer's probes in the agent's own session, on the repository as the agent left it. */
export async function probeSession(
  input: AgentAttemptInput,
  session: Sandbox,
  submission: string,
  tar: Buffer,
): Promise<SandboxEvidence> {
  const { fixture, snapshot } = input;
  const plan = getScorer(fixture.scoring.type).plan(fixture, submission);
  if (plan) {
    // The configuration rewritten to the whitelist and the build's files put back first, as in a single
    // answer's sandbox (execute-plan.ts); a session runs no thenPython, so python3 reads the code on
    // stdin (the build's files could pass a command line's limit). The runner killed the agent's
    // processes after its last command.
    // Its stderr names the forged objects it found, if any.
    const { thenPython, timeoutMs } = lookupConfigStep(plan, '.', builtGitFiles(tar, snapshot.repoDir));
    const prepared = await session.exec('python3 -I -S -', {
      cwd: snapshot.repoDir,
      stdin: thenPython ?? '',
      timeoutMs: timeoutMs ?? 60_000,
    });
    const unprepared = scorerViewTampering([{ id: 'lookup.config', ...prepared }]);
    if (unprepared) throw new TamperingError(unprepared);
  }
  const batch = await session.runBatch({
    cwd: snapshot.repoDir,
    ...(plan?.env ? { env: plan.env } : {}),
    groups: [
      // Each look-up with the fixed environment.
      {
        stopOnFailure: false,
        steps: plan
          ? lookupSteps(plan, '.').map((p) => ({
              id: p.id,
              command: p.command,
              env: p.env!,
              ...(p.timeoutMs ? { timeoutMs: p.timeoutMs } : {}),
            }))
          : [],
      },
      { stopOnFailure: false, steps: [{ ...sessionStateStep('.'), id: 'state.after', env: lookupEnvironment() }] },
    ],
  });
  if (batch.tampering) throw new TamperingError(batch.tampering);
  if (batch.aborted) throw new SandboxFailure(batch.aborted);
  const probes: Record<string, ExecRecord> = {};
  for (const r of batch.groups[0] ?? []) probes[r.id] = toExecRecord(r);
  const evidence: SandboxEvidence = { answer: [], probes };
  const after = batch.groups[1]?.[0];
  if (after?.exitCode === 0) evidence.repoStateAfter = after.stdout;
  return evidence;
}
