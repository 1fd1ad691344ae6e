/** Running the rebase the todo list describes, and reading the history it wrote. */
import { defineTool, type ToolExecRecord } from '../../../agent/tool-set';
import { lineRange } from '../../../agent/tools/editor-tools';
import { PAGED_CAP_NOTE, REASON_AND_LINE_RANGE, REASON_ONLY, decode, q, result, run, THE_ANSWER } from './common';
import { splitStop } from './ir-split';
import { inRebase, rebaseState } from './ir-state';

/** Beside the repository's refs, never read by the scorer: the commit the rebase rewrote the history onto. */
const ONTO_FILE = 'ggb-rebase-onto';

export const executeRebaseTool = defineTool({
  name: 'execute_rebase',
  description:
    'Run the rebase with the current todo list (git rebase --continue) and show the ' +
    'resulting history; it stops after an `edit` item, and the next call goes on.',
  ...REASON_ONLY,
  run: inRebase(async (_args, state, ctx, commands) => {
    // Where the rewritten history starts, for view_rewritten_history once the rebase state is gone.
    await ctx.writeFile(
      `${(await run(ctx, commands, 'git rev-parse --git-dir')).stdout.trim()}/${ONTO_FILE}`,
      `${state.onto}\n`,
    );
    const rec = await run(ctx, commands, 'git rebase --continue');
    const after = await rebaseState(ctx, commands);
    const log = await run(ctx, commands, `git log --reverse --format='%h %s' ${q(`${state.onto}..HEAD`)}`);
    const stop = after && rec.exitCode === 0 ? await splitStop(after, ctx, commands) : null;
    if (stop && !('error' in stop))
      return result(
        `The rebase stopped after COMMIT-${stop.index} (edit) so that it can ` +
          `be split: view_hunks_to_split shows its hunks, split_commit splits it, ` +
          `and execute_rebase then carries out the rest of the todo list (without ` +
          `a split the commit stays whole).\nHistory so far:\n${log.stdout.trim()}`,
        false,
        commands,
      );
    if (rec.exitCode !== 0 || after) {
      return result(
        `The rebase ` +
          `stopped${after ? ' and is still in progress' : ''}:\n${(rec.stdout + rec.stderr).trim()}\nHistory ` +
          `so far:\n${log.stdout.trim()}`,
        true,
        commands,
      );
    }
    return result(`The rebase finished. The history is now:\n${log.stdout.trim()}`, false, commands);
  }),
});

export const viewRewrittenHistoryTool = defineTool({
  name: 'view_rewritten_history',
  // Not in the paper's tools: execute_rebase showed subjects only, so the history judged was never seen whole.
  description:
    "Show the history the rebase has written so far, oldest first: every commit from the rebase's " +
    'base to HEAD with its full message and changes, as show_changes_in shows one (git log -p). ' +
    'Once the rebase has finished, this is the history that is ' +
    'judged. With offset and limit only those lines of the answer. ' +
    PAGED_CAP_NOTE,
  ...REASON_AND_LINE_RANGE,
  async run(args, ctx) {
    const commands: ToolExecRecord[] = [];
    const state = await rebaseState(ctx, commands);
    const saved = await ctx.readFile(
      `${(await run(ctx, commands, 'git rev-parse --git-dir')).stdout.trim()}/${ONTO_FILE}`,
    );
    const onto = state?.onto ?? (saved ? decode(saved).trim() : null);
    if (!onto) return result('No rebase has been run: there is no rewritten history yet.', true, commands);
    const log = await run(ctx, commands, `git log --reverse --no-color --no-ext-diff -p ${q(`${onto}..HEAD`)}`);
    if (log.exitCode !== 0) return result(`git log failed: ${log.stderr.trim()}`, true, commands);
    const head = state ? 'The rebase is still in progress; the commits written so far:\n' : '';
    return result(
      log.stdout === ''
        ? `${head}No commit yet: HEAD is the rebase's base.`
        : lineRange(`${head}${log.stdout}`, args, THE_ANSWER),
      false,
      commands,
    );
  },
});
