import { shellQuote } from '@gitbench/core';
import { type ExecOptions, type ExecResult, type Sandbox } from './types';

/**
 * A single command is a batch of one step, so single commands and batches share one implementation of
 * timeouts, output caps and process-group clean-up. Input for the command is staged in a file first.
 */
export async function execViaBatch(sandbox: Sandbox, command: string, options: ExecOptions): Promise<ExecResult> {
  let cmd = command;
  if (options.stdin !== undefined) {
    const staged = await sandbox.runBatch({
      restoreTar: undefined,
      groups: [{ stopOnFailure: true, steps: [{ id: 'stdin', command: 'mktemp "${TMPDIR:-/tmp}/gbin.XXXXXX"' }] }],
    });
    const path = staged.groups[0]?.[0]?.stdout.trim();
    if (!path) throw new Error('could not stage stdin in the sandbox');
    await stageFile(sandbox, path, options.stdin);
    cmd = `{ ${command}\n} < ${shellQuote(path)}`;
  }
  const result = await sandbox.runBatch({
    cwd: options.cwd,
    env: options.env,
    groups: [
      {
        stopOnFailure: false,
        steps: [{ id: 'exec', command: cmd, timeoutMs: options.timeoutMs, maxOutputBytes: options.maxOutputBytes }],
      },
    ],
  });
  const record = result.groups[0]?.[0];
  if (!record) {
    return {
      exitCode: 125,
      stdout: '',
      stderr: result.aborted ?? 'the command produced no record',
      timedOut: Boolean(result.aborted),
      truncated: false,
      durationMs: Math.round(result.durationMs),
    };
  }
  return {
    exitCode: record.exitCode,
    stdout: record.stdout,
    stderr: record.stderr,
    timedOut: record.timedOut,
    truncated: record.truncated,
    durationMs: record.durationMs,
  };
}

/** Writes bytes to a file in the sandbox through a one-entry tar archive. */
async function stageFile(sandbox: Sandbox, path: string, content: Buffer | string): Promise<void> {
  const { pack } = await import('tar-stream');
  const p = pack();
  const slash = path.lastIndexOf('/');
  p.entry({ name: path.slice(slash + 1), mode: 0o600 }, Buffer.from(content));
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const c of p) chunks.push(c as Buffer);
  await sandbox.copyIn(Buffer.concat(chunks), path.slice(0, slash) || '/');
}
