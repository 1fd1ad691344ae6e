import type { BatchStep, Sandbox, StepRecord } from '@gitbench/sandbox';
import { contextPlan, environmentPreamble, type Fixture } from './core-api';
import type { ContextResult } from './fixture-snapshot';

/** Context commands only read the repository; a generous cap keeps a large blame from being cut. */
const CONTEXT_CAP = 256 * 1024;

export function contextSteps(fixture: Fixture, repoDir: string): BatchStep[] {
  return contextPlan(fixture).map(({ command }, i) => ({
    id: `context.${i}`,
    command,
    cwd: repoDir,
    maxOutputBytes: CONTEXT_CAP,
  }));
}

export function toContextResults(records: StepRecord[]): ContextResult[] {
  return records.map((r) => ({ command: r.command, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }));
}

/** Runs the fixture's context commands (its own, else its domain's defaults) in a restored repository. */
export async function gatherContext(fixture: Fixture, sandbox: Sandbox, repoDir: string): Promise<ContextResult[]> {
  const result = await sandbox.runBatch({
    preamble: environmentPreamble(),
    groups: [{ stopOnFailure: false, steps: contextSteps(fixture, repoDir) }],
  });
  return toContextResults(result.groups[0] ?? []);
}
