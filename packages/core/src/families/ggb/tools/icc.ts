import { z } from 'zod';
import { CAP_NOTE, defineTool, type ToolContext, type ToolExecRecord, type ToolSet } from '../../../agent/tool-set';
import { lineRange } from '../../../agent/tools/editor-tools';
import { submitTool } from '../../../agent/tools/submit-tool';
import { parseFileDiff, patchOf, renderHunks, type FileDiff } from '../hunks';
import {
  PAGED_ANSWER_HINT,
  PAGED_CAP_NOTE,
  REASON_AND_LINE_RANGE,
  REASON_PARAMETER,
  q,
  reason,
  result,
  run,
  THE_ANSWER,
} from './common';

/**
 * GitGoodBench's iterative committing tools: the agent commits hunks of the target file (numbered from
 * 1, renumbered after every commit) and finally commits whatever remains. Hunks are staged with
 * `git apply --cached` from Git's own diff (CRLF and every byte kept) and messages go to
 * `git commit -F -` on stdin, never through shell quotes.
 */

/**
 * The target file: the scenario's set-up records it in the repository's config (`ggb.targetFile`), so
 * one registered tool set serves every scenario. Without it, the tools work on every file.
 */
export const TARGET_FILE_CONFIG = 'ggb.targetFile';

async function targetFile(ctx: ToolContext, commands: ToolExecRecord[]): Promise<string | null> {
  const rec = await run(ctx, commands, `git config --get ${TARGET_FILE_CONFIG}`);
  const file = rec.stdout.trim();
  return rec.exitCode === 0 && file !== '' ? file : null;
}

async function remaining(ctx: ToolContext, commands: ToolExecRecord[], file: string | null): Promise<FileDiff | null> {
  const rec = await run(ctx, commands, `git diff --no-color --no-ext-diff${file ? ` -- ${q(file)}` : ''}`);
  return rec.exitCode === 0 ? parseFileDiff(rec.stdout) : null;
}

function listing(file: string | null, diff: FileDiff | null): string {
  const what = file ?? 'the working tree';
  if (!diff || diff.hunks.length === 0) return `No hunk of ${what} is left. Call commit_remaining_changes to finish.`;
  return `Remaining hunks of ${what} (numbered from 1):\n${renderHunks(diff.hunks)}`;
}

async function commit(ctx: ToolContext, commands: ToolExecRecord[], message: string): Promise<ToolExecRecord> {
  return run(ctx, commands, 'git commit --quiet --file=-', {
    stdin: message.endsWith('\n') ? message : `${message}\n`,
  });
}

/** How to read a list of hunks the output limit cut. */
const REMAINING_HINT = `call view_remaining_hunks and ${PAGED_ANSWER_HINT}`;

export const commitChangesInTool = defineTool({
  name: 'commit_changes_in',
  description:
    'Commit the selected hunks of the target file (numbers from the latest list, from ' +
    '1) with commit_message; the remaining hunks are then listed, renumbered from 1. ' +
    `${CAP_NOTE}: to see the rest, ${REMAINING_HINT}.`,
  parameters: {
    type: 'object',
    properties: {
      selected_hunks: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 },
      commit_message: { type: 'string' },
      reason: REASON_PARAMETER,
    },
    required: ['selected_hunks', 'commit_message', 'reason'],
    additionalProperties: false,
  },
  truncationHint: REMAINING_HINT,
  args: z
    .object({
      selected_hunks: z.array(z.number().int().min(1)).min(1),
      commit_message: z.string().trim().min(1),
      reason,
    })
    .strict(),
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const file = await targetFile(ctx, commands);
    const diff = await remaining(ctx, commands, file);
    if (!diff || diff.hunks.length === 0) return result(listing(file, diff), true, commands);
    const bad = args.selected_hunks.filter((n) => n > diff.hunks.length);
    if (bad.length > 0) return result(`No such hunk: ${bad.join(', ')}. ${listing(file, diff)}`, true, commands);
    const apply = await run(ctx, commands, 'git apply --cached --whitespace=nowarn -', {
      stdin: patchOf(diff, args.selected_hunks),
    });
    if (apply.exitCode !== 0) return result(`The hunks could not be staged: ${apply.stderr.trim()}`, true, commands);
    const rec = await commit(ctx, commands, args.commit_message);
    if (rec.exitCode !== 0) {
      await run(ctx, commands, 'git reset --quiet');
      return result(`The commit failed: ${(rec.stderr || rec.stdout).trim()}`, true, commands);
    }
    return result(
      `Committed ${args.selected_hunks.length} hunk(s).\n${listing(file, await remaining(ctx, commands, file))}`,
      false,
      commands,
    );
  },
});
export const commitRemainingChangesTool = defineTool({
  name: 'commit_remaining_changes',
  description:
    'Commit every change that is left (the remaining hunks and ' +
    'changes to other files) in one commit with commit_message.',
  parameters: {
    type: 'object',
    properties: { commit_message: { type: 'string' }, reason: REASON_PARAMETER },
    required: ['commit_message', 'reason'],
    additionalProperties: false,
  },
  args: z.object({ commit_message: z.string().trim().min(1), reason }).strict(),
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const add = await run(ctx, commands, 'git add --all');
    if (add.exitCode !== 0) return result(`git add failed: ${add.stderr.trim()}`, true, commands);
    const staged = await run(ctx, commands, 'git diff --cached --quiet');
    if (staged.exitCode === 0) return result('Nothing is left to commit.', false, commands);
    const rec = await commit(ctx, commands, args.commit_message);
    if (rec.exitCode !== 0) return result(`The commit failed: ${(rec.stderr || rec.stdout).trim()}`, true, commands);
    return result('Committed every remaining change.', false, commands);
  },
});

export const viewOtherChangesTool = defineTool({
  name: 'view_other_changes',
  // Not in the paper's tools: without it the last commit's message was written without seeing what it holds.
  description:
    'Show the uncommitted changes to every file other than the target file: ' +
    'what commit_remaining_changes will commit besides the remaining hunks ' +
    '(a diff of tracked files against HEAD, then each untracked file ' +
    'whole); with offset and limit only those lines of the answer. ' +
    PAGED_CAP_NOTE,
  ...REASON_AND_LINE_RANGE,
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const file = await targetFile(ctx, commands);
    const others = file ? ` -- . ${q(`:(exclude,top)${file}`)}` : '';
    const tracked = await run(ctx, commands, `git diff --no-color --no-ext-diff HEAD${others}`);
    if (tracked.exitCode !== 0) return result(`git diff failed: ${tracked.stderr.trim()}`, true, commands);
    const untracked = await run(ctx, commands, `git ls-files -z --others --exclude-standard${others}`);
    const parts = [tracked.stdout];
    for (const path of untracked.stdout.split('\0').filter(Boolean)) {
      // --no-index exits 1 when the files differ, which a new file always does.
      const rec = await run(ctx, commands, `git diff --no-color --no-ext-diff --no-index -- /dev/null ${q(path)}`);
      parts.push(rec.exitCode <= 1 ? rec.stdout : `${path}: untracked, could not be shown: ${rec.stderr.trim()}\n`);
    }
    const text = parts.join('');
    if (text === '')
      return result(`No file other than ${file ?? 'the target file'} has uncommitted changes.`, false, commands);
    return result(lineRange(text, args, THE_ANSWER), false, commands);
  },
});

export const viewRemainingHunksTool = defineTool({
  name: 'view_remaining_hunks',
  // Not in the paper's tools: the list after a commit is the only other view of the hunks, and it can be cut.
  description:
    'Show the hunks of the target file not committed yet, numbered from 1 as ' +
    'commit_changes_in takes them; with offset and limit only those lines of the answer. ' +
    PAGED_CAP_NOTE,
  ...REASON_AND_LINE_RANGE,
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const file = await targetFile(ctx, commands);
    return result(lineRange(listing(file, await remaining(ctx, commands, file)), args, THE_ANSWER), false, commands);
  },
});

export const GGB_ICC_TOOLS = [
  commitChangesInTool,
  commitRemainingChangesTool,
  viewOtherChangesTool,
  viewRemainingHunksTool,
] as const;

export const GGB_ICC_TOOL_SET: ToolSet = {
  name: 'ggb-icc',
  description:
    "GitGoodBench's iterative committing tools: commit selected hunks of the target " +
    "file, view the hunks left and the other files' changes, commit the rest; submit.",
  tools: [...GGB_ICC_TOOLS, submitTool],
  instructions:
    'Commit the changes to the target file as a sequence of small, cohesive ' +
    'commits by selecting hunks (numbered from 1, renumbered after each commit); ' +
    'view_remaining_hunks lists the hunks left; view_other_changes shows the changes ' +
    'to the other files, which commit_remaining_changes commits with the hunks left. ' +
    'Every tool needs a reason. Finish with commit_remaining_changes, then call submit.',
};
