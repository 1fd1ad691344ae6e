import { z } from 'zod';
import { defineTool, type ToolContext } from '../../../agent/tool-set';
import { REASON_ONLY, REASON_PARAMETER, decode, q, reason, result } from './common';
import { commitIndexOf, inRebase, type RebaseState } from './ir-state';

/**
 * The rebase todo list: how the agent's items are written into it (a reword as a pick and an amend
 * from a message file) and how it is shown back, with the tools that view and replace it.
 */

export const REBASE_COMMANDS = ['pick', 'drop', 'fixup', 'fixup -C', 'fixup -c', 'squash', 'reword', 'edit'] as const;
export type RebaseCommand = (typeof REBASE_COMMANDS)[number];

/** A reword's or squash's message file: named by the commit's index, read by the `exec` line after it. */
const MESSAGE_FILE_PREFIX = 'message-of-COMMIT-';
const MESSAGE_EXEC = new RegExp(
  `^exec git commit --amend --quiet --allow-empty --file='?([^']*/${MESSAGE_FILE_PREFIX}\\d+)'?$`,
);

/**
 * The todo list as the agent wrote it, not as it is carried out: a reword is shown as `reword`
 * (carried out as a pick and an amend from a message file), a reword's or squash's message below its
 * line, every commit with its COMMIT-i, and the lines already done (the `break` the rebase is paused at)
 * above, marked so.
 */
export async function renderTodo(state: RebaseState, ctx: ToolContext): Promise<string> {
  const read = async (name: string) =>
    decode((await ctx.readFile(`${state.dir}/${name}`)) ?? new Uint8Array())
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'));
  const render = async (lines: string[], done: boolean): Promise<string[]> => {
    const out: string[] = [];
    for (const [k, line] of lines.entries()) {
      if (MESSAGE_EXEC.test(line)) continue;
      // The rebase waits at the last line done only when it is a `break` or an `edit` (a conflict stops at a pick).
      const paused = k === lines.length - 1 && /^(break|b|edit|e)( |$)/.test(line.trim());
      const mark = done ? `    <- done${paused ? ': the rebase is paused here' : ''}` : '';
      const m = /^(pick|drop|fixup -[cC]|fixup|squash|reword|edit|p|d|f|s|r|e) ([0-9a-f]{7,40})(?: (.*))?$/.exec(line);
      const i = m ? commitIndexOf(state, m[2]!) : undefined;
      if (!m || i === undefined) {
        out.push(`${line.trim()}${mark}`);
        continue;
      }
      const messageFile = MESSAGE_EXEC.exec(lines[k + 1] ?? '')?.[1];
      const command = messageFile && m[1] === 'pick' ? 'reword' : m[1]!;
      out.push(
        `${command} ${m[2]!.slice(0, 7)} ${m[3] ?? ''}    <- COMMIT-${i}${mark ? `, ${mark.trim().slice(3)}` : ''}`,
      );
      if (messageFile) {
        const message = decode((await ctx.readFile(messageFile)) ?? new Uint8Array()).trimEnd();
        out.push(
          `    ${command === 'squash' ? 'combined message' : 'new message'}:`,
          ...message.split('\n').map((l) => `    | ${l}`),
        );
      }
    }
    return out;
  };
  const todo = await read('git-rebase-todo');
  const out = [...(await render(await read('done'), true)), ...(await render(todo, false))];
  if (todo.length === 0) out.push('(nothing left to do: execute_rebase finishes the rebase)');
  return out.join('\n');
}

export const viewRebaseTodoTool = defineTool({
  name: 'view_rebase_todo',
  description:
    'Show the rebase todo list: the lines already done (the `break` the rebase is paused at), ' +
    "then what is left, each commit with its COMMIT-i index and a reword's or squash's new message.",
  ...REASON_ONLY,
  run: inRebase(async (_args, state, ctx, commands) => result(await renderTodo(state, ctx), false, commands)),
});

const todoItem = z
  .object({
    commit_index: z.number().int().min(0),
    command: z.enum(REBASE_COMMANDS),
    commit_msg: z.string().optional(),
  })
  .strict()
  .superRefine((item, ctx) => {
    const needs = item.command === 'reword' || item.command === 'squash';
    if (needs && !item.commit_msg?.trim())
      ctx.addIssue({ code: 'custom', message: `${item.command} needs commit_msg` });
    if (!needs && item.commit_msg !== undefined)
      ctx.addIssue({ code: 'custom', message: `${item.command} takes no commit_msg` });
  });
export type TodoItem = z.infer<typeof todoItem>;

/** The todo list for the items, and the message files it reads; or why the items cannot be a todo list. */
export function buildTodo(
  state: RebaseState,
  items: readonly TodoItem[],
  messageDir: string,
): { todo: string; messages: Record<string, string> } | { error: string } {
  const n = state.commits.length;
  const seen = items.map((i) => i.commit_index);
  const bad = seen.filter((i) => i >= n);
  if (bad.length > 0)
    return {
      error:
        `No such commit: ${bad.map((i) => `COMMIT-${i}`).join(', ')} ` +
        `(the rebase covers COMMIT-0 to COMMIT-${n - 1}).`,
    };
  const missing = [...Array(n).keys()].filter((i) => !seen.includes(i));
  if (seen.length !== n || missing.length > 0)
    return {
      error:
        `Give exactly one item per commit (COMMIT-0 to COMMIT-${n - 1})` +
        (missing.length > 0
          ? `; missing: ${missing.map((i) => `COMMIT-${i}`).join(', ')}`
          : '; some commit is named twice') +
        '.',
    };
  const firstKept = items.find((i) => i.command !== 'drop');
  if (firstKept && /^(fixup|squash)/.test(firstKept.command))
    return {
      error:
        `The first commit that is kept cannot be a ${firstKept.command}: ` +
        `there is no previous commit to meld it into.`,
    };
  const lines: string[] = [];
  const messages: Record<string, string> = {};
  items.forEach((item) => {
    const c = state.commits[item.commit_index]!;
    const command = item.command === 'fixup -c' ? 'fixup -C' : item.command === 'reword' ? 'pick' : item.command;
    lines.push(`${command} ${c.sha} ${c.subject}`);
    if (item.commit_msg !== undefined) {
      const file = `${messageDir}/${MESSAGE_FILE_PREFIX}${item.commit_index}`;
      messages[file] = item.commit_msg.endsWith('\n') ? item.commit_msg : `${item.commit_msg}\n`;
      lines.push(`exec git commit --amend --quiet --allow-empty --file=${q(file)}`);
    }
  });
  return { todo: `${lines.join('\n')}\n`, messages };
}

/** Whether the rebase has carried out any line of the todo list besides the `break` it was set up paused at. */
async function rebaseStarted(state: RebaseState, ctx: ToolContext): Promise<boolean> {
  const done = decode((await ctx.readFile(`${state.dir}/done`)) ?? new Uint8Array()).split('\n');
  return done.some((l) => l.trim() !== '' && !l.startsWith('#') && !/^(break|b)$/.test(l.trim()));
}

export const updateRebaseTodoListTool = defineTool({
  name: 'update_rebase_todo_list',
  description:
    'Replace the rebase todo list: one item per commit, in the order the ' +
    'commits should end up. Commands: pick (keep the commit as it is), drop ' +
    '(leave it out), fixup (meld into the previous commit, keep its message), ' +
    "fixup -C (meld, keep this commit's message), fixup -c (the same as fixup " +
    '-C here: Git would open an editor on the message, and there is none), ' +
    'squash (meld, commit_msg is the combined message), reword (keep, commit_msg is the new message), ' +
    'edit (keep, and stop the rebase right after it so that split_commit can split it into several commits). ' +
    'The list can only be replaced before execute_rebase has carried out any of it.',
  parameters: {
    type: 'object',
    properties: {
      rebase_todo_list_items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            commit_index: { type: 'integer', minimum: 0 },
            command: { type: 'string', enum: [...REBASE_COMMANDS] },
            commit_msg: { type: 'string', description: 'Required for squash and reword, not allowed otherwise.' },
          },
          required: ['commit_index', 'command'],
          additionalProperties: false,
        },
      },
      reason: REASON_PARAMETER,
    },
    required: ['rebase_todo_list_items', 'reason'],
    additionalProperties: false,
  },
  args: z.object({ rebase_todo_list_items: z.array(todoItem).min(1), reason }).strict(),
  run: inRebase<{ rebase_todo_list_items: TodoItem[]; reason: string }>(async (args, state, ctx, commands) => {
    // Past the start the list holds only what is left; a whole list would pick every commit again on top.
    if (await rebaseStarted(state, ctx))
      return result(
        'The rebase has already carried out part of the todo list, so ' +
          'it can no longer be replaced. Call execute_rebase to go on.',
        true,
        commands,
      );
    const built = buildTodo(state, args.rebase_todo_list_items, `${state.dir}/ggb-messages`);
    if ('error' in built) return result(built.error, true, commands);
    for (const [file, message] of Object.entries(built.messages)) await ctx.writeFile(file, message);
    await ctx.writeFile(`${state.dir}/git-rebase-todo`, built.todo);
    return result(`The todo list now reads:\n${await renderTodo(state, ctx)}`, false, commands);
  }),
});
