import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The programs that run commands inside the sandbox live in ../runner as Python files: batch.py (one
 * process per batch, the step runner), session.py (one per agent attempt, serving many requests over
 * its stdin and stdout), common.py (running one command, as the sandbox's uid), repo_state.py (the
 * session's read of an agent's repository after a step), repo_memo.py (the session's answer to a read
 * of a repository unchanged since its last one) and observe.py (the same read beside a third-party
 * agent, always in full); the image also holds the scorer's guard as lookup_config.py, whose finding of
 * submodules the read reuses. Their comments say
 * what they guarantee; this module holds what the host needs to start them and to hand them a plan.
 */

/** Grace between TERM and KILL at a step's timeout; the runner is told it on its command line. */
export const KILL_GRACE_S = 2;

/** Where the sandbox image holds the runner's files (docker/build-sandbox-image.sh copies them there). */
export const IMAGE_RUNNER_DIR = '/opt/gitbench/runner';

/** The runner's files, each of which the image must hold, and the interpreter that runs them. */
export const RUNNER_FILES = [
  'batch.py',
  'common.py',
  'lookup_config.py',
  'observe.py',
  'repo_memo.py',
  'repo_state.py',
  'session.py',
] as const;
export const RUNNER_PYTHON = '/usr/bin/python3';

/**
 * The uid every command of a Docker sandbox runs as, and no other process there: the runner and the
 * container's init are root, so nothing the model runs can reach them (see runner/common.py).
 */
export const SANDBOX_UID = 10001;

/** Where the runner is and whom it runs commands as: the image's copy as root, or this checkout's on the host. */
export interface RunnerLocation {
  dir: string;
  /** Absent on the host (the local driver): commands run as the runner's own user. */
  uid?: number;
}

export const IMAGE_RUNNER: RunnerLocation = { dir: IMAGE_RUNNER_DIR, uid: SANDBOX_UID };

/** The runner's files in this checkout, for the local driver; resolved only when it is used. */
export function hostRunner(): RunnerLocation {
  return { dir: join(/*turbopackIgnore: true*/ dirname(fileURLToPath(import.meta.url)), '..', 'runner') };
}

/**
 * The steps as the runner reads them: per group a line `G <stopOnFailure 0|1> <required group|-> <steps>`, then per
 * step a line `S <key> <timeout s> <cap> <unrunnable 0|1> <cwd bytes> <command bytes> <python bytes> <env bytes>
 * <words>` followed by the directory, the command and the step's thenPython (none: 0 bytes) themselves
 * (length-prefixed, so any byte but NUL may appear), then per variable of its own environment a line `<bytes>` and
 * `NAME=value`, then per word of its argv (none: run by bash -c) a line `<bytes>` and the word. The code travels in the
 * plan, not on a command line.
 */
export interface RunnerGroup {
  stopOnFailure: boolean;
  requires?: number;
  steps: {
    key: string;
    command: string;
    cwd: string;
    env?: Record<string, string>;
    timeoutS: number;
    cap: number;
    unrunnable: boolean;
    thenPython?: string;
    argv?: readonly string[];
  }[];
}

export function encodeRunnerPlan(groups: RunnerGroup[]): Buffer {
  const parts: Buffer[] = [];
  for (const g of groups) {
    parts.push(Buffer.from(`G ${g.stopOnFailure ? 1 : 0} ${g.requires ?? '-'} ${g.steps.length}\n`));
    for (const s of g.steps) {
      const cwd = Buffer.from(s.cwd, 'utf8');
      const command = Buffer.from(s.command, 'utf8');
      const python = Buffer.from(s.thenPython ?? '', 'utf8');
      const env = stepEnvWords(s.env ?? {});
      const argv = (s.argv ?? []).map((word) => Buffer.from(word, 'utf8'));
      parts.push(
        Buffer.from(
          `S ${s.key} ${s.timeoutS} ${s.cap} ${s.unrunnable ? 1 : 0} ` +
            `${cwd.length} ${command.length} ${python.length} ${env.length} ${argv.length}\n`,
        ),
        cwd,
        command,
        python,
      );
      for (const word of env) parts.push(Buffer.from(`${word.length}\n`), word);
      for (const word of argv) parts.push(Buffer.from(`${word.length}\n`), word);
    }
  }
  return Buffer.concat(parts);
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A step's own environment as NAME=value words (no NUL: the plan travels in a bash script, which cannot hold one). */
function stepEnvWords(env: Record<string, string>): Buffer[] {
  return Object.entries(env).map(([k, v]) => {
    if (!ENV_NAME.test(k) || v.includes('\0'))
      throw new Error(`step environment variable ${JSON.stringify(k)} is not valid`);
    return Buffer.from(`${k}=${v}`, 'utf8');
  });
}
