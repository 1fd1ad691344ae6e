import { z } from 'zod';
import { CAP_NOTE, defineTool, type ToolContext, type ToolExecRecord, type ToolSet } from '../../../agent/tool-set';
import {
  LINE_RANGE_ARGS,
  LINE_RANGE_PARAMETERS,
  lineRange,
  RANGE_TRUNCATION_HINT,
} from '../../../agent/tools/editor-tools';
import { submitTool } from '../../../agent/tools/submit-tool';
import { REASON_PARAMETER, decode, lineEnding, q, reason, result, run, splitLines, withEnding } from './common';

/**
 * GitGoodBench's merge conflict resolution tools. Every view reads the repository as it is now (the
 * released code showed files as they were at setup), conflicts are numbered over what is still
 * unresolved (index 0 is always the current conflict, so indexes never point at a conflict that is
 * gone), files keep their line endings, and the merge is committed with Git's own message file.
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

/** The conflict and diff views cannot page; view_file_at reads any part of a file. */
const VIEW_FILE_HINT = 'view_file_at shows any part of a file by lines (offset and limit)';

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

const pathArg = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'must be a path inside the repository');

/** The paper's path argument (`relative_path_from_project_root`) and the reason. */
const PATH_TOOL = {
  parameters: {
    type: 'object' as const,
    properties: { relative_path_from_project_root: { type: 'string' }, reason: REASON_PARAMETER },
    required: ['relative_path_from_project_root', 'reason'],
    additionalProperties: false,
  },
  args: z.object({ relative_path_from_project_root: pathArg, reason }).strict(),
};

export const viewDiffForTool = defineTool({
  name: 'view_diff_for',
  // The two sides are named as the conflict markers name them (`<<<<<<< HEAD`, `>>>>>>> incoming`).
  description: 'Show the full diff of a file from HEAD (the local side) to incoming (the branch being merged).',
  ...PATH_TOOL,
  truncationHint: VIEW_FILE_HINT,
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const rec = await run(
      ctx,
      commands,
      `git diff --no-color --no-ext-diff HEAD MERGE_HEAD -- ${q(args.relative_path_from_project_root)}`,
    );
    if (rec.exitCode !== 0) return result(`git diff failed: ${rec.stderr.trim()}`, true, commands);
    return result(
      rec.stdout === '' ? 'No difference between the two sides for this file.' : rec.stdout,
      false,
      commands,
    );
  },
});

export const viewFileAtTool = defineTool({
  name: 'view_file_at',
  description:
    'Show a file as it is now in the working tree (with the conflicts still ' +
    'unresolved and the resolutions made so far); with offset and limit ' +
    'only those lines (followed by a line saying which lines of how many). ' +
    `${CAP_NOTE}: to see the rest, ${RANGE_TRUNCATION_HINT}.`,
  parameters: {
    ...PATH_TOOL.parameters,
    // Not in the paper's tool: a large file could not be read past the cut.
    properties: { ...PATH_TOOL.parameters.properties, ...LINE_RANGE_PARAMETERS },
  },
  args: z.object({ relative_path_from_project_root: pathArg, reason, ...LINE_RANGE_ARGS }).strict(),
  truncationHint: RANGE_TRUNCATION_HINT,
  async run(args, ctx) {
    const bytes = await ctx.readFile(args.relative_path_from_project_root);
    if (!bytes) return result(`${args.relative_path_from_project_root} does not exist.`, true, []);
    return result(lineRange(decode(bytes), args), false, []);
  },
});

export const viewMergeBaseOfTool = defineTool({
  name: 'view_merge_base_of',
  description:
    'Show a file as it was in the merge base, the common ancestor both sides changed it from ' +
    '(the base section of a diff3-style conflict); with offset and limit only those lines. ' +
    `${CAP_NOTE}: to see the rest, ${RANGE_TRUNCATION_HINT}.`,
  // Not in the paper's tool set: without it the agent saw both sides but never what they started from.
  parameters: { ...PATH_TOOL.parameters, properties: { ...PATH_TOOL.parameters.properties, ...LINE_RANGE_PARAMETERS } },
  args: z.object({ relative_path_from_project_root: pathArg, reason, ...LINE_RANGE_ARGS }).strict(),
  truncationHint: RANGE_TRUNCATION_HINT,
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const path = args.relative_path_from_project_root;
    // Stage 1 of an unmerged file is the base Git merged from (with several merge bases, the one it
    // built from them); once the file is staged, the merge base commit's version is read instead.
    let rec = await run(ctx, commands, `git show ${q(`:1:${path}`)}`);
    if (rec.exitCode !== 0) {
      const base = await run(ctx, commands, 'git merge-base HEAD MERGE_HEAD');
      if (base.exitCode !== 0)
        return result('There is no merge in progress, so there is no merge base to show.', true, commands);
      const commit = base.stdout.trim();
      if ((await run(ctx, commands, `git cat-file -e ${q(`${commit}:${path}`)}`)).exitCode !== 0) {
        return result(
          `${path} does not exist in the merge base ${commit.slice(0, 12)}: ` +
            `both sides added it, or it is not in the repository.`,
          true,
          commands,
        );
      }
      rec = await run(ctx, commands, `git show ${q(`${commit}:${path}`)}`);
      if (rec.exitCode !== 0) return result(`git show failed: ${rec.stderr.trim()}`, true, commands);
    }
    // The sandbox keeps a few MiB of a command's output: line numbers past that cut would be wrong.
    if (rec.truncated)
      return result(
        `The merge base's ${path} is larger than the ${rec.stdout.length} bytes a command's ` +
          `output keeps; its first lines:\n${lineRange(rec.stdout, { offset: 1, limit: 200 })}`,
        true,
        commands,
      );
    return result(lineRange(rec.stdout, args), false, commands);
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

export const GGB_MCR_TOOLS = [
  viewCurrentMergeConflictTool,
  viewMergeConflictAtTool,
  viewDiffForTool,
  viewFileAtTool,
  viewMergeBaseOfTool,
  resolveCurrentMergeConflictTool,
] as const;

export const GGB_MCR_TOOL_SET: ToolSet = {
  name: 'ggb-mcr',
  description:
    "GitGoodBench's merge conflict tools: view conflicts, diffs, " +
    'files and the merge base; resolve the current conflict; submit.',
  tools: [...GGB_MCR_TOOLS, submitTool],
  instructions:
    'Resolve the conflicts in order: CONFLICT-0 is always the current ' +
    'one, and after each resolution the next one becomes CONFLICT-0. ' +
    'Every tool needs a reason. After the last conflict the merge is committed for you; then call submit.',
};
