import { TamperingError } from '@gitbench/core';
import { posix } from 'node:path';
import type { RunnerConnection } from './session-protocol';
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  type BatchRequest,
  type BatchResult,
  type ExecResult,
  type ExecOptions,
  type ObservedRepoState,
  type ObserveOptions,
  type RepoStateOptions,
  type Sandbox,
  type SandboxExecResult,
  type StepRecord,
} from './types';

/** Everything a sandbox needs of its driver: the connection to its runner and how to remove the sandbox. */
export interface RunnerSandboxParts {
  id: string;
  workdir: string;
  connection: RunnerConnection;
  /** Removes the sandbox (container, directory); must be safe to call twice. */
  dispose: () => Promise<void>;
  /** Sandbox.observe, where the driver offers it (cwd resolved against the workdir by the driver). */
  observe?: (command: string, options?: ObserveOptions) => Promise<ExecResult>;
  /** Sandbox.observeRepoState, where the driver offers it. */
  observeRepoState?: (options: RepoStateOptions) => Promise<ObservedRepoState>;
}

/** A driver's sandbox: requests through the runner connection, paths resolved against the workdir. */
export class RunnerSandbox implements Sandbox {
  readonly id: string;
  readonly workdir: string;
  private readonly connection: RunnerConnection;
  private closing: Promise<void> | undefined;
  private preamble: string | undefined;

  readonly observe?: (command: string, options?: ObserveOptions) => Promise<ExecResult>;
  readonly observeRepoState?: (options: RepoStateOptions) => Promise<ObservedRepoState>;

  constructor(private readonly parts: RunnerSandboxParts) {
    this.id = parts.id;
    this.workdir = parts.workdir;
    this.connection = parts.connection;
    if (parts.observe) this.observe = parts.observe;
    if (parts.observeRepoState) this.observeRepoState = parts.observeRepoState;
  }

  private resolve(path: string): string {
    return posix.resolve(this.workdir, path);
  }

  async restore(tar: Buffer, dir = this.workdir): Promise<void> {
    const r = await this.connection.exec('tar -x -f -', {
      cwd: this.resolve(dir),
      stdin: tar,
      timeoutMs: 120_000,
      maxOutputBytes: 64 * 1024,
    });
    if (r.exitCode !== 0)
      throw new Error(
        `restoring the archive into ${dir} failed (exit ${r.exitCode}): ${r.stderr.trim().slice(0, 500)}`,
      );
  }

  async applyPreamble(preamble: string): Promise<void> {
    if (this.preamble === preamble) return;
    const r = await this.connection.exec(`${preamble}\nenv -0`, {
      cwd: this.workdir,
      timeoutMs: 30_000,
      maxOutputBytes: 1024 * 1024,
    });
    if (r.exitCode !== 0 || r.truncated)
      throw new Error(
        `the session's environment could not be set up (exit ${r.exitCode}): ${r.stderr.trim().slice(0, 500)}`,
      );
    const env: Record<string, string> = {};
    for (const item of r.stdout.split('\0')) {
      const eq = item.indexOf('=');
      // Bash's own bookkeeping variables are not the environment a command should start with.
      if (
        eq > 0 &&
        /^[A-Za-z_][A-Za-z0-9_]*$/.test(item.slice(0, eq)) &&
        !['_', 'SHLVL', 'PWD', 'OLDPWD'].includes(item.slice(0, eq))
      ) {
        env[item.slice(0, eq)] = item.slice(eq + 1);
      }
    }
    await this.connection.setEnv(env);
    this.preamble = preamble;
  }

  exec(command: string, options: ExecOptions = {}): Promise<SandboxExecResult> {
    return this.connection.exec(command, { ...options, cwd: this.resolve(options.cwd ?? '.') });
  }

  readRepoState(options: RepoStateOptions): Promise<{ stdout: string; timedOut: boolean }> {
    return this.connection.repoState({ ...options, cwd: this.resolve(options.cwd) });
  }

  readFile(path: string, options: { maxBytes?: number } = {}): Promise<Buffer | null> {
    return this.connection.readFile(this.resolve(path), options.maxBytes);
  }

  writeFile(path: string, content: Buffer | string): Promise<void> {
    return this.connection.writeFile(
      this.resolve(path),
      Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    );
  }

  async runBatch(request: BatchRequest): Promise<BatchResult> {
    const started = performance.now();
    if (request.restoreTar) throw new Error('a sandbox restores with restore(), not through a batch');
    // The sandbox's runner runs commands only; running the command without its code would print
    // something else than the step asks for, silently.
    const withPython = request.groups.flatMap((g) => g.steps).find((s) => s.thenPython !== undefined);
    if (withPython)
      throw new Error(
        `a sandbox runs commands only: step ${withPython.id} has thenPython (run a standalone command instead)`,
      );
    const groups: StepRecord[][] = request.groups.map(() => []);
    const stoppedAt: (number | undefined)[] = request.groups.map(() => undefined);
    const ok: boolean[] = [];
    let aborted: string | undefined;
    let tampering: string | undefined;
    try {
      if (request.preamble) await this.applyPreamble(request.preamble);
      for (const [g, group] of request.groups.entries()) {
        if (group.requires !== undefined && !ok[group.requires]) {
          ok.push(false);
          continue;
        }
        let allOk = true;
        for (const step of group.steps) {
          const cwd = posix.resolve(this.resolve(request.cwd ?? this.workdir), step.cwd ?? '.');
          const r = await this.exec(step.command, {
            cwd,
            timeoutMs: step.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            maxOutputBytes: step.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
            ...(request.env || step.env ? { env: { ...request.env, ...step.env } } : {}),
          });
          groups[g]!.push({
            id: step.id,
            command: step.command,
            exitCode: r.exitCode,
            stdout: r.stdout,
            stderr: r.stderr,
            timedOut: r.timedOut,
            truncated: r.truncated,
            durationMs: r.durationMs,
          });
          if (r.exitCode !== 0) {
            allOk = false;
            if (group.stopOnFailure) {
              stoppedAt[g] = groups[g]!.length - 1;
              break;
            }
          }
        }
        ok.push(allOk);
      }
    } catch (err) {
      aborted = `sandbox session failed during the batch: ${(err as Error).message}`;
      if (err instanceof TamperingError) tampering = err.message;
    }
    return {
      groups,
      stoppedAt,
      ...(aborted ? { aborted } : {}),
      ...(tampering ? { tampering } : {}),
      durationMs: performance.now() - started,
    };
  }

  cleanup(): Promise<void> {
    this.closing ??= (async () => {
      await this.connection.quit().catch(() => undefined);
      await this.parts.dispose();
    })();
    return this.closing;
  }
}
