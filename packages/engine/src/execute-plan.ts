import type { SandboxDriver } from '@gitbench/sandbox';
import { toExecRecord, stateSteps } from './build-fixture-repository';
import { environmentPreamble, type ExecRecord, type SandboxEvidence, type SandboxPlan } from './core-api';
import type { FixtureSnapshot } from './fixture-snapshot';

export interface PlanExecution {
  evidence: SandboxEvidence;
  /** Canonical state of the restored repository, read before the answer ran. */
  repoState: string;
  /** Set when the sandbox could not run the plan to the end; the evidence is then incomplete. */
  aborted?: string;
  durationMs: number;
  /** The one-shot sandbox the plan ran in. */
  sandboxId: string;
}

export interface ExecutePlanOptions {
  /** Per answer command. */
  answerTimeoutMs?: number;
  maxOutputBytes?: number;
}

/**
 * Restores the fixture's repository into a fresh sandbox and runs, in one round trip: the state read
 * (for the input hash), the answer's commands in order until the first failure, then every probe.
 * The sandbox is the driver's one-shot kind: used for this plan only, removed afterwards.
 */
export async function executePlan(
  plan: SandboxPlan,
  driver: SandboxDriver,
  snapshot: FixtureSnapshot,
  opts: ExecutePlanOptions & { labels?: Record<string, string> } = {},
): Promise<PlanExecution> {
  const cwd = snapshot.repoDir;
  const result = await driver.runOnce(
    {
      restoreTar: snapshot.tar,
      // The same pinned environment as the set-up, so a commit made by an answer is reproducible too.
      preamble: environmentPreamble(),
      ...(plan.env ? { env: plan.env } : {}),
      groups: [
        { stopOnFailure: false, steps: stateSteps(cwd).slice(0, 1) },
        {
          stopOnFailure: true,
          steps: plan.answerCommands.map((command, i) => ({
            id: `answer.${i}`,
            command,
            cwd,
            timeoutMs: opts.answerTimeoutMs,
            maxOutputBytes: opts.maxOutputBytes,
          })),
        },
        { stopOnFailure: false, steps: plan.probes.map((p) => ({ id: p.id, command: p.command, cwd, maxOutputBytes: opts.maxOutputBytes })) },
      ],
    },
    opts.labels ? { labels: opts.labels } : {},
  );
  const [stateRecords = [], answerRecords = [], probeRecords = []] = result.groups;
  const probes: Record<string, ExecRecord> = {};
  for (const r of probeRecords) probes[r.id] = toExecRecord(r);
  const evidence: SandboxEvidence = { answer: answerRecords.map(toExecRecord), probes };
  const stoppedAt = result.stoppedAt[1];
  if (stoppedAt !== undefined) evidence.stoppedAt = stoppedAt;
  const execution: PlanExecution = {
    evidence,
    repoState: stateRecords[0]?.stdout ?? '',
    durationMs: Math.round(result.durationMs),
    sandboxId: result.sandboxId,
  };
  if (result.aborted) execution.aborted = result.aborted;
  return execution;
}
