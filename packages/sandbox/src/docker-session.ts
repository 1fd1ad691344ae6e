import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { TamperingError } from '@gitbench/core';
import { CappedBuffer } from './capped-buffer';
import { DockerDemuxer } from './demux';
import { WORKDIR } from './docker-container';
import { observeIn, observeRepoStateIn } from './docker-observe';
import { RunnerSandbox } from './runner-sandbox';
import { RunnerConnection } from './session-protocol';
import { IMAGE_RUNNER, KILL_GRACE_S, SANDBOX_UID } from './step-runner';

/**
 * A session sandbox's container: the session runner is its init, serving requests on the attached
 * stdin and stdout until the container stops.
 */
export const SESSION_CONTAINER: Partial<Docker.ContainerCreateOptions> = {
  Cmd: ['python3', '-I', '-S', `${IMAGE_RUNNER.dir}/session.py`, 'serve', String(KILL_GRACE_S), String(SANDBOX_UID)],
  OpenStdin: true,
  StdinOnce: false,
  AttachStdin: true,
  AttachStdout: true,
  AttachStderr: true,
};

/** What the driver does around a session: remove its container, and know which are live. */
export interface SessionHooks {
  remove: () => Promise<void>;
  onStarted: () => void;
  onDisposed: () => void;
}

/**
 * Attaches to a created session container and starts it; the sandbox its runner serves ends, with why,
 * when the container stops (a TamperingError when the agent's processes ran its memory out).
 */
export async function startSession(container: Docker.Container, hooks: SessionHooks): Promise<RunnerSandbox> {
  const stream = (await container.attach({
    stream: true,
    stdin: true,
    stdout: true,
    stderr: true,
    hijack: true,
  })) as Duplex;
  const stderr = new CappedBuffer(16 * 1024);
  const connection = new RunnerConnection(
    (bytes) => stream.write(bytes),
    () => void hooks.remove(),
  );
  const demux = new DockerDemuxer(
    (c) => connection.push(c),
    (c) => stderr.push(c),
  );
  stream.on('data', (c: Buffer) => demux.push(c));
  stream.on('error', () => undefined);
  const ended = async () => {
    const said = stderr.toBuffer().toString('utf8').trim().slice(-300);
    const reason = `the container stopped${said ? `: ${said}` : ''}`;
    // Read before anyone removes the container. Its runner died for memory: the agent's processes
    // filled it after lowering the OOM score every command starts with (see runner/common.py).
    const state = await container.inspect().then(
      (i) => i.State,
      () => undefined,
    );
    if (state?.OOMKilled && state.ExitCode === 137)
      connection.end(reason, new TamperingError(`the sandbox's memory ran out and its runner was killed (${reason})`));
    else connection.end(reason);
  };
  stream.once('end', () => void ended());
  stream.once('close', () => void ended());
  await container.start();
  hooks.onStarted();
  return new RunnerSandbox({
    id: container.id,
    workdir: WORKDIR,
    connection,
    observe: (command, options) => observeIn(container, command, options),
    observeRepoState: (options) => observeRepoStateIn(container, options),
    dispose: async () => {
      hooks.onDisposed();
      stream.destroy();
      await hooks.remove();
    },
  });
}
