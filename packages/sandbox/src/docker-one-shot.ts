import type Docker from 'dockerode';
import type { Duplex } from 'node:stream';
import { buildBatch, parseBatch, STDIN_BOOT, streamingReader } from './batch-script';
import { CappedBuffer } from './capped-buffer';
import { DockerDemuxer } from './demux';
import { IMAGE_RUNNER } from './step-runner';
import type { BatchRequest, BatchResult } from './types';

/**
 * A container started ahead of need whose only process is waiting on stdin for one batch. Using it
 * costs one write and one read on a connection that is already open: no `exec` round trips, and the
 * container's start-up is off the attempt's critical path. It runs exactly one batch and is then
 * removed, so nothing an attempt does can be seen by another.
 */
export interface WaitingContainer {
  container: Docker.Container;
  stream: Duplex;
  /** Output gathered from the moment of attach (the process prints nothing before its batch). */
  out: CappedBuffer;
  err: CappedBuffer;
  demux: DockerDemuxer;
  ended: Promise<void>;
  /** Whom to tell each stdout chunk as it arrives: a batch that wants its records as they end. */
  listen(onStdout: ((chunk: Buffer) => void) | undefined): void;
}

export const ONE_SHOT_CMD = ['bash', '-c', STDIN_BOOT];
/** Output kept before a batch is known: the stdin boot prints nothing, so anything is an anomaly. */
const MAX_ONE_SHOT_BYTES = 512 * 1024 * 1024;

/** Creates, attaches and starts a waiting container (attach first, so no output can be missed). */
export async function startWaitingContainer(
  create: (spec: Partial<Docker.ContainerCreateOptions>) => Promise<Docker.Container>,
): Promise<WaitingContainer> {
  const container = await create({
    Cmd: ONE_SHOT_CMD,
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = (await container.attach({
    stream: true,
    stdin: true,
    stdout: true,
    stderr: true,
    hijack: true,
  })) as Duplex;
  const out = new CappedBuffer(MAX_ONE_SHOT_BYTES);
  const err = new CappedBuffer(64 * 1024);
  let listener: ((chunk: Buffer) => void) | undefined;
  const demux = new DockerDemuxer(
    (c) => {
      out.push(c);
      listener?.(c);
    },
    (c) => err.push(c),
  );
  stream.on('data', (c: Buffer) => demux.push(c));
  const ended = new Promise<void>((resolve) => {
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
    stream.once('error', () => resolve());
  });
  stream.on('error', () => undefined);
  await container.start();
  return {
    container,
    stream,
    out,
    err,
    demux,
    ended,
    listen: (onStdout) => {
      listener = onStdout;
    },
  };
}

/** Feeds the batch to a waiting container and reads its records back; the container ends with it. */
export async function runInWaitingContainer(
  w: WaitingContainer,
  request: BatchRequest,
  workdir: string,
): Promise<BatchResult> {
  const built = buildBatch(request, workdir, { viaStdin: true, runner: IMAGE_RUNNER });
  const started = performance.now();
  // Undefined when Docker did not say: an engine that went away is not a kill.
  const exited = w.container.wait().then(
    (r: { StatusCode?: number }) => r.StatusCode,
    () => undefined,
  );
  let hostTimedOut = false;
  const guard = setTimeout(() => {
    hostTimedOut = true;
    // Killing the container ends its stream; the caller removes it as always.
    w.container.kill().catch(() => undefined);
    w.stream.destroy();
  }, built.guardMs);
  const streamed = streamingReader(request);
  w.listen(streamed.onStdout);
  // Kept up to the batch's own bound, as an exec's output is: a build batch's archives may pass the
  // cap that guards the wait before a batch.
  w.out.setCap(built.maxBytes);
  w.stream.end(built.stdin);
  await w.ended;
  clearTimeout(guard);
  const status = hostTimedOut ? 137 : await exited;
  const exitCode = status ?? 137;
  // Read only when the runner did not end by itself, before the caller removes the container.
  const oomKilled =
    hostTimedOut || status === undefined || status === 0
      ? undefined
      : await w.container.inspect().then(
          (i) => i.State.OOMKilled,
          () => undefined,
        );
  const stdout = w.out.toBuffer();
  return parseBatch(
    request,
    {
      stdout: stdout.length > built.maxBytes ? stdout.subarray(0, built.maxBytes) : stdout,
      stderr: w.err.toBuffer(),
      exitCode,
      hostTimedOut,
      ...(oomKilled !== undefined ? { oomKilled } : {}),
      streamError: w.demux.leftover
        ? `the output stream was cut inside a frame (${w.demux.leftover} bytes left)`
        : undefined,
      durationMs: performance.now() - started,
    },
    streamed.reader,
  );
}
