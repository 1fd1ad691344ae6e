import { TamperingError } from '@gitbench/core';
import { posix } from 'node:path';
import type Docker from 'dockerode';
import type { RawRun } from './batch-script';
import { CappedBuffer } from './capped-buffer';
import { DockerDemuxer } from './demux';
import { OBSERVER_UID, UID, WORKDIR } from './docker-container';
import { IMAGE_RUNNER_DIR, KILL_GRACE_S, RUNNER_PYTHON } from './step-runner';
import type { ExecResult, ObservedRepoState, ObserveOptions, RepoStateOptions } from './types';

interface DockerRunOptions {
  env?: Record<string, string>;
  guardMs: number;
  maxBytes: number;
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
    Env: opts.env ? Object.entries(opts.env).map(([k, v]) => `${k}=${v}`) : undefined,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const out = new CappedBuffer(opts.maxBytes);
  const err = new CappedBuffer(64 * 1024);
  const demux = new DockerDemuxer(
    (c) => out.push(c),
    (c) => err.push(c),
  );
  stream.on('data', (c: Buffer) => demux.push(c));
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
 * Runs the command under `timeout`, then kills every other process of OBSERVER_UID, with its exit status.
 * The repository's read (observeRepoStateIn) starts no program of the model's: git's processes only,
 * with every filter key of the repository and of each submodule it looks into set empty. Anything else
 * a command leaves as the observer's uid, which the runner's sweep of the sandbox's uid does not reach,
 * ends here: kill(-1) reaches every process of the uid at once (none can fork past it); observations
 * are one at a time, so it ends none of the observer's own.
 */
const OBSERVE_AND_SWEEP = 'timeout -s KILL "$1" bash -c "$2"; s=$?; kill -9 -1 2>/dev/null; exit $s';

/**
 * Sandbox.observe: a `docker exec` as OBSERVER_UID beside the sandbox's runner, whose own
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
    ['bash', '-c', OBSERVE_AND_SWEEP, 'observe', `${Math.max(1, Math.ceil(timeoutMs / 1000))}`, command],
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

/** observe.py's exit statuses, as runner/observe.py names them (TAMPERED, UNOBSERVED). */
const OBSERVE_VERDICTS: Record<number, 'read' | 'timed_out' | 'tampering' | 'unobserved'> = {
  0: 'read',
  124: 'timed_out',
  86: 'tampering',
  87: 'unobserved',
};

/**
 * Sandbox.observeRepoState: the session runner's read of the repository (runner/repo_state.py), run on
 * its own by runner/observe.py beside the runner, as root with the sandbox's capabilities only: it
 * stops every process of the sandbox's uid, reads as OBSERVER_UID, then kills what the read left and
 * lets the sandbox's processes go on. The read's deadline is its own; observe.py ends the reader by the
 * read's grace twice over after it, so a slow read says it timed out (exit 124) with what it read. If
 * the host's guard gives up first, or observe.py fails, the host does observe.py's last steps itself
 * (--thaw), so the agent is not left stopped. observe.py compares the kernel's counts of each thread's
 * context switches before and after the read: a read during which a process of the sandbox's uid ran
 * (continued by a signal the kernel sent it) is tampering, and its processes are killed then; a read it
 * cannot judge is withheld (unobserved).
 */
export async function observeRepoStateIn(
  container: Docker.Container,
  options: RepoStateOptions,
): Promise<ObservedRepoState> {
  const previousTree = (options.previousTree ?? '').replace(/[^0-9a-f]/g, '');
  const observe = [RUNNER_PYTHON, '-I', '-S', `${IMAGE_RUNNER_DIR}/observe.py`];
  const readMs = options.timeoutMs + 2 * KILL_GRACE_S * 1000;
  const ids = [`${UID}`, `${OBSERVER_UID}`];
  const argv = [...observe, ...ids, previousTree, `${Math.floor(options.diffBytes)}`];
  const raw = await dockerRun(container, [...argv, `${options.timeoutMs / 1000}`, `${KILL_GRACE_S}`], {
    user: '0:0',
    cwd: posix.resolve(WORKDIR, options.cwd ?? '.'),
    env: { PATH: '/usr/bin:/bin', ...options.env },
    guardMs: readMs + 5_000,
    maxBytes: options.maxOutputBytes,
  });
  // observe.py's own exits let the sandbox's processes go on (or killed them). After anything else
  // (the host's guard, a failure to fork with the sandbox's processes at their limit) the host does.
  const verdict = raw.hostTimedOut ? undefined : OBSERVE_VERDICTS[raw.exitCode];
  if (verdict === undefined)
    await dockerRun(container, [...observe, '--thaw', ...ids], { user: '0:0', guardMs: 10_000, maxBytes: 1024 });
  if (verdict === 'tampering' || verdict === 'unobserved') {
    const said = raw.stderr.toString('utf8').match(new RegExp(`^gitbench observer: ${verdict}: (.*)$`, 'm'))?.[1];
    const reason = said ?? `observe.py exited ${raw.exitCode}`;
    if (verdict === 'tampering') throw new TamperingError(`the observer's read of the repository: ${reason}`);
    return { stdout: '', timedOut: false, unobserved: reason };
  }
  return {
    stdout: raw.stdout.toString('utf8'),
    timedOut: raw.hostTimedOut || raw.exitCode === 124 || raw.exitCode === 137,
  };
}
