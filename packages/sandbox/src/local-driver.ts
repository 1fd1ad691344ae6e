import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBatch, parseBatch, streamingReader, type RawRun } from './batch-script';
import { CappedBuffer } from './capped-buffer';
import { RunnerSandbox } from './runner-sandbox';
import { RunnerConnection } from './session-protocol';
import { hostRunner, KILL_GRACE_S } from './step-runner';
import type {
  BatchRequest,
  BatchRequestIn,
  BatchResult,
  OneShotResult,
  Sandbox,
  SandboxDescription,
  SandboxDriver,
  SandboxOptions,
} from './types';

export const LOCAL_DRIVER_WARNING =
  'gitbench: WARNING: local sandbox driver: commands run on this host as your user, in a ' +
  'temporary directory, with NO isolation. Use the Docker driver for model output you do not trust.';

export interface LocalDriverConfig {
  /** Where sandboxes are made; default the OS temporary directory. */
  baseDir?: string;
  /** Called once per created sandbox with the warning line; default: written to stderr. */
  warn?: (line: string) => void;
}

/**
 * For machines without Docker. It gives each sandbox a fresh temporary directory, an empty HOME and an
 * environment with nothing inherited from the host (no tokens, no credentials), and it says loudly, every
 * time, that it isolates nothing: the commands can still read and write anything this user can.
 */
export class LocalSandboxDriver implements SandboxDriver {
  private readonly live = new Map<string, LocalDirectory>();

  constructor(private readonly config: LocalDriverConfig = {}) {}

  describe(): SandboxDescription {
    return { driver: 'local', image: 'host', imageId: 'host', isolated: false };
  }

  private async directory(labels: Record<string, string>): Promise<LocalDirectory> {
    (this.config.warn ?? ((l: string) => process.stderr.write(`${l}\n`)))(LOCAL_DRIVER_WARNING);
    // A run-time temporary directory, not a project file: the comments keep the web app's bundler
    // from tracing the whole repository into its output because of these paths.
    const root = await mkdtemp(join(/*turbopackIgnore: true*/ this.config.baseDir ?? tmpdir(), 'gitbench-sandbox-'));
    await Promise.all(['work', 'home', 'tmp'].map((d) => mkdir(join(/*turbopackIgnore: true*/ root, d))));
    const box = new LocalDirectory(root, labels, () => this.live.delete(root));
    this.live.set(root, box);
    return box;
  }

  async create(opts: SandboxOptions = {}): Promise<Sandbox> {
    // A host directory has no mount namespace to put a socket into: the agents that need one need Docker.
    if (opts.mounts?.length)
      throw new Error(
        'the local sandbox driver cannot mount directories into a sandbox; third-party agents need the Docker driver',
      );
    const box = await this.directory(opts.labels ?? {});
    try {
      return box.startRunner();
    } catch (err) {
      await box.destroy();
      throw err;
    }
  }

  /** The batch runs in a process of its own (batch-script.ts), as in a Docker one-shot container. */
  async runOnce(
    request: BatchRequest | BatchRequestIn,
    opts: { labels?: Record<string, string> } = {},
  ): Promise<OneShotResult> {
    const box = await this.directory(opts.labels ?? {});
    try {
      const batch = typeof request === 'function' ? request(box.workdir) : request;
      return { ...(await box.runBatch(batch)), sandboxId: box.id };
    } finally {
      await box.destroy();
    }
  }

  async removeByLabels(labels: Record<string, string>): Promise<number> {
    const matching = [...this.live.values()].filter((b) => Object.entries(labels).every(([k, v]) => b.labels[k] === v));
    await Promise.all(matching.map((b) => b.destroy()));
    return matching.length;
  }

  /** Local sandboxes live and die with this process: nothing of another owner is visible here. */
  async removeOrphans(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    await Promise.all([...this.live.values()].map((b) => b.destroy()));
  }
}

/** One sandbox's temporary directory (work, home, tmp): a runner's, or one batch's. */
class LocalDirectory {
  readonly workdir: string;
  private destroying: Promise<void> | undefined;

  constructor(
    private readonly root: string,
    readonly labels: Record<string, string>,
    private readonly onDestroy: () => void,
  ) {
    this.workdir = join(root, 'work');
  }

  get id() {
    return this.root;
  }

  /** Only what commands need; deliberately nothing copied from process.env. */
  private env(extra?: Record<string, string>): Record<string, string> {
    return {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: join(this.root, 'home'),
      TMPDIR: join(this.root, 'tmp'),
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      GIT_CONFIG_NOSYSTEM: '1',
      ...extra,
    };
  }

  async runBatch(request: BatchRequest): Promise<BatchResult> {
    const built = buildBatch(request, this.workdir, { runner: hostRunner() });
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

  destroy(): Promise<void> {
    this.destroying ??= (async () => {
      this.stopRunner?.();
      await rm(this.root, { recursive: true, force: true });
    })().finally(this.onDestroy);
    return this.destroying;
  }

  private stopRunner: (() => void) | undefined;

  /** The sandbox's runner as a child process of this one, its stdio the connection; removal kills it. */
  startRunner(): Sandbox {
    // Debian's interpreter where the PATH's python3 may be a shim that needs the user's environment.
    const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
    const child = spawn(
      python,
      ['-I', '-S', join(/*turbopackIgnore: true*/ hostRunner().dir, 'session.py'), 'serve', String(KILL_GRACE_S), '-'],
      {
        cwd: this.workdir,
        env: this.env() as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      },
    );
    const stderr = new CappedBuffer(16 * 1024);
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    this.stopRunner = kill;
    const connection = new RunnerConnection((bytes) => child.stdin.write(bytes), kill);
    child.stdout.on('data', (c: Buffer) => connection.push(c));
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => connection.end(String(e)));
    child.on('close', (code) =>
      connection.end(
        `the runner exited (${code ?? 'killed'})` +
          (stderr.toBuffer().length ? `: ${stderr.toBuffer().toString('utf8').trim().slice(-300)}` : ''),
      ),
    );
    return new RunnerSandbox({ id: this.root, workdir: this.workdir, connection, dispose: () => this.destroy() });
  }

  private run(
    argv: string[],
    opts: {
      stdin?: Buffer;
      env?: Record<string, string>;
      guardMs: number;
      maxBytes: number;
      onStdout?: (chunk: Buffer) => void;
    },
  ): Promise<RawRun> {
    const started = performance.now();
    return new Promise((resolve) => {
      // A process group of its own, so the guard can stop everything the batch started.
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd: this.workdir,
        // Next declares NODE_ENV required on ProcessEnv; a scrubbed environment deliberately has none.
        env: this.env(opts.env) as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      const out = new CappedBuffer(opts.maxBytes);
      const err = new CappedBuffer(64 * 1024);
      child.stdout.on('data', (c: Buffer) => {
        out.push(c);
        opts.onStdout?.(c);
      });
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.stdin ?? Buffer.alloc(0));
      let hostTimedOut = false;
      const guard = setTimeout(() => {
        hostTimedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, opts.guardMs);
      child.on('error', (e) => err.push(Buffer.from(String(e))));
      child.on('close', (code, signal) => {
        clearTimeout(guard);
        resolve({
          stdout: out.toBuffer(),
          stderr: err.toBuffer(),
          exitCode: code ?? (signal ? 128 + 9 : 1),
          hostTimedOut,
          durationMs: performance.now() - started,
        });
      });
    });
  }
}
