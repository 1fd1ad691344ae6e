import { z } from 'zod';
import { defineTool, type ToolExecRecord } from '../tool-set';

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

/** What the model is shown of one command: stdout, stderr, and the exit code or timeout when they matter. */
export function formatCommandOutput(record: ToolExecRecord, timeoutMs: number): string {
  const parts: string[] = [];
  if (record.stdout !== '') parts.push(record.stdout.replace(/\n$/, ''));
  if (record.stderr !== '') parts.push(record.stderr.replace(/\n$/, ''));
  if (record.timedOut) parts.push(`[timed out after ${timeoutMs} ms; the command was killed]`);
  else if (record.exitCode !== 0) parts.push(`[exit code ${record.exitCode}]`);
  if (parts.length === 0) parts.push('[no output]');
  return parts.join('\n');
}

export const bashArgs = z.object({ command: z.string().min(1, 'command must not be empty') }).strict();

export const bashTool = defineTool<z.infer<typeof bashArgs>>({
  name: 'bash',
  description:
    'Run one bash command in the repository root and return its output (stdout, then stderr) and exit code. ' +
    'Each call starts a fresh shell in the repository root; nothing is interactive (no pager, no editor); the network is off. ' +
    'Long output is cut, keeping its beginning and end.',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The bash command to run, e.g. `git log --oneline -5`.' } },
    required: ['command'],
    additionalProperties: false,
  },
  args: bashArgs,
  async run(args, ctx) {
    const timeoutMs = ctx.limits.commandTimeoutMs;
    const record = await ctx.exec(args.command, { timeoutMs, env: { ...AGENT_GIT_ENV } });
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
