import { plainGitWords, shellQuote } from '@gitbench/core';
import { encodeRunnerPlan, KILL_GRACE_S, type RunnerGroup, type RunnerLocation } from './step-runner';
import { BatchOutputReader, hasNul, planSteps } from './batch-output-reader';
import type { BatchRequest, BatchResult } from './types';

export { BatchOutputReader } from './batch-output-reader';

/**
 * A batch is one bash script run in the sandbox: it prepares the directory (restore, preamble) and
 * hands the steps to the step runner (step-runner.ts), which runs each under its own timeout, output
 * cap and process group and frames the records on stdout with byte counts measured after the step, so
 * whatever a step prints cannot forge another step's record.
 */

/** Linux refuses a single argument over 128 KiB; longer scripts travel on stdin. */
const MAX_ARG_SCRIPT = 96 * 1024;

export interface BuiltBatch {
  /** The command line to start (bash -c ...). */
  argv: string[];
  stdin?: Buffer;
  /** Host-side wall-clock guard: every step's timeout plus grace. */
  guardMs: number;
  /** Host-side cap on the whole batch's stdout. */
  maxBytes: number;
}

/**
 * The command a process started before its batch is known runs: it reads the script (length first)
 * from stdin, leaving whatever follows (the archive to restore) for the script's own `tar -x`.
 * bash's `read` takes a pipe byte by byte, so it stops exactly at the end of the script.
 */
export const STDIN_BOOT = 'IFS= read -r gb_n && LC_ALL=C IFS= read -r -d "" -N "$gb_n" gb_s; eval "$gb_s"';

export interface BuildBatchOptions {
  /**
   * Always send the script on stdin (for a process that is already waiting with STDIN_BOOT), with the
   * request's environment exported by the script itself since that process's environment is fixed.
   */
  viaStdin?: boolean;
  /** The runner to start, and the uid commands run as (see step-runner.ts). */
  runner: RunnerLocation;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function buildBatch(request: BatchRequest, workdir: string, options: BuildBatchOptions): BuiltBatch {
  const steps = planSteps(request);
  const exports = options.viaStdin
    ? Object.entries(request.env ?? {}).map(([k, v]) => {
        if (!ENV_NAME.test(k)) throw new Error(`batch environment variable name ${JSON.stringify(k)} is not valid`);
        return `export ${k}=${shellQuote(v)}`;
      })
    : [];
  const cwd = shellQuote(request.cwd ?? workdir);
  // What prepares the directory (restore, preamble) runs as the sandbox's uid, in a shell of its own
  // whose stdout is the environment it leaves (env -0) and whose exit code says what failed; the
  // runner then starts with that environment, as root where commands run as the sandbox's uid.
  const prelude = [`cd -- ${cwd} || exit 98`];
  if (request.restoreTar) prelude.push('tar -x -f - || exit 99');
  prelude.push('exec </dev/null');
  if (request.preamble) prelude.push('{', request.preamble, '} >/dev/null');
  prelude.push('exec /usr/bin/env -0');
  const asSandbox =
    options.runner.uid === undefined
      ? ''
      : `setpriv --reuid=${options.runner.uid} --regid=${options.runner.uid} --clear-groups -- `;
  const lines: string[] = [
    'set +e',
    ...exports,
    `gb_dir=$(mktemp -d "\${TMPDIR:-/tmp}/gb.XXXXXX") || { printf '@@GBFATAL tmpdir\\n'; exit 97; }`,
    `cd -- ${cwd} || { printf '@@GBFATAL cwd\\n'; exit 98; }`,
    `${asSandbox}bash -c ${shellQuote(prelude.join('\n'))} > "$gb_dir/env"`,
    `gb_rc=$?; case $gb_rc in 0) ;; 98) printf '@@GBFATAL cwd\\n'; exit 98 ;; 99) printf '@@GBFATAL ` +
      `restore\\n'; exit 99 ;; *) printf '@@GBFATAL preamble (exit %s)\\n' "$gb_rc"; exit 94 ;; esac`,
    'exec </dev/null',
  ];
  const groups: RunnerGroup[] = request.groups.map((g, group) => {
    if (g.requires !== undefined && !(Number.isInteger(g.requires) && g.requires >= 0 && g.requires < group)) {
      throw new Error(`batch group ${group} requires group ${g.requires}, which is not an earlier group`);
    }
    return {
      stopOnFailure: g.stopOnFailure,
      ...(g.requires !== undefined ? { requires: g.requires } : {}),
      steps: steps
        .filter((p) => p.group === group)
        .map((s) => {
          // A NUL byte cannot be passed to bash (nor to Python's compile); such a step is recorded as failed without
          // running.
          const unrunnable = hasNul(s);
          // A plain git call (see core's plainGitWords, which the set-up script uses the same way) is
          // started directly: bash -c would only split its words and exec git in its own place.
          const argv = unrunnable ? null : plainGitWords(s.command);
          return {
            key: `${s.group}.${s.index}`,
            ...(argv ? { argv } : {}),
            command: unrunnable ? '' : s.command,
            cwd: s.cwd,
            ...(s.env ? { env: s.env } : {}),
            timeoutS: Math.max(1, Math.ceil(s.timeoutMs / 1000)),
            cap: s.cap + 1,
            unrunnable,
            ...(s.thenPython && !unrunnable ? { thenPython: s.thenPython } : {}),
          };
        }),
    };
  });
  lines.push(
    `command -v python3 >/dev/null 2>&1 || { printf '@@GBFATAL no ` +
      `python3 in the sandbox (the step runner needs it)\\n'; exit 96; }`,
    `printf '%s' ${shellQuote(encodeRunnerPlan(groups).toString('utf8'))} ` +
      `> "$gb_dir/steps" || { printf '@@GBFATAL steps\\n'; exit 95; }`,
    // -I -S: nothing from the environment or site-packages changes the runner, and it starts in half the time.
    `exec python3 -I -S ${shellQuote(`${options.runner.dir}/batch.py`)} ` +
      `"$gb_dir" ${KILL_GRACE_S} ${options.runner.uid ?? '-'}`,
  );
  const script = lines.join('\n') + '\n';
  const guardMs = steps.reduce((t, s) => t + Math.ceil(s.timeoutMs / 1000) * 1000 + KILL_GRACE_S * 1000, 0) + 5_000;
  const maxBytes = steps.reduce((t, s) => t + 2 * (s.cap + 1) + 256, 0) + 4096;
  const scriptBytes = Buffer.from(script, 'utf8');
  if (scriptBytes.length <= MAX_ARG_SCRIPT && !options.viaStdin) {
    return { argv: ['bash', '-c', script], stdin: request.restoreTar, guardMs, maxBytes };
  }
  const stdin = Buffer.concat([
    Buffer.from(`${scriptBytes.length}\n`),
    scriptBytes,
    request.restoreTar ?? Buffer.alloc(0),
  ]);
  return { argv: ['bash', '-c', STDIN_BOOT], stdin, guardMs, maxBytes };
}

export interface RawRun {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
  /** The host gave up waiting (a step escaped its process group and kept the batch alive). */
  hostTimedOut: boolean;
  durationMs: number;
  /** A transport problem noticed by the driver. */
  streamError?: string;
  /**
   * Docker's State.OOMKilled, read when the container ended with a non-zero code: whether the
   * container's memory ran out. Absent where nothing says (the local driver, an engine that did not answer).
   */
  oomKilled?: boolean;
}

/**
 * Reads a batch's stdout as it arrives, telling the request's onRecord about each step as it ends;
 * parseBatch then takes the records from it instead of reading the output a second time.
 */
export function streamingReader(request: BatchRequest): {
  reader: BatchOutputReader;
  onStdout: (chunk: Buffer) => void;
} {
  const reader = new BatchOutputReader(request, request.onRecord);
  return { reader, onStdout: (chunk) => reader.push(chunk) };
}

/**
 * Turns the framed stdout of a batch back into step records: those `streamed` read as the output
 * arrived when it saw exactly the bytes kept, else the kept bytes read again (a capped output).
 */
export function parseBatch(request: BatchRequest, raw: RawRun, streamed?: BatchOutputReader): BatchResult {
  let reader = streamed;
  // A reader that refused the output stopped there: what the driver kept after that changes nothing.
  if (!reader || (reader.bytesPushed !== raw.stdout.length && !reader.tampered)) {
    reader = new BatchOutputReader(request);
    reader.push(raw.stdout);
  }
  reader.finish();
  const groups = reader.groups;
  let aborted: string | undefined;
  let tampering: string | undefined;
  const ended = reader.ended;
  const detail = () => {
    const stderr = raw.stderr.toString('utf8').trim().slice(-300);
    return `exit ${raw.exitCode}${raw.streamError ? `, ${raw.streamError}` : ''}${stderr ? `, stderr: ${stderr}` : ''}`;
  };
  if (reader.broken) {
    const { at, header, reason } = reader.broken;
    tampering =
      `the sandbox's records broke their protocol at ` +
      `byte ${at}: ${reason} (${JSON.stringify(header.slice(0, 80))})`;
    aborted = tampering;
  } else if (reader.fatal !== undefined) {
    aborted =
      `sandbox batch failed before its steps: ${reader.fatal} ` +
      `(${raw.stderr.toString('utf8').trim().slice(0, 500)})`;
  } else if (!ended && reader.cutFrame) {
    const { at, header } = reader.cutFrame;
    aborted =
      `sandbox batch output ended early or was unreadable at byte ${at} ` +
      `of ${raw.stdout.length} (header ${JSON.stringify(header.slice(0, 80))}, ${detail()})`;
  } else if (!ended) {
    aborted = `sandbox batch stopped before its end (${detail()})`;
  }
  if (raw.hostTimedOut && !tampering)
    aborted = 'sandbox batch exceeded its overall time limit (a process escaped its step) and was stopped';
  const killed = !ended && !tampering && !raw.hostTimedOut ? killedBy(raw) : undefined;
  if (killed === 'out_of_memory') aborted = `the sandbox's memory ran out and its runner was killed (${detail()})`;
  else if (killed === 'signal') aborted = `the sandbox's runner was killed from outside the sandbox (${detail()})`;
  const stoppedAt = request.groups.map((g, i) => {
    if (!g.stopOnFailure) return undefined;
    const idx = groups[i]!.findIndex((r) => r.exitCode !== 0);
    return idx < 0 ? undefined : idx;
  });
  return {
    groups,
    stoppedAt,
    aborted,
    ...(tampering ? { tampering } : {}),
    ...(killed ? { killed } : {}),
    durationMs: raw.durationMs,
  };
}

/** Why a batch's runner died of SIGKILL (exit 137) before its end, where the driver knows; see BatchResult.killed. */
function killedBy(raw: RawRun): BatchResult['killed'] {
  if (raw.exitCode !== 137 || raw.oomKilled === undefined) return undefined;
  return raw.oomKilled ? 'out_of_memory' : 'signal';
}
