import { z } from 'zod';
import { defineTool, type ToolSet } from '../../../agent/tool-set';
import { lineRange } from '../../../agent/tools/editor-tools';
import { submitTool } from '../../../agent/tools/submit-tool';
import { PAGED_CAP_NOTE, REASON_AND_LINE_RANGE, result, run, THE_ANSWER } from './common';
import { executeRebaseTool, viewRewrittenHistoryTool } from './ir-execute';
import { splitCommitTool, viewHunksToSplitTool } from './ir-split';
import { inRebase } from './ir-state';
import { updateRebaseTodoListTool, viewRebaseTodoTool } from './ir-todo';

export { commitIndexOf, inRebase, rebaseState, type RebaseState } from './ir-state';
export { splitCommitTool, splitPartsError, splitStop, viewHunksToSplitTool } from './ir-split';
export {
  REBASE_COMMANDS,
  buildTodo,
  renderTodo,
  updateRebaseTodoListTool,
  viewRebaseTodoTool,
  type RebaseCommand,
  type TodoItem,
} from './ir-todo';
export { executeRebaseTool, viewRewrittenHistoryTool } from './ir-execute';

/**
 * GitGoodBench's interactive rebase tools, for a rebase paused at its start. COMMIT-i is the i-th
 * commit of the rebase (onto..orig-head, oldest first) for the whole attempt, whatever the todo list
 * says now. Messages given for `reword` and `squash` are written to files and applied with
 * `git commit --amend -F` from an `exec` line: no message passes through shell quotes. `fixup -C`
 * keeps the fixup commit's message; `fixup -c` does the same (the editor Git would open is `true`).
 * `edit` stops the rebase after that commit so that split_commit can split it (ir-split.ts). The todo
 * list is ir-todo.ts; running the rebase and reading the history it wrote, ir-execute.ts.
 */

export const showChangesInTool = defineTool({
  name: 'show_changes_in',
  // offset and limit are not in the paper's tool, whose answer could be cut with no way to read the rest.
  description:
    'Show the message and the changes of COMMIT-i (git show); with offset and limit only those lines of the answer. ' +
    PAGED_CAP_NOTE,
  parameters: {
    type: 'object',
    properties: {
      commit_index: { type: 'integer', minimum: 0 },
      ...REASON_AND_LINE_RANGE.parameters.properties,
    },
    required: ['commit_index', 'reason'],
    additionalProperties: false,
  },
  args: REASON_AND_LINE_RANGE.args.extend({ commit_index: z.number().int().min(0) }).strict(),
  truncationHint: REASON_AND_LINE_RANGE.truncationHint,
  run: inRebase<{ commit_index: number; reason: string; offset?: number; limit?: number }>(
    async (args, state, ctx, commands) => {
      const c = state.commits[args.commit_index];
      if (!c)
        return result(
          `There is no COMMIT-${args.commit_index}: the rebase covers COMMIT-0 to COMMIT-${state.commits.length - 1}.`,
          true,
          commands,
        );
      const rec = await run(ctx, commands, `git show --no-color --no-ext-diff ${c.sha}`);
      if (rec.exitCode !== 0) return result(rec.stderr || rec.stdout, true, commands);
      return result(lineRange(rec.stdout, args, THE_ANSWER), false, commands);
    },
  ),
});

export const GGB_IR_TOOLS = [
  viewRebaseTodoTool,
  showChangesInTool,
  updateRebaseTodoListTool,
  executeRebaseTool,
  viewRewrittenHistoryTool,
  viewHunksToSplitTool,
  splitCommitTool,
] as const;

export const GGB_IR_TOOL_SET: ToolSet = {
  name: 'ggb-ir',
  description:
    "GitGoodBench's interactive rebase tools: view the todo list and commits, rewrite the todo " +
    'list, run the rebase, split a commit at an edit stop, view the rewritten history; submit.',
  tools: [...GGB_IR_TOOLS, submitTool],
  instructions:
    'The rebase is paused at its start, at a `break`. COMMIT-i is the i-th commit of the ' +
    'rebase, oldest first, for the whole task. Update the todo list (one item per commit), ' +
    'then execute the rebase; view_rewritten_history shows the commits it wrote, messages and changes. ' +
    'To split a commit, mark it edit in the todo list: the rebase stops after it, view_hunks_to_split ' +
    'numbers its hunks, split_commit makes one commit per group of hunks, and execute_rebase goes on. ' +
    'Every tool needs a reason. Call submit when the rebase has finished.',
};
