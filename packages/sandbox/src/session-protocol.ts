import { TamperingError } from '@gitbench/core';
import { FileRefusedError, FileTooLargeError, SessionEndedError } from './session-errors';
import {
  encodeEnv,
  joinHeadTail,
  MAX_ERROR_BYTES,
  MAX_REPLY_HEADER_BYTES,
  NUMBER,
  replySize,
  type Reply,
} from './session-frames';
import { KILL_GRACE_S } from './step-runner';
import type { ExecOptions, RepoStateOptions, SandboxExecResult } from './types';

export { FileRefusedError, FileTooLargeError, SessionEndedError } from './session-errors';
export { MAX_REPLY_HEADER_BYTES } from './session-frames';

/**
 * The host's side of the session runner (step-runner.ts, SESSION_RUNNER_PY): requests go to the
 * runner's stdin, replies come back framed on its stdout, one at a time, in order.
 *
 * Requests: a line `<kind> <id> <sizes...>` then exactly those many bytes.
 *   X id timeout_ms head tail limit cwd_len cmd_len env_len stdin_len   run one command
 *   R id path_len limit                                                  read a file of at most limit bytes
 *   W id path_len data_len                                               write a file (parents made)
 *   S id timeout_ms head tail diff_bytes cwd_len env_len prev_len        read the repository's state
 *                                                                        (runner/repo_state.py; answered
 *                                                                        from runner/repo_memo.py where
 *                                                                        unchanged, unless the environment
 *                                                                        holds GITBENCH_FULL_READ)
 *   E id env_len                                                         replace the base environment
 *   Q id                                                                 stop
 * Replies: a line `@@GB<KIND> <id> <fields...>` then the payload its fields announce.
 *   @@GBEXEC id rc finished timed_out t0 t1 out_total err_total out_kept err_kept  <out><err>
 *   @@GBSTATE id timed_out total kept  <the state's text, head and tail>
 *   @@GBFILE id found len <bytes>      @@GBOK id      @@GBERR id len <message>
 *   (found: 0 no such file, 1 the file's len bytes follow, 2 larger than the limit: len is its size, no bytes follow)
 * Byte counts are measured by the runner, and the channel is out of the reach of the commands it runs
 * (another uid, a non-dumpable runner, no descriptor of it inherited: see runner/common.py). Should bytes
 * arrive that the runner would never send (a reply to no request, another request's id, an unknown
 * kind, a header past MAX_REPLY_HEADER_BYTES, a payload longer than asked for, bytes that do not
 * parse), the session ends with a TamperingError: only what the model ran could have written them, and
 * an attempt ended that way is its failure, not an excluded sandbox error. Replies are read without
 * copying what arrived so far at every chunk.
 */

/** Bytes of a command's output read before its pipe is closed (its writer then dies of SIGPIPE). */
export const DEFAULT_DRAIN_BYTES = 64 * 1024 * 1024;
/** Host-side slack on top of a command's timeout and kill grace before the runner counts as lost. */
const GUARD_SLACK_MS = 10_000;
/** In an S request's environment: read in full (RepoStateOptions.fullRead); never seen by git. */
const FULL_READ = 'GITBENCH_FULL_READ';

interface Pending {
  id: string;
  /** The largest payload the request can be answered with. */
  maxPayload: number;
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
}
/** Bytes a file read returns at most unless the caller says otherwise: well inside a sandbox's memory. */
export const DEFAULT_READ_BYTES = 64 * 1024 * 1024;
export class RunnerConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  /** Bytes the reply at the buffer's start needs before it can be read. */
  private need = 1;
  private waiting: Pending | undefined;
  /** Why the session ended, as every later request is told it (a TamperingError stays one). */
  private endError: Error | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private ended: string | undefined;
  private seq = 0;
  /** Requests sent or waiting to be sent, not yet answered. */
  private inFlight = 0;

  /** `write` sends bytes to the runner's stdin; `onLost` stops the sandbox when the runner stops answering. */
  constructor(
    private readonly write: (bytes: Buffer) => void,
    private readonly onLost: (reason: string) => void,
  ) {}

  /** Bytes from the runner's stdout, as they arrive. */
  push(chunk: Buffer): void {
    if (this.ended || chunk.length === 0) return;
    if (!this.waiting) return this.tampered('bytes that answer no request', chunk);
    this.chunks.push(chunk);
    this.chunkBytes += chunk.length;
    if (this.buffer.length + this.chunkBytes < this.need) return;
    this.drain();
  }

  /** The runner's stdout ended (the sandbox stopped or was removed): every request still open fails. */
  end(reason: string, error: Error = new SessionEndedError(`the sandbox session ended: ${reason}`)): void {
    if (this.ended === undefined) {
      this.ended = reason;
      this.endError = error;
    }
    this.buffer = Buffer.alloc(0);
    this.chunks = [];
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(this.endError!);
  }

  /** Bytes the runner never sends: the sandbox is stopped and the session ends as tampering. */
  private tampered(what: string, bytes: Buffer): void {
    const reason = `the session's channel carried ${what}: ${JSON.stringify(bytes.subarray(0, 80).toString('latin1'))}`;
    this.onLost(reason);
    this.end(reason, new TamperingError(reason));
  }

  get isEnded(): boolean {
    return this.ended !== undefined;
  }

  async exec(command: string, opts: ExecOptions & { cwd: string }): Promise<SandboxExecResult> {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const cap = opts.maxOutputBytes ?? 1024 * 1024;
    const head = Math.ceil(cap / 2);
    const tail = cap - head;
    const limit = Math.max(cap + 1, opts.drainBytes ?? DEFAULT_DRAIN_BYTES);
    const cwd = Buffer.from(opts.cwd, 'utf8');
    const cmd = Buffer.from(command, 'utf8');
    const env = encodeEnv(opts.env ?? {});
    const stdin = opts.stdin === undefined ? Buffer.alloc(0) : Buffer.from(opts.stdin);
    const guardMs = timeoutMs + KILL_GRACE_S * 1000 + GUARD_SLACK_MS;
    const r = await this.request(
      'X',
      [timeoutMs, head, tail, limit, cwd.length, cmd.length, env.length, stdin.length],
      [cwd, cmd, env, stdin],
      guardMs,
      2 * cap,
    );
    if (r.kind !== 'EXEC') throw this.unexpected(r);
    const [rc, finished, timedOut, t0, t1, outTotal, errTotal, outKept] = r.fields;
    const outLen = Number(outKept);
    const out = r.payload.subarray(0, outLen);
    const err = r.payload.subarray(outLen);
    return {
      exitCode: Number(rc),
      finished: finished === '1',
      timedOut: timedOut === '1',
      stdout: joinHeadTail(out, Number(outTotal), head),
      stderr: joinHeadTail(err, Number(errTotal), head),
      stdoutBytes: Number(outTotal),
      stderrBytes: Number(errTotal),
      truncated: Number(outTotal) > out.length || Number(errTotal) > err.length,
      durationMs: Math.max(0, Math.round((Number(t1) - Number(t0)) * 1000)),
    };
  }

  /**
   * The repository's state at `cwd` as the engine's repository-state script prints it, read by the runner
   * itself (runner/repo_state.py: git's own processes only, in one request). Kept as a command's output
   * is: head and tail of `maxOutputBytes`, the size counted in full.
   */
  async repoState(opts: RepoStateOptions): Promise<{ stdout: string; timedOut: boolean }> {
    const cap = opts.maxOutputBytes;
    const head = Math.ceil(cap / 2);
    const cwd = Buffer.from(opts.cwd, 'utf8');
    // The runner takes FULL_READ out of the read's environment (runner/session.py).
    const env = encodeEnv({ ...opts.env, ...(opts.fullRead ? { [FULL_READ]: '1' } : {}) });
    const prev = Buffer.from(opts.previousTree ?? '', 'utf8');
    const guardMs = opts.timeoutMs + KILL_GRACE_S * 1000 + GUARD_SLACK_MS;
    const r = await this.request(
      'S',
      [opts.timeoutMs, head, cap - head, opts.diffBytes, cwd.length, env.length, prev.length],
      [cwd, env, prev],
      guardMs,
      cap,
    );
    if (r.kind !== 'STATE') throw this.unexpected(r);
    const [timedOut, total] = r.fields;
    return { stdout: joinHeadTail(r.payload, Number(total), head), timedOut: timedOut === '1' };
  }

  async readFile(path: string, maxBytes = DEFAULT_READ_BYTES): Promise<Buffer | null> {
    const p = Buffer.from(path, 'utf8');
    const r = await this.request('R', [p.length, maxBytes], [p], 60_000, maxBytes);
    if (r.kind === 'ERR') throw new FileRefusedError(`${path} cannot be read: ${r.payload.toString('utf8')}`);
    if (r.kind !== 'FILE') throw this.unexpected(r);
    if (r.fields[0] === '2')
      throw new FileTooLargeError(`${path} has ${r.fields[1]} bytes, more than the ${maxBytes} a read may return`);
    return r.fields[0] === '1' ? r.payload : null;
  }

  async writeFile(path: string, data: Buffer): Promise<void> {
    const p = Buffer.from(path, 'utf8');
    const r = await this.request('W', [p.length, data.length], [p, data], 60_000);
    if (r.kind === 'ERR') throw new FileRefusedError(`${path} cannot be written: ${r.payload.toString('utf8')}`);
    if (r.kind !== 'OK') throw this.unexpected(r);
  }

  async setEnv(env: Record<string, string>): Promise<void> {
    const e = encodeEnv(env);
    const r = await this.request('E', [e.length], [e], 30_000);
    if (r.kind !== 'OK') throw this.unexpected(r);
  }

  /**
   * Asks the runner to stop; false when it is already gone, or busy: a request still running (a
   * command of ten minutes) would hold the stop behind it, and the caller removes the sandbox anyway.
   */
  async quit(): Promise<boolean> {
    if (this.ended || this.inFlight > 0) return false;
    await this.request('Q', [], [], 5_000).catch(() => undefined);
    return true;
  }

  private unexpected(r: Reply): Error {
    if (r.kind === 'ERR') return new Error(r.payload.toString('utf8'));
    return new SessionEndedError(`the session runner answered ${r.kind} out of turn`);
  }

  private request(kind: string, sizes: number[], payloads: Buffer[], guardMs: number, maxPayload = 0): Promise<Reply> {
    const run = async (): Promise<Reply> => {
      if (this.ended) throw this.endError!;
      const id = `r${++this.seq}`;
      const reply = new Promise<Reply>((resolve, reject) => {
        this.waiting = { id, maxPayload: Math.max(maxPayload, MAX_ERROR_BYTES), resolve, reject };
      });
      const guard = setTimeout(() => {
        const reason = `the session runner did not answer within ${guardMs} ms`;
        this.onLost(reason);
        this.end(reason);
      }, guardMs);
      try {
        this.write(Buffer.concat([Buffer.from(`${kind} ${id}${sizes.map((s) => ` ${s}`).join('')}\n`), ...payloads]));
        this.drain();
        return await reply;
      } finally {
        clearTimeout(guard);
      }
    };
    this.inFlight++;
    const next = this.queue.then(run, run).finally(() => this.inFlight--);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private drain(): void {
    if (this.chunks.length > 0) {
      this.buffer =
        this.buffer.length === 0 && this.chunks.length === 1
          ? this.chunks[0]!
          : Buffer.concat([this.buffer, ...this.chunks]);
      this.chunks = [];
      this.chunkBytes = 0;
    }
    while (this.buffer.length > 0) {
      const w = this.waiting;
      if (!w) return this.tampered('bytes that answer no request', this.buffer);
      // A header is looked for only where one may be: a flood without a newline is refused at once.
      const nl = this.buffer.subarray(0, MAX_REPLY_HEADER_BYTES).indexOf(0x0a);
      if (nl < 0) {
        if (this.buffer.length >= MAX_REPLY_HEADER_BYTES)
          return this.tampered('a header longer than any reply has', this.buffer);
        this.need = this.buffer.length + 1;
        return;
      }
      const header = this.buffer.subarray(0, nl).toString('latin1');
      const [tag = '', id = '', ...fields] = header.split(' ');
      const kind = tag.startsWith('@@GB') ? tag.slice(4) : '';
      const size = replySize(kind, fields);
      if (id !== w.id || !fields.every((f) => NUMBER.test(f)) || size === undefined)
        return this.tampered('a reply the runner does not send', this.buffer);
      if (size > w.maxPayload) return this.tampered('a reply longer than its request allows', this.buffer);
      if (this.buffer.length < nl + 1 + size) {
        this.need = nl + 1 + size;
        return;
      }
      const payload = this.buffer.subarray(nl + 1, nl + 1 + size);
      this.buffer = this.buffer.subarray(nl + 1 + size);
      this.need = 1;
      this.waiting = undefined;
      w.resolve({ kind, fields, payload });
    }
  }
}
