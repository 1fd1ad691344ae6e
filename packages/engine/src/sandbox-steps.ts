import type { BatchStep, StepRecord } from '@gitbench/sandbox';
import { REPO_STATE_SCRIPT, type ExecRecord } from './core-api';

export function toExecRecord(r: StepRecord): ExecRecord {
  return {
    command: r.command,
    exitCode: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr,
    timedOut: r.timedOut,
    truncated: r.truncated,
    durationMs: r.durationMs,
  };
}

/** The step that prints the repository's canonical state, run in the repository directory. */
export function stateSteps(repoDir: string): BatchStep[] {
  return [{ id: 'state', command: REPO_STATE_SCRIPT, cwd: repoDir, maxOutputBytes: 16 * 1024 * 1024 }];
}
