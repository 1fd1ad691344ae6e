import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, type BatchRequest, type StepRecord } from './types';

/**
 * The host's reader of a batch's records (the step runner's stdout, see runner/batch.py). Whatever
 * the model runs in the sandbox is hostile, so the reader takes the runner's protocol literally and
 * calls anything else tampering: a record of a step out of the order the runner runs them (one that
 * never started, a duplicate, a step its group skipped), a malformed or oversized header, a length
 * above the step's cap, a second end, any byte after the end, a fatal line after the first record.
 *
 * It reads incrementally without copying what it holds at every chunk: a header must be complete
 * within MAX_PREAMBLE_BYTES, and a frame's body is joined once, when all of it has arrived, so a
 * flood (a line of 30 MB without a newline) costs one look at its first bytes.
 */

export interface StepPlan {
  group: number;
  index: number;
  id: string;
  command: string;
  timeoutMs: number;
  cap: number;
  cwd: string;
  env?: Record<string, string>;
  thenPython?: string;
}

export function planSteps(request: BatchRequest): StepPlan[] {
  return request.groups.flatMap((g, group) =>
    g.steps.map((s, index) => ({
      group,
      index,
      id: s.id,
      command: s.command,
      timeoutMs: s.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      cap: s.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      cwd: s.cwd ?? '.',
      ...(s.env ? { env: s.env } : {}),
      ...(s.thenPython !== undefined ? { thenPython: s.thenPython } : {}),
    })),
  );
}

export function hasNul(step: Pick<StepPlan, 'command' | 'thenPython'>): boolean {
  return step.command.includes('\0') || (step.thenPython ?? '').includes('\0');
}

/** A step's header, its two length lines and their newlines: far more than the runner ever writes. */
export const MAX_PREAMBLE_BYTES = 512;
const STEP_HEADER = /^@@GBSTEP (\d+)\.(\d+) (-?\d+) ([01]) (-?\d+) (\d+\.\d+) (\d+\.\d+)$/;
const LENGTH = /^\d{1,12}$/;

/** Where the runner is in its plan: the group it runs, the next step of it, and what it decided. */
interface Cursor {
  group: number;
  next: number;
  /** The group's steps stopped after a failure, or the group was skipped: no more records of it. */
  closed: boolean;
  skipped: boolean;
  ok: boolean[];
  failed: boolean;
}

export class BatchOutputReader {
  readonly groups: StepRecord[][];
  ended = false;
  fatal?: string;
  /** The output broke the runner's protocol: what, and where (see the class comment). */
  broken?: { at: number; header: string; reason: string };
  /** Every byte pushed, read or not: parseBatch reuses this reading only if it saw the kept output whole. */
  bytesPushed = 0;
  private readonly plans: StepPlan[][];
  private buf: Buffer = Buffer.alloc(0);
  private consumed = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes the frame at the buffer's start needs before it can be read. */
  private need = 1;
  private cursor: Cursor;

  constructor(
    private readonly request: BatchRequest,
    private readonly onRecord?: (group: number, record: StepRecord) => void,
  ) {
    const steps = planSteps(request);
    this.plans = request.groups.map((_, g) => steps.filter((s) => s.group === g));
    this.groups = request.groups.map(() => []);
    this.cursor = { group: -1, next: 0, closed: true, skipped: false, ok: [], failed: false };
    this.enterNextGroup();
  }

  get tampered(): boolean {
    return this.broken !== undefined;
  }

  push(chunk: Buffer): void {
    this.bytesPushed += chunk.length;
    if (this.fatal || this.broken || chunk.length === 0) return;
    if (this.ended) {
      this.refuse('output after the end of the batch', chunk.subarray(0, 80).toString('latin1'));
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
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

  /** A frame whose header arrived but not the rest of it (the output was cut inside it). */
  get cutFrame(): { at: number; header: string } | undefined {
    this.join();
    if (this.buf.length === 0) return undefined;
    const nl = this.buf.subarray(0, MAX_PREAMBLE_BYTES).indexOf(0x0a);
    return {
      at: this.consumed,
      header: this.buf.subarray(0, nl < 0 ? Math.min(this.buf.length, 80) : nl).toString('latin1'),
    };
  }

  private join(): void {
    if (this.pending.length === 0) return;
    this.buf =
      this.buf.length === 0 && this.pending.length === 1
        ? this.pending[0]!
        : Buffer.concat([this.buf, ...this.pending]);
    this.pending = [];
    this.pendingBytes = 0;
  }

  private refuse(reason: string, header: string): false {
    this.broken = { at: this.consumed, header: header.slice(0, 120), reason };
    // What was held is never looked at again.
    this.buf = Buffer.alloc(0);
    this.pending = [];
    this.pendingBytes = 0;
    return false;
  }

  /** Reads one complete frame off the buffer; false when more bytes are needed or reading stops. */
  private readFrame(): boolean {
    const out = this.buf;
    if (out.length === 0) {
      this.need = 1;
      return false;
    }
    // Newlines are looked for only where a header may be: a flood without one is refused at once.
    const head = out.subarray(0, MAX_PREAMBLE_BYTES);
    const lines: number[] = [];
    for (let from = 0; lines.length < 3;) {
      const nl = head.indexOf(0x0a, from);
      if (nl < 0) break;
      lines.push(nl);
      from = nl + 1;
      if (lines.length === 1 && !out.subarray(0, 9).equals(Buffer.from('@@GBSTEP '))) break;
    }
    if (lines.length === 0) {
      if (out.length >= MAX_PREAMBLE_BYTES)
        return this.refuse('a header longer than any record has', head.subarray(0, 80).toString('latin1'));
      this.need = out.length + 1;
      return false;
    }
    const header = out.subarray(0, lines[0]).toString('latin1');
    if (header === '@@GBEND') return this.end(lines[0]! + 1);
    if (header.startsWith('@@GBFATAL')) {
      if (this.consumed > 0) return this.refuse('a fatal line after the batch started its steps', header);
      this.fatal = header.slice(10);
      return false;
    }
    const m = STEP_HEADER.exec(header);
    if (!m) return this.refuse('a line that is not a record', header);
    if (lines.length < 3) {
      if (out.length >= MAX_PREAMBLE_BYTES) return this.refuse('a record header longer than the runner writes', header);
      this.need = out.length + 1;
      return false;
    }
    const oText = out.subarray(lines[0]! + 1, lines[1]).toString('latin1');
    const eText = out.subarray(lines[1]! + 1, lines[2]).toString('latin1');
    const group = Number(m[1]);
    const plan = this.plans[group]?.[Number(m[2])];
    if (!plan) return this.refuse('a record of a step the batch does not have', header);
    if (!LENGTH.test(oText) || !LENGTH.test(eText))
      return this.refuse('a record whose lengths are not numbers', header);
    const oLen = Number(oText);
    const eLen = Number(eText);
    // The runner keeps at most cap + 1 bytes of each stream (the extra byte says "truncated").
    if (oLen > plan.cap + 1 || eLen > plan.cap + 1)
      return this.refuse('a record longer than its step may print', header);
    const why = this.outOfOrder(plan);
    if (why) return this.refuse(why, header);
    const pos = lines[2]! + 1;
    if (pos + oLen + eLen > out.length) {
      this.need = pos + oLen + eLen;
      return false;
    }
    const [, , , rc, hasRc, timeoutRc, t0, t1] = m;
    const stdout = out.subarray(pos, pos + Math.min(oLen, plan.cap));
    const stderr = out.subarray(pos + oLen, pos + oLen + Math.min(eLen, plan.cap));
    const end = pos + oLen + eLen;
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
    this.advance(record.exitCode);
    this.groups[plan.group]!.push(record);
    this.consumed += end;
    this.buf = out.subarray(end);
    this.need = 1;
    this.onRecord?.(plan.group, record);
    return true;
  }

  private end(length: number): false {
    // The runner ends once every group ran, was skipped or stopped: an end before that is forged.
    while (this.cursor.group < this.plans.length && this.cursor.closed) this.enterNextGroup();
    if (this.cursor.group < this.plans.length) return this.refuse('an end before every step ran', '@@GBEND');
    this.ended = true;
    this.consumed += length;
    const rest = this.buf.subarray(length);
    this.buf = Buffer.alloc(0);
    if (rest.length > 0) this.refuse('output after the end of the batch', rest.subarray(0, 80).toString('latin1'));
    return false;
  }

  /** Why a record of this step cannot come now, as the runner runs its plan (runner/batch.py); null when it can. */
  private outOfOrder(plan: StepPlan): string | null {
    while (plan.group > this.cursor.group && this.cursor.group < this.plans.length) {
      if (!this.cursor.closed) return 'a record of a step while an earlier one has not run';
      this.enterNextGroup();
    }
    if (plan.group !== this.cursor.group) return 'a record of a step that already ran';
    if (this.cursor.closed) return 'a record of a step its group did not run';
    if (plan.index !== this.cursor.next)
      return plan.index < this.cursor.next
        ? 'a second record of a step'
        : 'a record of a step while an earlier one has not run';
    return null;
  }

  private advance(exitCode: number): void {
    const c = this.cursor;
    const group = this.request.groups[c.group]!;
    c.next++;
    if (exitCode !== 0) {
      c.failed = true;
      if (group.stopOnFailure) c.closed = true;
    }
    if (c.next >= this.plans[c.group]!.length) c.closed = true;
  }

  /**
   * Closes the group at the cursor (its outcome recorded) and opens the next, skipped when its required group failed.
   */
  private enterNextGroup(): void {
    const c = this.cursor;
    if (c.group >= 0) c.ok[c.group] = !c.failed && c.next >= this.plans[c.group]!.length && !c.skipped;
    c.group++;
    c.next = 0;
    c.failed = false;
    const g = this.request.groups[c.group];
    c.skipped = g !== undefined && g.requires !== undefined && !c.ok[g.requires];
    c.closed = g === undefined || c.skipped || this.plans[c.group]!.length === 0;
  }
}
