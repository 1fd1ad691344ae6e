import { z } from 'zod';
import { defineTool, type ToolContext, type ToolExecRecord } from '../../../agent/tool-set';
import { REASON_PARAMETER, decode, lineEnding, q, reason, result, run, splitLines, withEnding } from './common';
import { VIEW_FILE_HINT } from './mcr-files';

/**
 * The merge's conflicts as they are now in the working tree, numbered over what is still unresolved,
 * with the tools that show one and resolve the current one.
 */

export interface ConflictBlock {
  file: string;
  /** 1-based line of the `<<<<<<<` marker. */
  startLine: number;
  /** 1-based line of the `>>>>>>>` marker. */
  endLine: number;
  lines: string[];
}

export function conflictsInText(file: string, text: string): ConflictBlock[] {
  const lines = splitLines(text);
  const blocks: ConflictBlock[] = [];
  let start = -1;
  lines.forEach((line, i) => {
    if (line.startsWith('<<<<<<< ') || line.replace(/\r?\n$/, '') === '<<<<<<<') start = i;
    else if (start >= 0 && (line.startsWith('>>>>>>> ') || line.replace(/\r?\n$/, '') === '>>>>>>>')) {
      blocks.push({ file, startLine: start + 1, endLine: i + 1, lines: lines.slice(start, i + 1) });
      start = -1;
    }
  });
  return blocks;
}

async function unmergedFiles(ctx: ToolContext, commands: ToolExecRecord[]): Promise<string[]> {
  const rec = await run(ctx, commands, 'git diff --name-only --diff-filter=U -z');
  return rec.stdout.split('\0').filter(Boolean);
}

/** Every conflict still in the working tree, in file order then line order. */
export async function currentConflicts(ctx: ToolContext, commands: ToolExecRecord[]): Promise<ConflictBlock[]> {
  const all: ConflictBlock[] = [];
  for (const file of await unmergedFiles(ctx, commands)) {
    const bytes = await ctx.readFile(file);
    if (bytes) all.push(...conflictsInText(file, decode(bytes)));
  }
  return all;
}

async function showConflict(
  ctx: ToolContext,
  commands: ToolExecRecord[],
  index: number,
  context: number,
): Promise<{ text: string; error: boolean }> {
  const conflicts = await currentConflicts(ctx, commands);
  if (conflicts.length === 0) return { text: 'There is no merge conflict left.', error: true };
  const c = conflicts[index];
  if (!c)
    return {
      text:
        `There is no conflict at index ${index}: ${conflicts.length} ` +
        `conflict(s) remain, indexes 0-${conflicts.length - 1}.`,
      error: true,
    };
  const lines = splitLines(decode((await ctx.readFile(c.file))!));
  const from = Math.max(0, c.startLine - 1 - context);
  const to = Math.min(lines.length, c.endLine + context);
  const body = lines
    .slice(from, to)
    .map((l, i) => `${String(from + i + 1).padStart(5)}| ${l.replace(/\r?\n$/, '')}`)
    .join('\n');
  return {
    text:
      `<CONFLICT-${index}> ${c.file}, lines ${c.startLine}-${c.endLine} (${conflicts.length} ` +
      `conflict(s) remain; CONFLICT-0 is the current one)\n${body}\n</CONFLICT-${index}>`,
    error: false,
  };
}

const windowSize = z.number().int().min(0).max(500);

export const viewCurrentMergeConflictTool = defineTool({
  name: 'view_current_merge_conflict_with',
  description:
    'Show the current merge conflict (CONFLICT-0, the first one still ' +
    'unresolved) with context_window_size lines of context on each side.',
  parameters: {
    type: 'object',
    properties: {
      context_window_size: {
        type: 'integer',
        minimum: 0,
        description: 'Lines of context before and after the conflict.',
      },
      reason: REASON_PARAMETER,
    },
    required: ['context_window_size', 'reason'],
    additionalProperties: false,
  },
  args: z.object({ context_window_size: windowSize, reason }).strict(),
  truncationHint: VIEW_FILE_HINT,
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const shown = await showConflict(ctx, commands, 0, args.context_window_size);
    return result(shown.text, shown.error, commands);
  },
});

export const viewMergeConflictAtTool = defineTool({
  name: 'view_merge_conflict_at',
  description:
    'Show the unresolved merge conflict at conflict_index (0 is the current ' +
    'one; indexes count the conflicts still unresolved) with context.',
  parameters: {
    type: 'object',
    properties: {
      conflict_index: { type: 'integer', minimum: 0 },
      context_window_size: { type: 'integer', minimum: 0 },
      reason: REASON_PARAMETER,
    },
    required: ['conflict_index', 'context_window_size', 'reason'],
    additionalProperties: false,
  },
  args: z.object({ conflict_index: z.number().int().min(0), context_window_size: windowSize, reason }).strict(),
  truncationHint: VIEW_FILE_HINT,
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const shown = await showConflict(ctx, commands, args.conflict_index, args.context_window_size);
    return result(shown.text, shown.error, commands);
  },
});

export const resolveCurrentMergeConflictTool = defineTool({
  name: 'resolve_current_merge_conflict_with',
  description:
    'Replace the current merge conflict (CONFLICT-0, from its <<<<<<< line ' +
    'to its >>>>>>> line) with content. End every line with a newline. ' +
    'When a file has no conflict left it is staged; after the last conflict the merge is committed.',
  parameters: {
    type: 'object',
    properties: {
      content: { type: 'string', description: 'The resolved text that replaces the whole conflict block.' },
      reason: REASON_PARAMETER,
    },
    required: ['content', 'reason'],
    additionalProperties: false,
  },
  args: z.object({ content: z.string(), reason }).strict(),
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const conflicts = await currentConflicts(ctx, commands);
    const current = conflicts[0];
    if (!current) return result('There is no merge conflict left to resolve.', true, commands);
    const text = decode((await ctx.readFile(current.file))!);
    const lines = splitLines(text);
    const replacement = withEnding(args.content, lineEnding(text));
    const next = [...lines.slice(0, current.startLine - 1), replacement, ...lines.slice(current.endLine)].join('');
    await ctx.writeFile(current.file, next);
    const leftInFile = conflictsInText(current.file, next).length;
    const notes = [`Resolved the conflict in ${current.file} at lines ${current.startLine}-${current.endLine}.`];
    if (leftInFile === 0) {
      const add = await run(ctx, commands, `git add -- ${q(current.file)}`);
      if (add.exitCode !== 0)
        return result(`${notes[0]} Staging ${current.file} failed: ${add.stderr.trim()}`, true, commands);
      notes.push(`${current.file} has no conflict left and is staged.`);
    }
    const remaining = conflicts.length - 1;
    if (remaining > 0) {
      notes.push(`${remaining} conflict(s) remain; the next one is now CONFLICT-0.`);
      return result(notes.join(' '), false, commands);
    }
    const unmerged = await run(ctx, commands, 'git diff --name-only --diff-filter=U');
    if (unmerged.stdout.trim() !== '') {
      notes.push(
        `No conflict markers are left, but these files are still ` +
          `unmerged: ${unmerged.stdout.trim().split('\n').join(', ')}.`,
      );
      return result(notes.join(' '), true, commands);
    }
    // Git's own merge message file: no message ever passes through a shell.
    const commit = await run(ctx, commands, 'git commit -q --no-edit');
    if (commit.exitCode !== 0)
      return result(
        `${notes.join(' ')} Committing the merge failed: ${commit.stderr.trim() || commit.stdout.trim()}`,
        true,
        commands,
      );
    notes.push('That was the last conflict: the merge is committed.');
    return result(notes.join(' '), false, commands);
  },
});
