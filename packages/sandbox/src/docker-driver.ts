import Docker from 'dockerode';
import {
  containerSpec,
  DEFAULT_LIMITS,
  removeContainer,
  SANDBOX_LABEL,
  TMP_BYTES,
  WORKDIR,
  type DockerLimits,
} from './docker-container';
import { runInWaitingContainer, startWaitingContainer, type WaitingContainer } from './docker-one-shot';
import { SESSION_CONTAINER, startSession } from './docker-session';
import { spareCpuMeter } from './spare-cpu';
import { IMAGE_RUNNER_DIR, RUNNER_FILES, RUNNER_PYTHON } from './step-runner';
import type {
  BatchRequest,
  BatchRequestIn,
  OneShotResult,
  Sandbox,
  SandboxDescription,
  SandboxDriver,
  SandboxOptions,
} from './types';

export { OBSERVER_UID, SANDBOX_LABEL, type DockerLimits } from './docker-container';

export interface DockerDriverConfig {
  image: string;
  /** Defaults to DOCKER_HOST / the local socket, as dockerode resolves it. */
  docker?: Docker;
  limits?: Partial<DockerLimits>;
  /** Labels put on every container; clean-up finds containers by them. */
  labels?: Record<string, string>;
  /**
   * Containers started ahead of need for `runOnce`. Each still runs exactly one batch and is removed
   * afterwards: the pool hides start-up latency, it never shares state between attempts.
   */
  prestart?: number;
  /** How long no one-shot container may be in use before the pool is filled back up (ms). */
  idleRefillMs?: number;
  /**
   * Whether the machine has CPU to spare now (default: a quarter of it was idle lately, see
   * spare-cpu.ts): only then does taking a container start a replacement while others are in use.
   */
  spareCpu?: () => boolean;
}

export class DockerSandboxDriver implements SandboxDriver {
  readonly docker: Docker;
  private readonly limits: DockerLimits;
  private imageId = '';
  /** Containers waiting on stdin for the one batch of a `runOnce`. */
  private readonly waiting: Promise<WaitingContainer>[] = [];
  /** Logical labels of one-shot containers in use: they were started before their attempt was known. */
  private readonly inUse = new Map<string, { labels: Record<string, string>; container: Docker.Container }>();
  private readonly removals = new Set<Promise<void>>();
  /** Containers of sandboxes from create(), removed by close() if their owner did not clean them up. */
  private readonly live = new Set<Docker.Container>();
  private closed = false;
  /** Container creations Docker has not answered yet: close() waits for them (see createContainer). */
  private readonly creating = new Set<Promise<unknown>>();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly spareCpu: () => boolean;

  constructor(private readonly config: DockerDriverConfig) {
    this.docker = config.docker ?? new Docker();
    this.limits = { ...DEFAULT_LIMITS, ...config.limits };
    this.spareCpu = config.spareCpu ?? spareCpuMeter();
  }

  /** Containers started ahead of need and not yet taken (or still starting). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Resolves the image id once; fails with a clear message when the image is missing. */
  async init(): Promise<this> {
    try {
      const info = await this.docker.getImage(this.config.image).inspect();
      this.imageId = info.Id;
    } catch (err) {
      throw new Error(
        `sandbox image ${this.config.image} is not available on the Docker ` +
          `engine (${(err as Error).message}); build it with: npm run sandbox:image`,
      );
    }
    await this.checkRunner();
    this.refill();
    return this;
  }

  /**
   * The image must hold the runner every batch and sandbox starts, or every attempt would fail one by
   * one, each as a sandbox failure. Looked at in a container that is created and never started
   * (Docker's archive API reads its file system): a few tens of milliseconds, once per driver.
   */
  private async checkRunner(): Promise<void> {
    const container = await this.createContainer({ Cmd: ['true'] });
    try {
      const missing: string[] = [];
      for (const path of [...RUNNER_FILES.map((f) => `${IMAGE_RUNNER_DIR}/${f}`), RUNNER_PYTHON]) {
        // The answer is a response stream (of a HEAD request, so empty): left open, it would keep the
        // process alive after everything else ended (a `gitbench run` that never exits).
        await container.infoArchive({ path }).then(
          (res: unknown) => (res as { destroy?: () => void } | null)?.destroy?.(),
          () => missing.push(path),
        );
      }
      if (missing.length > 0) {
        throw new Error(
          `sandbox image ${this.config.image} does not hold the step ` +
            `runner: ${missing.join(', ')} missing (an image built before the runner moved into it, ` +
            `or from another Dockerfile); build it again with: npm run sandbox:image`,
        );
      }
    } finally {
      await removeContainer(container).catch(() => undefined);
    }
  }

  describe(): SandboxDescription {
    return {
      driver: 'docker',
      image: this.config.image,
      imageId: this.imageId,
      isolated: true,
      workdir: WORKDIR,
      tmpBytes: TMP_BYTES,
    };
  }

  async create(opts: SandboxOptions = {}): Promise<Sandbox> {
    if (this.closed) throw new Error('sandbox driver is closed');
    // Created with the attempt's labels, so cancel, shutdown and the orphan sweep find it in Docker itself.
    const container = await this.createContainer(
      SESSION_CONTAINER,
      opts.labels,
      // The runner is the container's init, out of reach of the commands it runs (see step-runner.ts).
      {
        init: false,
        binds: (opts.mounts ?? []).map((m) => `${m.hostPath}:${m.containerPath}:${m.readOnly ? 'ro' : 'rw'}`),
      },
    );
    const remove = () => {
      const p = removeContainer(container).catch(() => undefined);
      this.track(p);
      return p;
    };
    try {
      return await startSession(container, {
        remove,
        onStarted: () => this.live.add(container),
        onDisposed: () => this.live.delete(container),
      });
    } catch (err) {
      await remove();
      throw err;
    }
  }

  async runOnce(
    request: BatchRequest | BatchRequestIn,
    opts: { labels?: Record<string, string> } = {},
  ): Promise<OneShotResult> {
    if (this.closed) throw new Error('sandbox driver is closed');
    const pooled = this.waiting.shift();
    if (this.waiting.length < this.lowWater() && this.spareCpu()) this.refill(this.lowWater());
    const waiting = pooled ? await pooled.catch(() => this.startWaiting()) : await this.startWaiting();
    const id = waiting.container.id;
    this.inUse.set(id, { labels: opts.labels ?? {}, container: waiting.container });
    try {
      const batch = typeof request === 'function' ? request(WORKDIR) : request;
      const result = await runInWaitingContainer(waiting, batch, WORKDIR);
      return { ...result, sandboxId: id };
    } finally {
      this.inUse.delete(id);
      // Removal is off the attempt's critical path; close() waits for it.
      this.track(removeContainer(waiting.container).catch(() => undefined));
      this.refillWhenIdle();
    }
  }

  async removeByLabels(labels: Record<string, string>): Promise<number> {
    const filters = { label: [SANDBOX_LABEL, ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)] };
    const containers = await this.docker.listContainers({ all: true, filters });
    const ids = new Set(containers.map((c) => c.Id));
    for (const [id, use] of this.inUse) {
      if (Object.entries(labels).every(([k, v]) => use.labels[k] === v)) ids.add(id);
    }
    await Promise.all([...ids].map((id) => removeContainer(this.docker.getContainer(id))));
    return ids.size;
  }

  async removeOrphans(
    key: string,
    keep: ReadonlySet<string>,
    within: Record<string, string>,
    opts: { createdBeforeMs?: number } = {},
  ): Promise<number> {
    const scope = Object.entries(within).map(([k, v]) => `${k}=${v}`);
    const containers = await this.docker.listContainers({
      all: true,
      filters: { label: [SANDBOX_LABEL, key, ...scope] },
    });
    const before = opts.createdBeforeMs ?? Infinity;
    // Docker reports creation in whole seconds: a container is spared unless its whole second is past.
    const orphans = containers.filter((c) => !keep.has(c.Labels[key] ?? '') && (c.Created + 1) * 1000 <= before);
    await Promise.all(orphans.map((c) => removeContainer(this.docker.getContainer(c.Id))));
    return orphans.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    // A creation in flight removes its own container once it sees the driver closed.
    await Promise.allSettled([...this.creating]);
    const pending = this.waiting.splice(0);
    await Promise.all(pending.map((p) => p.then((w) => removeContainer(w.container)).catch(() => undefined)));
    await Promise.all([...this.live].map((c) => removeContainer(c).catch(() => undefined)));
    await Promise.all([...this.removals]);
  }

  /**
   * While one-shot containers are in use, taking one starts another only if the pool fell below a
   * quarter of its size and the machine has CPU to spare; the rest are started once none has been in
   * use for a moment, and a take that finds the pool empty starts its own. A container start costs
   * about a tenth of a CPU-second: where attempts wait on a model's answers, the CPU is idle and the
   * replacement is ready before it is needed; where they keep every core busy (builds, a fast model),
   * a replacement started ahead would take the CPU the batches at hand are waiting for, and the last
   * ones of a campaign would never be used.
   */
  private lowWater(): number {
    return Math.ceil((this.config.prestart ?? 0) / 4);
  }

  private refillWhenIdle(): void {
    if (this.closed || this.inUse.size > 0 || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.inUse.size === 0) this.refill();
    }, this.config.idleRefillMs ?? 250);
    this.idleTimer.unref();
  }

  private refill(size = this.config.prestart ?? 0): void {
    while (!this.closed && this.waiting.length < size) {
      const p = this.startWaiting();
      p.catch(() => undefined); // surfaced when taken from the pool
      this.waiting.push(p);
    }
  }

  private startWaiting(): Promise<WaitingContainer> {
    return startWaitingContainer((spec) => this.createContainer(spec));
  }

  private track(p: Promise<void>): void {
    this.removals.add(p);
    void p.finally(() => this.removals.delete(p));
  }

  private async createContainer(
    spec: Partial<Docker.ContainerCreateOptions>,
    extraLabels?: Record<string, string>,
    { init = true, binds = [] }: { init?: boolean; binds?: string[] } = {},
  ): Promise<Docker.Container> {
    // Once close() began, no creation starts: a pooled container that failed (removed by the signal
    // handler) would otherwise be replaced by one whose creation Docker answers after the process exited.
    if (this.closed) throw new Error('sandbox driver is closed');
    const created = this.docker.createContainer(
      containerSpec(
        this.config.image,
        this.limits,
        { ...spec, Labels: { ...this.config.labels, ...extraLabels } },
        { init, binds },
      ),
    );
    // A container whose creation was answered after close() began would outlive the driver: the
    // signal handler of a stopped CLI run, or a worker's shutdown, had already listed what to remove.
    const checked = created.then(async (container) => {
      if (!this.closed) return container;
      await removeContainer(container).catch(() => undefined);
      throw new Error('sandbox driver is closed');
    });
    this.creating.add(checked);
    void checked.catch(() => undefined).finally(() => this.creating.delete(checked));
    return checked;
  }
}
