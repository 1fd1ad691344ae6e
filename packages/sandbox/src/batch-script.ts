import { plainGitWords } from '@gitbench/core';
import { shellQuote } from './shell-quote';
import { encodeRunnerPlan, KILL_GRACE_S, STEP_RUNNER_PY, type RunnerGroup } from './step-runner';
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  type BatchRequest,
  type BatchResult,
  type StepRecord,
} from './types';

/**
 * A batch is one bash script run in the sandbox: it prepares the directory (restore, preamble) and
 * hands the steps to the step runner (step-runner.ts), which runs each under its own timeout, output
 * cap and process group and frames the records on stdout with byte counts measured after the step, so
 * whatever a step prints cannot forge another step's record.
 */

const FRAME = '@@GBSTEP';
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

interface StepPlan {
  group: number;
  index: number;
  id: string;
  command: string;
  timeoutMs: number;
  cap: number;
  cwd: string;
  thenPython?: string;
}

function planSteps(request: BatchRequest): StepPlan[] {
  return request.groups.flatMap((g, group) =>
    g.steps.map((s, index) => ({
      group,
      index,
      id: s.id,
      command: s.command,
      timeoutMs: s.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      cap: s.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      cwd: s.cwd ?? '.',
      ...(s.thenPython !== undefined ? { thenPython: s.thenPython } : {}),
    })),
  );
}

function hasNul(step: Pick<StepPlan, 'command' | 'thenPython'>): boolean {
  return step.command.includes('\0') || (step.thenPython ?? '').includes('\0');
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
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function buildBatch(request: BatchRequest, workdir: string, options: BuildBatchOptions = {}): BuiltBatch {
  const steps = planSteps(request);
  const exports = options.viaStdin
    ? Object.entries(request.env ?? {}).map(([k, v]) => {
        if (!ENV_NAME.test(k)) throw new Error(`batch environment variable name ${JSON.stringify(k)} is not valid`);
        return `export ${k}=${shellQuote(v)}`;
      })
    : [];
  const lines: string[] = [
    'set +e',
    ...exports,
    `gb_dir=$(mktemp -d "\${TMPDIR:-/tmp}/gb.XXXXXX") || { printf '@@GBFATAL tmpdir\\n'; exit 97; }`,
    `trap 'rm -rf -- "$gb_dir"' EXIT`,
    `cd -- ${shellQuote(request.cwd ?? workdir)} || { printf '@@GBFATAL cwd\\n'; exit 98; }`,
  ];
  if (request.restoreTar) lines.push(`tar -x -f - || { printf '@@GBFATAL restore\\n'; exit 99; }`);
  lines.push('exec </dev/null');
  if (request.preamble) lines.push(request.preamble);
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
          // A NUL byte cannot be passed to bash (nor to Python's compile); such a step is recorded as failed without running.
          const unrunnable = hasNul(s);
          // A plain git call (see core's plainGitWords, which the set-up script uses the same way) is
          // started directly: bash -c would only split its words and exec git in its own place.
          const argv = unrunnable ? null : plainGitWords(s.command);
          return {
            key: `${s.group}.${s.index}`,
            ...(argv ? { argv } : {}),
            command: unrunnable ? '' : s.command,
            cwd: s.cwd,
            timeoutS: Math.max(1, Math.ceil(s.timeoutMs / 1000)),
            cap: s.cap + 1,
            unrunnable,
            ...(s.thenPython && !unrunnable ? { thenPython: s.thenPython } : {}),
          };
        }),
    };
  });
  lines.push(
    `command -v python3 >/dev/null 2>&1 || { printf '@@GBFATAL no python3 in the sandbox (the step runner needs it)\\n'; exit 96; }`,
    `printf '%s' ${shellQuote(encodeRunnerPlan(groups).toString('utf8'))} > "$gb_dir/steps" || { printf '@@GBFATAL steps\\n'; exit 95; }`,
    // -I -S: nothing from the environment or site-packages changes the runner, and it starts in half the time.
    `python3 -I -S -c ${shellQuote(STEP_RUNNER_PY)} "$gb_dir/steps" ${KILL_GRACE_S}`,
  );
  const script = lines.join('\n') + '\n';
  const guardMs = steps.reduce((t, s) => t + Math.ceil(s.timeoutMs / 1000) * 1000 + KILL_GRACE_S * 1000, 0) + 5_000;
  const maxBytes = steps.reduce((t, s) => t + 2 * (s.cap + 1) + 256, 0) + 4096;
  const scriptBytes = Buffer.from(script, 'utf8');
  if (scriptBytes.length <= MAX_ARG_SCRIPT && !options.viaStdin) {
    return { argv: ['bash', '-c', script], stdin: request.restoreTar, guardMs, maxBytes };
  }
  const stdin = Buffer.concat([Buffer.from(`${scriptBytes.length}\n`), scriptBytes, request.restoreTar ?? Buffer.alloc(0)]);
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
}

/**
 * Reads a batch's framed stdout as it arrives: each step's record is handed to `onRecord` as soon as
 * its frame is complete, so a caller can act on early steps (a fixture built) while later ones run.
 * parseBatch reads the whole output the same way, so both see identical records.
 */
export class BatchOutputReader {
  readonly groups: StepRecord[][];
  ended = false;
  fatal?: string;
  /** The frame that could not be read, when the output is not what the runner writes. */
  broken?: { at: number; header: string };
  private readonly byKey: Map<string, StepPlan>;
  private buf: Buffer = Buffer.alloc(0);
  private consumed = 0;

  constructor(
    request: BatchRequest,
    private readonly onRecord?: (group: number, record: StepRecord) => void,
  ) {
    this.byKey = new Map(planSteps(request).map((s) => [`${s.group}.${s.index}`, s]));
    this.groups = request.groups.map(() => []);
  }

  /** Every byte pushed, read or not: parseBatch reuses this reading only if it saw the kept output whole. */
  bytesPushed = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes the frame at the buffer's start needs before it can be read; 0 when unknown. */
  private need = 0;

  push(chunk: Buffer): void {
    this.bytesPushed += chunk.length;
    if (this.ended || this.fatal || this.broken) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // A large frame (a build's archive) arrives in many chunks: join them once, when it can be
    // complete, instead of copying the frame so far at every chunk.
    if (this.buf.length + this.pendingBytes < this.need) return;
    this.join();
    while (this.readFrame());
  }

  /** Reads what is left once no more output will come. */
  finish(): void {
    if (this.ended || this.fatal || this.broken) return;
    this.join();
    while (this.readFrame());
  }

  private join(): void {
    if (this.pending.length === 0) return;
    this.buf = this.buf.length === 0 && this.pending.length === 1 ? this.pending[0]! : Buffer.concat([this.buf, ...this.pending]);
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Reads one complete frame off the buffer; false when more bytes are needed or the output ended. */
  private readFrame(): boolean {
    const out = this.buf;
    let pos = 0;
    const readLine = (): string | undefined => {
      const nl = out.indexOf(0x0a, pos);
      if (nl < 0) {
        // Any byte may end the line.
        this.need = out.length + 1;
        return undefined;
      }
      const line = out.subarray(pos, nl).toString('latin1');
      pos = nl + 1;
      return line;
    };
    const header = readLine();
    if (header === undefined) return false;
    if (header === '@@GBEND') {
      this.ended = true;
      return false;
    }
    if (header.startsWith('@@GBFATAL')) {
      this.fatal = header.slice(10);
      return false;
    }
    const parts = header.split(' ');
    const plan = this.byKey.get(parts[1] ?? '');
    if (parts[0] !== FRAME || !plan) {
      this.broken = { at: this.consumed, header };
      return false;
    }
    const oText = readLine();
    const eText = readLine();
    if (eText === undefined) return false;
    const oLen = Number(oText);
    const eLen = Number(eText);
    if (!Number.isFinite(oLen) || !Number.isFinite(eLen)) {
      this.broken = { at: this.consumed, header };
      return false;
    }
    if (pos + oLen + eLen > out.length) {
      this.need = pos + oLen + eLen;
      return false;
    }
    this.need = 0;
    const stdout = out.subarray(pos, pos + Math.min(oLen, plan.cap));
    const stderr = out.subarray(pos + oLen, pos + oLen + Math.min(eLen, plan.cap));
    pos += oLen + eLen;
    const [, , rc, hasRc, timeoutRc, t0, t1] = parts;
    const durationMs = Math.max(0, Math.round((Number(t1) - Number(t0)) * 1000));
    // Without an exit-code file the step's process group was killed before it finished: by its
    // timeout (124, or 137 after the KILL grace) or by something it ran.
    const finished = hasRc === '1';
    const timedOut = !finished && (timeoutRc === '124' || (timeoutRc === '137' && durationMs >= plan.timeoutMs - 50));
    const record: StepRecord = {
      id: plan.id,
      command: plan.command,
      exitCode: finished ? Number(rc) : timedOut ? 124 : Number(timeoutRc),
      stdout: stdout.toString('utf8'),
      stderr: hasNul(plan) ? 'command contains a NUL byte and was not run' : stderr.toString('utf8'),
      timedOut,
      truncated: oLen > plan.cap || eLen > plan.cap,
      durationMs,
    };
    this.groups[plan.group]!.push(record);
    this.consumed += pos;
    this.buf = out.subarray(pos);
    this.onRecord?.(plan.group, record);
    return true;
  }

  /** A frame whose header arrived but not the rest of it (the output was cut inside it). */
  get cutFrame(): { at: number; header: string } | undefined {
    this.join();
    const nl = this.buf.indexOf(0x0a);
    return nl < 0 ? undefined : { at: this.consumed, header: this.buf.subarray(0, nl).toString('latin1') };
  }
}

/**
 * Reads a batch's stdout as it arrives, telling the request's onRecord about each step as it ends;
 * parseBatch then takes the records from it instead of reading the output a second time.
 */
export function streamingReader(request: BatchRequest): { reader: BatchOutputReader; onStdout: (chunk: Buffer) => void } {
  const reader = new BatchOutputReader(request, request.onRecord);
  return { reader, onStdout: (chunk) => reader.push(chunk) };
}

/**
 * Turns the framed stdout of a batch back into step records: those `streamed` read as the output
 * arrived when it saw exactly the bytes kept, else the kept bytes read again (a capped output).
 */
export function parseBatch(request: BatchRequest, raw: RawRun, streamed?: BatchOutputReader): BatchResult {
  let reader = streamed;
  if (!reader || reader.bytesPushed !== raw.stdout.length) {
    reader = new BatchOutputReader(request);
    reader.push(raw.stdout);
  }
  reader.finish();
  const groups = reader.groups;
  let aborted: string | undefined;
  const ended = reader.ended;
  if (reader.fatal !== undefined) {
    aborted = `sandbox batch failed before its steps: ${reader.fatal} (${raw.stderr.toString('utf8').trim().slice(0, 500)})`;
  } else if (reader.broken || (!ended && reader.cutFrame)) {
    const stderr = raw.stderr.toString('utf8').trim().slice(-300);
    const { at, header } = (reader.broken ?? reader.cutFrame)!;
    aborted =
      `sandbox batch output ended early or was unreadable at byte ${at} of ${raw.stdout.length} ` +
      `(header ${JSON.stringify(header.slice(0, 80))}, exit ${raw.exitCode}${raw.streamError ? `, ${raw.streamError}` : ''}${stderr ? `, stderr: ${stderr}` : ''})`;
  }
  if (!ended && !aborted) {
    const stderr = raw.stderr.toString('utf8').trim().slice(-300);
    aborted = `sandbox batch stopped before its end (exit ${raw.exitCode}${raw.streamError ? `, ${raw.streamError}` : ''}${stderr ? `, stderr: ${stderr}` : ''})`;
  }
  if (raw.hostTimedOut) aborted = 'sandbox batch exceeded its overall time limit (a process escaped its step) and was stopped';
  const stoppedAt = request.groups.map((g, i) => {
    if (!g.stopOnFailure) return undefined;
    const idx = groups[i]!.findIndex((r) => r.exitCode !== 0);
    return idx < 0 ? undefined : idx;
  });
  return { groups, stoppedAt, aborted, durationMs: raw.durationMs };
}
