import { posix } from 'node:path';
import type Docker from 'dockerode';
import { buildBatch, parseBatch, streamingReader, type RawRun } from './batch-script';
import { CappedBuffer } from './capped-buffer';
import { DockerDemuxer } from './demux';
import { OBSERVER_UID, removeContainer, UID, WORKDIR } from './docker-container';
import { execViaBatch } from './exec-via-batch';
import { IMAGE_RUNNER } from './step-runner';
import type { BatchRequest, BatchResult, ExecOptions, ExecResult, ObserveOptions, Sandbox } from './types';

/** One sandbox container, used by one attempt and then removed, and the `docker exec` runs it is driven by. */

export class DockerSandbox implements Sandbox {
  readonly workdir = WORKDIR;
  private destroying: Promise<void> | undefined;

  constructor(
    private readonly container: Docker.Container,
    private readonly docker: Docker,
    private readonly track: (p: Promise<void>) => void,
  ) {}

  get id() {
    return this.container.id;
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return execViaBatch(this, command, options);
  }

  async runBatch(request: BatchRequest): Promise<BatchResult> {
    const built = buildBatch(request, WORKDIR, { runner: IMAGE_RUNNER });
    const streamed = streamingReader(request);
    const raw = await this.run(built.argv, {
      stdin: built.stdin,
      env: request.env,
      guardMs: built.guardMs,
      maxBytes: built.maxBytes,
      onStdout: streamed.onStdout,
    });
    return parseBatch(request, raw, streamed.reader);
  }

  async copyIn(tar: Buffer, dir: string = WORKDIR): Promise<void> {
    // The archive API cannot write into tmpfs mounts, so unpack with tar inside the container.
    const raw = await this.run(['tar', '-x', '-f', '-', '-C', dir], {
      stdin: tar,
      guardMs: 60_000,
      maxBytes: 64 * 1024,
      asSandbox: true,
    });
    if (raw.exitCode !== 0) throw new Error(`copyIn to ${dir} failed: ${raw.stderr.toString('utf8').trim()}`);
  }

  async copyOut(dir: string = WORKDIR): Promise<Buffer> {
    const raw = await this.run(['tar', '-c', '-f', '-', '-C', dir, '.'], {
      guardMs: 60_000,
      maxBytes: 512 * 1024 * 1024,
      asSandbox: true,
    });
    if (raw.exitCode !== 0) throw new Error(`copyOut of ${dir} failed: ${raw.stderr.toString('utf8').trim()}`);
    return raw.stdout;
  }

  /** Removal runs to completion even if the caller stops waiting; the driver's close() awaits it. */
  destroy(): Promise<void> {
    if (!this.destroying) {
      this.destroying = removeContainer(this.container);
      this.track(this.destroying.catch(() => undefined));
    }
    return this.destroying;
  }

  private run(argv: string[], opts: Omit<DockerRunOptions, 'user'> & { asSandbox?: boolean }): Promise<RawRun> {
    // A batch starts as root (its runner runs commands as UID); copying files is UID's own work.
    return dockerRun(this.container, argv, { ...opts, ...(opts.asSandbox ? { user: `${UID}:${UID}` } : {}) });
  }
}

interface DockerRunOptions {
  stdin?: Buffer;
  env?: Record<string, string>;
  guardMs: number;
  maxBytes: number;
  onStdout?: (chunk: Buffer) => void;
  /** uid:gid; the image's user (root) when absent. */
  user?: string;
  cwd?: string;
}

/** One process started in the container by the engine (`docker exec`), its output capped, its time guarded. */
async function dockerRun(container: Docker.Container, argv: string[], opts: DockerRunOptions): Promise<RawRun> {
  const started = performance.now();
  const exec = await container.exec({
    Cmd: argv,
    ...(opts.user ? { User: opts.user } : {}),
    ...(opts.cwd ? { WorkingDir: opts.cwd } : {}),
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: opts.stdin !== undefined,
    Env: opts.env ? Object.entries(opts.env).map(([k, v]) => `${k}=${v}`) : undefined,
  });
  const stream = await exec.start({ hijack: true, stdin: opts.stdin !== undefined });
  const out = new CappedBuffer(opts.maxBytes);
  const err = new CappedBuffer(64 * 1024);
  const demux = new DockerDemuxer(
    (c) => {
      out.push(c);
      opts.onStdout?.(c);
    },
    (c) => err.push(c),
  );
  stream.on('data', (c: Buffer) => demux.push(c));
  if (opts.stdin !== undefined) stream.end(opts.stdin);
  let hostTimedOut = false;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(guard);
      resolve();
    };
    const guard = setTimeout(() => {
      hostTimedOut = true;
      stream.destroy();
      resolve();
    }, opts.guardMs);
    stream.on('end', done);
    stream.on('close', done);
    stream.on('error', done);
  });
  let info = hostTimedOut ? undefined : await exec.inspect().catch(() => undefined);
  // The connection can close a moment before the engine records the exit code.
  for (let i = 0; i < 20 && info?.Running; i++) {
    await new Promise((r) => setTimeout(r, 25));
    info = await exec.inspect().catch(() => undefined);
  }
  return {
    stdout: out.toBuffer(),
    stderr: err.toBuffer(),
    exitCode: info?.ExitCode ?? 137,
    streamError: demux.leftover ? `the output stream was cut inside a frame (${demux.leftover} bytes left)` : undefined,
    hostTimedOut,
    durationMs: performance.now() - started,
  };
}

/**
 * SandboxSession.observe: a `docker exec` as OBSERVER_UID beside the session's runner, whose own
 * requests are one at a time. `timeout` ends the command inside; the host's guard ends the wait.
 */
export async function observeIn(
  container: Docker.Container,
  command: string,
  options: ObserveOptions = {},
): Promise<ExecResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxOutputBytes ?? 4 * 1024 * 1024;
  const raw = await dockerRun(
    container,
    ['timeout', '-s', 'KILL', `${Math.max(1, Math.ceil(timeoutMs / 1000))}`, 'bash', '-c', command],
    {
      user: `${OBSERVER_UID}:${OBSERVER_UID}`,
      cwd: posix.resolve(WORKDIR, options.cwd ?? '.'),
      env: { PATH: '/usr/bin:/bin', ...options.env },
      guardMs: timeoutMs + 5_000,
      maxBytes,
    },
  );
  return {
    exitCode: raw.exitCode,
    stdout: raw.stdout.toString('utf8'),
    stderr: raw.stderr.toString('utf8'),
    timedOut: raw.hostTimedOut || raw.exitCode === 137,
    truncated: raw.stdout.length >= maxBytes,
    durationMs: raw.durationMs,
  };
}
