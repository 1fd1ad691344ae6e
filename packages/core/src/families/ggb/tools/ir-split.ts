import { z } from 'zod';
import { defineTool, type ToolContext, type ToolExecRecord } from '../../../agent/tool-set';
import { lineRange } from '../../../agent/tools/editor-tools';
import { parseDiffFiles, patchOfFiles, renderDiffFiles, type FileDiff } from '../hunks';
import {
  PAGED_CAP_NOTE,
  REASON_AND_LINE_RANGE,
  REASON_PARAMETER,
  decode,
  q,
  reason,
  result,
  run,
  THE_ANSWER,
} from './common';
import { commitIndexOf, inRebase, type RebaseState } from './ir-state';

/**
 * Splitting a commit, which the paper's IR tools cannot do (their todo commands have no `edit`): an `edit`
 * item stops the rebase right after that commit is picked, `view_hunks_to_split` numbers its hunks, and
 * `split_commit` replaces it by several commits, each taking some of the hunks, as `git reset HEAD~` and
 * `git add -p` would by hand. The trees are built in a scratch index from the commit's parent (the patch
 * of the first k parts' hunks applied to it), the last one is the commit's own tree, so the split changes
 * nothing but the history; HEAD then moves with `git reset --soft`, and `execute_rebase` goes on.
 */

/** The commit the rebase stopped at to be split, while it has not been split (HEAD is still that commit). */
export interface SplitStop {
  sha: string;
  index: number;
}

/** The `edit` stop the rebase is at, or why there is none to split. */
export async function splitStop(
  state: RebaseState,
  ctx: ToolContext,
  commands: ToolExecRecord[],
): Promise<SplitStop | { error: string }> {
  const done = decode((await ctx.readFile(`${state.dir}/done`)) ?? new Uint8Array())
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
  const last = /^(?:edit|e) ([0-9a-f]{7,40})/.exec(done.at(-1) ?? '');
  const amend = await ctx.readFile(`${state.dir}/amend`);
  if (!last || !amend)
    return {
      error:
        'The rebase is not stopped at an `edit` item. Give a commit the command edit in ' +
        'update_rebase_todo_list, then execute_rebase stops right after it so that it can be split.',
    };
  const index = commitIndexOf(state, last[1]!);
  const head = (await run(ctx, commands, 'git rev-parse HEAD')).stdout.trim();
  if (decode(amend).trim() !== head)
    return {
      error:
        `COMMIT-${index ?? '?'} has already been split (HEAD moved ` +
        `since the rebase stopped). Call execute_rebase to go on.`,
    };
  return { sha: head, index: index ?? -1 };
}

/** The stopped commit's changes against its parent, cut into hunks (renames as a deletion and an addition). */
async function hunksOf(ctx: ToolContext, commands: ToolExecRecord[]): Promise<FileDiff[] | { error: string }> {
  const rec = await run(ctx, commands, 'git diff --no-color --no-ext-diff --no-renames --binary HEAD~ HEAD');
  if (rec.exitCode !== 0) return { error: `git diff failed: ${rec.stderr.trim()}` };
  if (rec.truncated) return { error: `The commit's diff is larger than the tools read (${rec.stdoutBytes} bytes).` };
  return parseDiffFiles(rec.stdout);
}

export const viewHunksToSplitTool = defineTool({
  name: 'view_hunks_to_split',
  // Not in the paper's tools, which cannot split a commit.
  description:
    'While the rebase is stopped at an `edit` item: show the changes of that commit as ' +
    'it now stands, file by file, its hunks numbered from 1 across its files (<HUNK-n>), ' +
    'the numbers split_commit takes. With offset and limit only those lines of the answer. ' +
    PAGED_CAP_NOTE,
  ...REASON_AND_LINE_RANGE,
  run: inRebase<{ reason: string; offset?: number; limit?: number }>(async (args, state, ctx, commands) => {
    const stop = await splitStop(state, ctx, commands);
    if ('error' in stop) return result(stop.error, true, commands);
    const files = await hunksOf(ctx, commands);
    if ('error' in files) return result(files.error, true, commands);
    const count = files.reduce((n, f) => n + f.hunks.length, 0);
    const head = `COMMIT-${stop.index} as picked, ${count} hunk(s):\n`;
    return result(lineRange(`${head}${renderDiffFiles(files)}\n`, args, THE_ANSWER), false, commands);
  }),
});

const part = z
  .object({ hunks: z.array(z.number().int().min(1)).min(1), commit_msg: z.string().trim().min(1) })
  .strict();
type SplitPart = z.infer<typeof part>;

/** Why the parts cannot split a commit of `count` hunks, or null: every hunk in exactly one part. */
export function splitPartsError(parts: readonly SplitPart[], count: number): string | null {
  const all = parts.flatMap((p) => p.hunks);
  const unknown = [...new Set(all.filter((n) => n > count))];
  if (unknown.length > 0) return `No such hunk: ${unknown.join(', ')} (the commit has hunks 1 to ${count}).`;
  const twice = [...new Set(all.filter((n, i) => all.indexOf(n) !== i))];
  if (twice.length > 0) return `Hunk ${twice.join(', ')} is given to more than one part.`;
  const missing = [...Array(count).keys()].map((i) => i + 1).filter((n) => !all.includes(n));
  if (missing.length > 0) return `Every hunk goes to one part; not given: ${missing.join(', ')}.`;
  return null;
}

export const splitCommitTool = defineTool({
  name: 'split_commit',
  // Not in the paper's tools, which cannot split a commit.
  description:
    'While the rebase is stopped at an `edit` item: replace that commit by several commits, ' +
    'oldest first, one per part. Each part takes some of the hunks view_hunks_to_split numbers ' +
    'and its commit_msg; every hunk goes to exactly one part. The last commit ' +
    'holds the same files as the commit split, so only the history changes. ' +
    'Then call execute_rebase to carry out the rest of the todo list.',
  parameters: {
    type: 'object',
    properties: {
      parts: {
        type: 'array',
        minItems: 2,
        items: {
          type: 'object',
          properties: {
            hunks: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 },
            commit_msg: { type: 'string' },
          },
          required: ['hunks', 'commit_msg'],
          additionalProperties: false,
        },
      },
      reason: REASON_PARAMETER,
    },
    required: ['parts', 'reason'],
    additionalProperties: false,
  },
  args: z.object({ parts: z.array(part).min(2), reason }).strict(),
  run: inRebase<{ parts: SplitPart[]; reason: string }>(async (args, state, ctx, commands) => {
    const stop = await splitStop(state, ctx, commands);
    if ('error' in stop) return result(stop.error, true, commands);
    const files = await hunksOf(ctx, commands);
    if ('error' in files) return result(files.error, true, commands);
    const bad = splitPartsError(
      args.parts,
      files.reduce((n, f) => n + f.hunks.length, 0),
    );
    if (bad) return result(`${bad} view_hunks_to_split shows the hunks.`, true, commands);

    // The split commits keep the original's author and date, as `git commit` after `git reset HEAD~` would not.
    const who = await run(ctx, commands, 'git log -1 --format=%an%x00%ae%x00%ad --date=raw HEAD');
    const [name, email, date] = who.stdout.replace(/\n$/, '').split('\0');
    const env = { GIT_AUTHOR_NAME: name ?? '', GIT_AUTHOR_EMAIL: email ?? '', GIT_AUTHOR_DATE: date ?? '' };
    const scratch = {
      GIT_INDEX_FILE: (await run(ctx, commands, 'git rev-parse --git-path ggb-split-index')).stdout.trim(),
    };
    const fail = async (what: string, rec: ToolExecRecord) => {
      await run(ctx, commands, `rm -f ${q(scratch.GIT_INDEX_FILE)}`);
      return result(`${what} failed; nothing was changed: ${(rec.stderr || rec.stdout).trim()}`, true, commands);
    };
    let parent = (await run(ctx, commands, 'git rev-parse HEAD~')).stdout.trim();
    const taken: number[] = [];
    for (const [k, p] of args.parts.entries()) {
      taken.push(...p.hunks);
      let tree = 'HEAD^{tree}';
      if (k < args.parts.length - 1) {
        const read = await run(ctx, commands, 'git read-tree HEAD~', { env: scratch });
        if (read.exitCode !== 0) return await fail('git read-tree', read);
        const apply = await run(ctx, commands, 'git apply --cached --whitespace=nowarn -', {
          env: scratch,
          stdin: patchOfFiles(files, taken),
        });
        if (apply.exitCode !== 0) return await fail(`Applying the hunks of part ${k + 1}`, apply);
        const written = await run(ctx, commands, 'git write-tree', { env: scratch });
        if (written.exitCode !== 0) return await fail('git write-tree', written);
        tree = written.stdout.trim();
      }
      const message = p.commit_msg.endsWith('\n') ? p.commit_msg : `${p.commit_msg}\n`;
      const made = await run(ctx, commands, `git commit-tree ${q(tree)} -p ${parent} -F -`, { env, stdin: message });
      if (made.exitCode !== 0) return await fail('git commit-tree', made);
      parent = made.stdout.trim();
    }
    await run(ctx, commands, `rm -f ${q(scratch.GIT_INDEX_FILE)}`);
    const moved = await run(ctx, commands, `git reset --quiet --soft ${parent}`);
    if (moved.exitCode !== 0) return await fail('git reset --soft', moved);
    const log = await run(ctx, commands, `git log --reverse --format='%h %s' -n ${args.parts.length} HEAD`);
    return result(
      `COMMIT-${stop.index} is now ${args.parts.length} commits:\n${log.stdout.trim()}\nCall ` +
        `execute_rebase to carry out the rest of the todo list.`,
      false,
      commands,
    );
  }),
});
