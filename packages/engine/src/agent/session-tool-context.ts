import { posix } from 'node:path';
import type { AgentLimits, ToolContext, ToolExecOptions, ToolExecRecord } from '@gitbench/core';
import type { Sandbox } from '@gitbench/sandbox';
import { toExecRecord } from '../sandbox-steps';

export interface SessionToolContextInput {
  session: Pick<Sandbox, 'exec' | 'readFile' | 'writeFile' | 'workdir'>;
  /** The repository's directory, relative to the session's workdir or absolute. */
  repoDir: string;
  limits: Pick<AgentLimits, 'commandTimeoutMs' | 'maxToolOutputBytes'>;
  signal?: AbortSignal;
}

/** The session runs every command with `bash -c`: this sends its stderr into its stdout from the start. */
const MERGE_STDERR = 'exec 2>&1\n';

/** Bytes read from a flooding command before its pipe is closed (the model sees head and tail anyway). */
const DRAIN_BYTES = 8 * 1024 * 1024;

/**
 * What tools may do to an attempt's sandbox session: one command at a time under the per-command
 * timeout (its process group is killed after it), file reads and writes relative to the repository.
 */
export function sessionToolContext(input: SessionToolContextInput): ToolContext {
  const { session, limits } = input;
  const repoDir = posix.resolve(session.workdir, input.repoDir);
  const resolve = (path: string) => posix.resolve(repoDir, path);
  const signal = input.signal ?? new AbortController().signal;
  return {
    repoDir,
    limits: { commandTimeoutMs: limits.commandTimeoutMs, maxToolOutputBytes: limits.maxToolOutputBytes },
    signal,
    async exec(command: string, options: ToolExecOptions = {}): Promise<ToolExecRecord> {
      const r = await session.exec(options.mergeStderr ? `${MERGE_STDERR}${command}` : command, {
        cwd: resolve(options.cwd ?? '.'),
        timeoutMs: options.timeoutMs ?? limits.commandTimeoutMs,
        maxOutputBytes: options.maxOutputBytes ?? limits.maxToolOutputBytes,
        drainBytes: DRAIN_BYTES,
        ...(options.env ? { env: options.env } : {}),
        ...(options.stdin !== undefined
          ? { stdin: typeof options.stdin === 'string' ? options.stdin : Buffer.from(options.stdin) }
          : {}),
      });
      return { ...toExecRecord({ ...r, id: 'tool', command }), stdoutBytes: r.stdoutBytes, stderrBytes: r.stderrBytes };
    },
    async readFile(path: string): Promise<Uint8Array | null> {
      const bytes = await session.readFile(resolve(path));
      return bytes === null ? null : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async writeFile(path: string, content: Uint8Array | string): Promise<void> {
      await session.writeFile(resolve(path), typeof content === 'string' ? content : Buffer.from(content));
    },
  };
}
