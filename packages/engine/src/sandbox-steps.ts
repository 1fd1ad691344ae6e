import type { BatchStep, StepRecord } from '@gitbench/sandbox';
import { REPO_STATE_GIT_SCRIPT, REPO_STATE_SCRIPT, WORKTREE_LISTING_PY, type ExecRecord } from './core-api';

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

const STATE_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * The step that prints the repository's canonical state, run in the repository directory of a
 * sandbox batch: the git part as its command, then the working-tree listing in the step runner's own
 * python3 (thenPython), which spares the python3 that REPO_STATE_SCRIPT starts for it (about a third
 * of a state read's CPU). Same bytes as REPO_STATE_SCRIPT.
 */
export function stateSteps(repoDir: string): BatchStep[] {
  return [
    {
      id: 'state',
      command: REPO_STATE_GIT_SCRIPT,
      thenPython: WORKTREE_LISTING_PY,
      cwd: repoDir,
      maxOutputBytes: STATE_OUTPUT_BYTES,
    },
  ];
}

/** The same state read as one command (REPO_STATE_SCRIPT), for an agent's session: its runner runs commands only. */
export function sessionStateStep(repoDir: string): BatchStep {
  return { id: 'state', command: REPO_STATE_SCRIPT, cwd: repoDir, maxOutputBytes: STATE_OUTPUT_BYTES };
}
