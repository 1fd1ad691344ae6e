import { type ToolContext, type ToolExecRecord, type ToolResult } from '../../../agent/tool-set';
import { decode, q, result, run } from './common';

export interface RebaseState {
  dir: string;
  onto: string;
  commits: { sha: string; subject: string }[];
}

/** The paused rebase: its directory, onto, and the commits it covers. Null when no rebase is in progress. */
export async function rebaseState(ctx: ToolContext, commands: ToolExecRecord[]): Promise<RebaseState | null> {
  const dirRec = await run(ctx, commands, 'git rev-parse --git-path rebase-merge');
  const dir = dirRec.stdout.trim();
  const onto = await ctx.readFile(`${dir}/onto`);
  const orig = await ctx.readFile(`${dir}/orig-head`);
  if (!onto || !orig) return null;
  const [o, h] = [decode(onto).trim(), decode(orig).trim()];
  const list = await run(ctx, commands, `git log --reverse --no-merges --format=%H%x09%s ${q(`${o}..${h}`)}`);
  const commits = list.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ sha: l.slice(0, 40), subject: l.slice(41) }));
  return { dir, onto: o, commits };
}

/** A tool body that needs the paused rebase; without one the call fails and says so. */
export function inRebase<A>(
  body: (args: A, state: RebaseState, ctx: ToolContext, commands: ToolExecRecord[]) => Promise<ToolResult>,
) {
  return async (args: A, ctx: ToolContext): Promise<ToolResult> => {
    const commands: ToolExecRecord[] = [];
    const state = await rebaseState(ctx, commands);
    if (!state) return result('No interactive rebase is in progress.', true, commands);
    return body(args, state, ctx, commands);
  };
}

/** COMMIT-i of a commit id (full or abbreviated), or undefined when the rebase does not cover it. */
export const commitIndexOf = (state: RebaseState, sha: string): number | undefined => {
  const i = state.commits.findIndex((c) => c.sha.startsWith(sha) || sha.startsWith(c.sha));
  return i < 0 ? undefined : i;
};
