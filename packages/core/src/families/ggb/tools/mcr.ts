import type { ToolSet } from '../../../agent/tool-set';
import { submitTool } from '../../../agent/tools/submit-tool';
import {
  resolveCurrentMergeConflictTool,
  viewCurrentMergeConflictTool,
  viewMergeConflictAtTool,
} from './mcr-conflicts';
import { viewDiffForTool, viewFileAtTool, viewMergeBaseOfTool } from './mcr-files';

export {
  conflictsInText,
  currentConflicts,
  resolveCurrentMergeConflictTool,
  viewCurrentMergeConflictTool,
  viewMergeConflictAtTool,
  type ConflictBlock,
} from './mcr-conflicts';
export { viewDiffForTool, viewFileAtTool, viewMergeBaseOfTool } from './mcr-files';

/**
 * GitGoodBench's merge conflict resolution tools. Every view reads the repository as it is now (the
 * released code showed files as they were at setup), conflicts are numbered over what is still
 * unresolved (index 0 is always the current conflict, so indexes never point at a conflict that is
 * gone), files keep their line endings, and the merge is committed with Git's own message file.
 * The conflicts and their resolution are in mcr-conflicts.ts, the views of a file in mcr-files.ts.
 */

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
