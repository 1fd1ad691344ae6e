import { z } from 'zod';
import { CAP_NOTE, defineTool, type ToolExecRecord } from '../../../agent/tool-set';
import {
  LINE_RANGE_ARGS,
  LINE_RANGE_PARAMETERS,
  lineRange,
  RANGE_TRUNCATION_HINT,
} from '../../../agent/tools/editor-tools';
import { REASON_PARAMETER, decode, q, reason, result, run } from './common';

/** The views of one file during the merge: both sides' diff, the working tree's text, the merge base's. */

/** The conflict and diff views cannot page; view_file_at reads any part of a file. */
export const VIEW_FILE_HINT = 'view_file_at shows any part of a file by lines (offset and limit)';

/** Inside the repository, with no NUL byte: no file name has one, and no command or file request may carry one. */
const pathArg = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').includes('..') && !p.includes('\0'),
    'must be a path inside the repository',
  );

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
