import { ToolRefusal, type ToolContext } from '@gitbench/core';

/**
 * A file as the agent left it, or null when it left none a read can return: missing, or refused (a
 * directory, a FIFO, too large), which the model chose, so the file counts as absent, not as the
 * sandbox failing.
 */
export async function readLeftFile(ctx: ToolContext, name: string): Promise<string | null> {
  try {
    const bytes = await ctx.readFile(name);
    return bytes === null ? null : decoder.decode(bytes);
  } catch (error) {
    if (error instanceof ToolRefusal) return null;
    throw error;
  }
}

/** A single text that a resolved_file_blocks scorer reads: the files as the agent left them. */
export function filesAsBlocks(files: [string, string | null][]): string {
  const present = files.filter((f): f is [string, string] => f[1] !== null);
  if (files.length === 1) return present[0]?.[1] ?? '';
  return present.map(([name, content]) => `--- ${name}\n${content.replace(/\n$/, '')}\n`).join('\n');
}

const decoder = new TextDecoder();
