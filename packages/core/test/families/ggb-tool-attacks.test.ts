import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commitChangesInTool,
  commitRemainingChangesTool,
  executeRebaseTool,
  updateRebaseTodoListTool,
  viewDiffForTool,
  viewFileAtTool,
  viewMergeBaseOfTool,
} from '../../src';
import { hostContext, tempRepo } from './ggb-host-context';

/**
 * GitGoodBench's tools as an adversarial model calls them: every argument it controls (a path, a
 * message, a todo item) is tried as an option, a way out of the repository, a shell word or a todo
 * line of its own. None may run a program, write a file outside what the tool writes, or reach past
 * the repository. Real git on a repository of the host; the sandbox's own limits are tested elsewhere.
 */
const reason = 'red team';

/** A merge stopped on a conflict in x.py. */
function conflicted() {
  const { dir, sh } = tempRepo();
  sh(`printf 'a = 1\\n' > x.py && git add . && git commit -qm base`);
  sh(`git checkout -qb incoming && printf 'a = 2\\n' > x.py && git commit -qam theirs`);
  sh(`git checkout -q main && printf 'a = 3\\n' > x.py && git commit -qam ours`);
  sh('git merge --no-edit incoming || true');
  return { dir, sh, ctx: hostContext(dir) };
}

const pathArgs = (path: string) => ({ relative_path_from_project_root: path, reason });

describe("GitGoodBench's tools, attacked through their arguments", () => {
  it('refuse paths out of the repository and paths with a NUL byte, before anything runs', () => {
    for (const tool of [viewFileAtTool, viewDiffForTool, viewMergeBaseOfTool])
      for (const path of ['../x.py', 'a/../../x.py', '/etc/passwd', 'x.py\u0000', '\u0000../../etc/passwd']) {
        const parsed = tool.args.safeParse(pathArgs(path));
        expect({ tool: tool.name, path, ok: parsed.success }).toEqual({ tool: tool.name, path, ok: false });
        expect(parsed.error?.issues[0]?.message).toBe('must be a path inside the repository');
      }
  });

  it('read option-like paths as paths: no --output file, no --upload-pack program, .git/config untouched', async () => {
    const { dir, ctx } = conflicted();
    const config = readFileSync(join(dir, '.git/config'), 'utf8');
    const attacks = [
      '--output=pwned',
      '--output=.git/config',
      '--upload-pack=touch pwned',
      '-c core.fsmonitor=touch pwned',
    ];
    for (const path of attacks) {
      expect(viewDiffForTool.args.safeParse(pathArgs(path)).success).toBe(true);
      await viewDiffForTool.run(pathArgs(path), ctx);
      await viewMergeBaseOfTool.run(pathArgs(path), ctx);
      expect((await viewFileAtTool.run(pathArgs(path), ctx)).output).toBe(`${path} does not exist.`);
    }
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).toBe(config);
    // Pathspec magic only widens what a view shows, inside the repository.
    const all = await viewDiffForTool.run(pathArgs(':(top,glob)**'), ctx);
    expect(all.output).toContain('x.py');
  });

  it('write a reword message with shell words and todo lines of its own to a file: no exec line runs', async () => {
    const { dir, sh } = tempRepo();
    sh(`printf 'base\\n' > f.py && git add . && git commit -qm base`);
    for (const msg of ['add one', 'add two']) sh(`printf '${msg}\\n' >> f.py && git commit -qam '${msg}'`);
    sh(`git config core.editor true && GIT_SEQUENCE_EDITOR="sed -i '1i break'" git rebase -i HEAD~2`);
    const ctx = hostContext(dir);
    const message = "Add two\n\nexec touch pwned\n$(touch pwned) `touch pwned` '; touch pwned; '";
    const updated = await updateRebaseTodoListTool.run(
      {
        rebase_todo_list_items: [
          { commit_index: 0, command: 'pick' },
          { commit_index: 1, command: 'reword', commit_msg: message },
        ],
        reason,
      },
      ctx,
    );
    expect(updated.isError).toBe(false);
    expect((await executeRebaseTool.run({ reason }, ctx)).isError).toBe(false);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    expect(sh('git log -1 --format=%B')).toBe(`${message}\n\n`);
  });

  it('commit messages that read as options are messages, given on stdin', async () => {
    const { dir, sh } = tempRepo();
    sh(
      `printf 'a\\n' > t.py && git add . && git commit -qm base && ` +
        `printf 'b\\n' > t.py && git config ggb.targetFile t.py`,
    );
    const ctx = hostContext(dir);
    const first = '--amend --no-verify -F /etc/passwd';
    expect((await commitChangesInTool.run({ selected_hunks: [1], commit_message: first, reason }, ctx)).isError).toBe(
      false,
    );
    sh(`printf 'c\\n' > other.py`);
    const second = '-c core.fsmonitor=touch pwned $(touch pwned)';
    await commitRemainingChangesTool.run({ commit_message: second, reason }, ctx);
    expect(sh('git log --format=%s')).toBe(`${second}\n${first}\nbase\n`);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});
