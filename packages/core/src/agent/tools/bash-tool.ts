import { z } from 'zod';
import { CAP_NOTE, defineTool, type ToolExecRecord } from '../tool-set';

/**
 * Git never waits for a person inside an agent's sandbox: no pager, no editor, no credential prompt.
 * Set on every bash tool command (the sandbox's own pinned environment stays underneath).
 */
export const AGENT_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
};

/** How to see what a cut left out of a command's output. */
export const BASH_TRUNCATION_HINT =
  "run it again narrowed (head, tail, sed -n 'FROM,TOp', grep), or redirect it to a file and print that in parts";

/**
 * What the model is shown of one command: its output (stderr merged into stdout in the order written,
 * see bashTool; a stderr the sandbox kept apart follows), what the sandbox cut, and always the exit
 * code (0 included) or the timeout.
 */
export function formatCommandOutput(record: ToolExecRecord, timeoutMs: number): string {
  const parts: string[] = [];
  if (record.stdout !== '') parts.push(record.stdout.replace(/\n$/, ''));
  if (record.stderr !== '') parts.push(record.stderr.replace(/\n$/, ''));
  if (parts.length === 0) parts.push('[no output]');
  if (record.truncated) parts.push(`[output cut in the middle to fit the limit: ${BASH_TRUNCATION_HINT}]`);
  parts.push(
    record.timedOut ? `[timed out after ${timeoutMs} ms; the command was killed]` : `[exit code ${record.exitCode}]`,
  );
  return parts.join('\n');
}

export const bashArgs = z.object({ command: z.string().min(1, 'command must not be empty') }).strict();

export const bashTool = defineTool<z.infer<typeof bashArgs>>({
  name: 'bash',
  description:
    'Run one bash command in the repository root and return its output (stdout and stderr ' +
    'together, in the order they were written) and its exit code, always shown (0 included). ' +
    'Each call starts a fresh shell in the repository root; nothing ' +
    'is interactive (no pager, no editor); the network is off. ' +
    'Every process a command started is killed when it ends: nothing keeps running in the background between calls. ' +
    `${CAP_NOTE}: to see the rest, ${BASH_TRUNCATION_HINT}.`,
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The bash command to run, e.g. `git log --oneline -5`.' } },
    required: ['command'],
    additionalProperties: false,
  },
  args: bashArgs,
  truncationHint: BASH_TRUNCATION_HINT,
  async run(args, ctx) {
    const timeoutMs = ctx.limits.commandTimeoutMs;
    // Both streams in the order they were written: an early error is not printed after all of the output.
    const record = await ctx.exec(args.command, { timeoutMs, env: { ...AGENT_GIT_ENV }, mergeStderr: true });
    return {
      output: formatCommandOutput(record, timeoutMs),
      isError: record.timedOut || record.exitCode !== 0,
      exitCode: record.exitCode,
      timedOut: record.timedOut,
      commands: [record],
      // The sandbox kept head and tail of each stream: the full size is what the trajectory records.
      ...(record.truncated ? { outputBytes: record.stdoutBytes + record.stderrBytes } : {}),
    };
  },
});
