/**
 * What every sandbox driver offers, modelled on Inspect's SandboxEnvironment: a driver (the environment
 * level) makes a Sandbox for one attempt and says what it is; the Sandbox runs commands, reads and
 * writes files, runs a fixture's batches of steps, and is removed by its cleanup(). Attempts only ever
 * talk to these interfaces.
 */
export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

/** One command of a batch. Each step gets its own timeout, output cap and process group. */
export interface BatchStep {
  id: string;
  command: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  /** Directory to run in, relative to the batch's directory (after the restore). Default: the batch's. */
  cwd?: string;
  /** Set for this step only, over the batch's environment (the scorer's look-ups: core's lookupEnvironment). */
  env?: Record<string, string>;
  /**
   * Python source the step runner executes in its own process after the command exited 0 by itself,
   * with the step's directory as the current directory, a fresh globals dict, and `out` a byte stream
   * whose bytes are appended to the step's stdout, under the same output cap (past it, a write raises
   * BrokenPipeError, as a command's write to its closed pipe fails). It spares a python3 start for work
   * that a step would otherwise start one for. An exception ends the step with exit code 1 and its
   * traceback on stderr; the step's timeout covers the command and the code together, and its
   * duration includes both. The code runs inside the runner: it is the caller's own code, never an
   * answer's, and should change nothing of the process but what it writes. runOnce only: a Sandbox's
   * runBatch runs commands alone and refuses such a step.
   */
  thenPython?: string;
}

export interface BatchGroup {
  steps: BatchStep[];
  /** Skip the rest of the group after the first step that exits non-zero (answer commands). */
  stopOnFailure: boolean;
  /**
   * Index of an earlier group that must have run every one of its steps with exit 0, else this
   * group is skipped whole (no records): one batch can then build many things, each guarded by its
   * own set-up, without one failure stopping the others.
   */
  requires?: number;
}

export interface BatchRequest {
  /** A tar archive unpacked into the working directory before the first step (runOnce only: else restore()). */
  restoreTar?: Buffer;
  groups: BatchGroup[];
  /** Bash run in the batch's shell after the restore, before the steps: exports reach every step. */
  preamble?: string;
  cwd?: string;
  env?: Record<string, string>;
  /**
   * Told each step's record as soon as the step ended, while later steps still run (runOnce; the
   * result holds the same records). A batch that builds many things hands each over
   * the moment it is built.
   */
  onRecord?: (group: number, record: StepRecord) => void;
}

/**
 * A batch that names the sandbox's workspace path (a build's look-ups read ahead do), made once the
 * sandbox is known: the local driver's sandboxes each have their own (SandboxDescription.workdir).
 */
export type BatchRequestIn = (workdir: string) => BatchRequest;

export interface StepRecord extends ExecResult {
  id: string;
  command: string;
}

export interface BatchResult {
  /** One list per group, in order; a step that did not run has no record. */
  groups: StepRecord[][];
  /** Index, per group, of the step that failed and stopped its group. */
  stoppedAt: (number | undefined)[];
  /** Set when the batch as a whole could not finish (restore failed, a step escaped its timeout). */
  aborted?: string;
  /**
   * Set (with aborted) when the runner's output broke its protocol (see batch-output-reader.ts):
   * once the model's commands ran, only they can have caused it.
   */
  tampering?: string;
  /**
   * Set (with aborted) when the runner died of SIGKILL before the batch's end and the driver knows
   * why: 'out_of_memory' when Docker says the container's memory ran out (State.OOMKilled; on cgroup
   * v1 only the container's own limit sets it), else 'signal', a kill from outside the sandbox, since
   * no process inside may signal the runner (runner/common.py). The host's own guard is not a kill here.
   */
  killed?: 'out_of_memory' | 'signal';
  durationMs: number;
}

export interface SandboxDescription {
  driver: 'docker' | 'local';
  /** Image tag and content id for docker; 'host' for the local driver. */
  image: string;
  imageId: string;
  isolated: boolean;
  /**
   * The workspace directory, where every sandbox of the driver has the same one (Docker's /work);
   * absent where each sandbox has its own (the local driver's temporary directories).
   */
  workdir?: string;
  /**
   * The size of the sandbox's /tmp where the driver caps it (Docker's is a tmpfs in the container's memory);
   * absent where /tmp is the host's (the local driver).
   */
  tmpBytes?: number;
}

export interface OneShotResult extends BatchResult {
  /** The sandbox the batch ran in (a container id for Docker), for the attempt's evidence. */
  sandboxId: string;
}

export interface ExecOptions {
  /** Wall-clock limit; the command's process group gets TERM, then KILL after a grace. Default 30 s. */
  timeoutMs?: number;
  /** Bytes of stdout and of stderr kept, half from the head and half from the tail; the sizes are counted in full. */
  maxOutputBytes?: number;
  /** Bytes read from a stream before its pipe is closed, so a flood stops its writer. */
  drainBytes?: number;
  /** Relative to the sandbox's workdir, or absolute. */
  cwd?: string;
  /** Added to the sandbox's environment for this command only. */
  env?: Record<string, string>;
  stdin?: Buffer | string;
}

/** A read of the repository's state (RunnerConnection.repoState, Sandbox.readRepoState). */
export interface RepoStateOptions {
  /** The repository's directory (relative to the sandbox's workdir, or absolute). */
  cwd: string;
  /** The previous read's tree, diffed against; null at the first read. */
  previousTree: string | null;
  /** Bytes of the diff kept; its full size is printed. */
  diffBytes: number;
  /** Added to the session's environment for the read's git processes (the look-ups' environment). */
  env?: Record<string, string>;
  /** For the whole read: past it, it stops and says it timed out. */
  timeoutMs: number;
  maxOutputBytes: number;
  /**
   * Read in full even where the runner could answer from its last read of an unchanged repository
   * (runner/repo_memo.py), as a check or a measurement of that answer does; the state is the same.
   */
  fullRead?: boolean;
}

export interface SandboxExecResult extends ExecResult {
  /** The shell exited by itself (not killed by its timeout or a signal). */
  finished: boolean;
  /** Sizes of the full output streams before capping. */
  stdoutBytes: number;
  stderrBytes: number;
}

/**
 * One attempt's sandbox (Inspect's SandboxEnvironment): many commands, file reads and writes over time
 * (an agent's tool calls), then the scorer's probes, then cleanup. A long-lived runner inside answers
 * each request, so a command costs a few milliseconds instead of a process start in the sandbox engine.
 */
export interface Sandbox {
  readonly id: string;
  /** Where the repository workspace lives inside the sandbox. */
  readonly workdir: string;
  /** Unpacks a tar archive into `dir` (default: workdir). */
  restore(tar: Buffer, dir?: string): Promise<void>;
  /** Runs `preamble` once in bash and makes the environment it exports every later command's. */
  applyPreamble(preamble: string): Promise<void>;
  exec(command: string, options?: ExecOptions): Promise<SandboxExecResult>;
  /**
   * The file's bytes exactly, or null when it does not exist. Relative paths are under workdir. A file
   * of more than `maxBytes` (default 64 MiB) is refused with FileTooLargeError; the sandbox goes on.
   */
  readFile(path: string, options?: { maxBytes?: number }): Promise<Buffer | null>;
  /** Writes bytes exactly; creates parent directories. */
  writeFile(path: string, content: Buffer | string): Promise<void>;
  /** The batch's steps run one after another here (no restoreTar, no thenPython; a preamble is applied once). */
  runBatch(request: BatchRequest): Promise<BatchResult>;
  /** Stops the runner and removes the sandbox; idempotent (Inspect's sample_cleanup). */
  cleanup(): Promise<void>;
  /**
   * The repository's state after an agent's step, as the engine's repository-state script prints it,
   * read by the runner in one request that starts git's processes alone (RunnerConnection.repoState).
   * `cwd` is relative to workdir, or absolute. Absent where no runner serves it.
   */
  readRepoState?(options: RepoStateOptions): Promise<{ stdout: string; timedOut: boolean }>;
  /**
   * Runs a command beside the runner, while a request of the sandbox may still be running (a
   * third-party agent's whole run is one request): as OBSERVER_UID, which owns nothing in the sandbox
   * and which no process of the sandbox's uid can signal, with no shell environment of the sandbox's.
   * It reads what the sandbox's uid leaves readable. Docker sandboxes only (absent elsewhere).
   */
  observe?(command: string, options?: ObserveOptions): Promise<ExecResult>;
  /**
   * readRepoState's read, run beside the runner (runner/observe.py: the same read, as OBSERVER_UID,
   * with the filter keys of the repository and of its submodules set empty, and every process of the
   * sandbox's uid stopped meanwhile). Docker sandboxes only (absent elsewhere).
   */
  observeRepoState?(options: RepoStateOptions): Promise<ObservedRepoState>;
}

/**
 * An observation's output. `unobserved` says why it was withheld: a thread of the sandbox's uid that
 * had not stopped changed, or one died, during the read, so the stop cannot be shown to have held.
 * A read during which a process of the sandbox's uid ran is no result: observeRepoState throws a
 * TamperingError, its processes killed.
 */
export interface ObservedRepoState {
  stdout: string;
  timedOut: boolean;
  unobserved?: string;
}

export interface ObserveOptions {
  /** Relative to the sandbox's workdir, or absolute. */
  cwd?: string;
  /** The whole environment of the command (nothing of the sandbox's or the image's is added but PATH). */
  env?: Record<string, string>;
  /** Default 30 s; the command is killed after it. */
  timeoutMs?: number;
  /** Bytes of stdout kept (the rest is discarded and the result marked truncated). Default 4 MiB. */
  maxOutputBytes?: number;
}

/** A host directory bind-mounted into a sandbox (the model gateway's socket directory). */
export interface SandboxMount {
  hostPath: string;
  containerPath: string;
  readOnly?: boolean;
}

export interface SandboxOptions {
  /** Found by cancel, shutdown and the orphan sweep. */
  labels?: Record<string, string>;
  /** Docker only: a driver that cannot mount refuses the sandbox. */
  mounts?: SandboxMount[];
}

export interface SandboxDriver {
  describe(): SandboxDescription;
  /** A fresh sandbox for one attempt (Inspect's sample_init); its cleanup() removes it. */
  create(opts?: SandboxOptions): Promise<Sandbox>;
  /**
   * create(), restore, runBatch and cleanup() in one: one batch in a fresh sandbox used for nothing
   * else, which is then removed. Removal may finish after this returns (close() waits for it). A single
   * answer goes through here: it is each driver's cheapest way to a fresh sandbox (Docker takes a
   * container started ahead of need, whose one process reads the batch; see docker-one-shot.ts), and
   * the only batch that takes restoreTar and thenPython.
   */
  runOnce(request: BatchRequest | BatchRequestIn, opts?: { labels?: Record<string, string> }): Promise<OneShotResult>;
  /** Removes every sandbox this driver family created with the given labels (shutdown, cancel). */
  removeByLabels(labels: Record<string, string>): Promise<number>;
  /**
   * Removes sandboxes that carry all of the `within` labels and `key` with a value not in `keep`: the
   * leftovers of an owner that died without cleaning up (a worker killed with SIGKILL leaves its
   * pre-started containers). `within` keeps one deployment from removing another's on a shared engine.
   * `createdBeforeMs` (epoch ms) spares younger sandboxes: an owner that has just started may not yet
   * be known to be alive.
   */
  removeOrphans(
    key: string,
    keep: ReadonlySet<string>,
    within: Record<string, string>,
    opts?: { createdBeforeMs?: number },
  ): Promise<number>;
  /** Releases what the driver holds (pre-created sandboxes, pending removals). Idempotent (Inspect's task_cleanup). */
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
