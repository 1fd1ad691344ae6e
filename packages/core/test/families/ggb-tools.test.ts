import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildTodo,
  commitChangesInTool,
  commitRemainingChangesTool,
  executeRebaseTool,
  getToolSet,
  resolveCurrentMergeConflictTool,
  showChangesInTool,
  splitCommitTool,
  splitPartsError,
  updateRebaseTodoListTool,
  viewCurrentMergeConflictTool,
  viewDiffForTool,
  viewHunksToSplitTool,
  viewFileAtTool,
  viewMergeBaseOfTool,
  viewMergeConflictAtTool,
  viewOtherChangesTool,
  viewRebaseTodoTool,
  viewRemainingHunksTool,
  viewRewrittenHistoryTool,
} from '../../src';
import { cappedContext, hostContext, tempRepo } from './ggb-host-context';

const r = 'testing';

describe('GitGoodBench tool sets', () => {
  it('are registered by name, every tool takes a required reason, and each set ends with submit', () => {
    for (const name of ['ggb-mcr', 'ggb-ir', 'ggb-icc']) {
      const set = getToolSet(name);
      expect(set.tools.at(-1)!.name).toBe('submit');
      for (const tool of set.tools.slice(0, -1)) {
        expect(tool.parameters.required).toContain('reason');
        expect(tool.args.safeParse({}).success).toBe(false);
      }
    }
    expect(getToolSet('ggb-mcr').tools.map((t) => t.name)).toEqual([
      'view_current_merge_conflict_with',
      'view_merge_conflict_at',
      'view_diff_for',
      'view_file_at',
      'view_merge_base_of',
      'resolve_current_merge_conflict_with',
      'submit',
    ]);
  });
});

describe('MCR tools on a real merge', () => {
  function conflicted() {
    const { dir, sh } = tempRepo();
    sh(
      `printf 'a = 1\\r\\nb = 2\\r\\nc = 3\\r\\nd = 4\\r\\ne = 5\\r\\nf = 6\\r\\ng = ` +
        `7\\r\\n' > x.py && printf 'one\\n' > y.py && git add . && git commit -qm base`,
    );
    sh(
      `git checkout -qb incoming && sed -i 's/^a = 1/a = 10/; s/^g = 7/g ` +
        `= 70/' x.py && printf 'uno\\n' > y.py && git commit -qam theirs`,
    );
    sh(
      `git checkout -q main && sed -i 's/^a = 1/a = 100/; s/^g = 7/g ` +
        `= 700/' x.py && printf 'eins\\n' > y.py && git commit -qam ours`,
    );
    sh('git merge --no-edit incoming || true');
    return { dir, sh, ctx: hostContext(dir) };
  }

  it(
    'numbers the conflicts still unresolved, shows the live file, ' + 'keeps CRLF and commits after the last one',
    async () => {
      const { dir, sh, ctx } = conflicted();
      const first = await viewCurrentMergeConflictTool.run({ context_window_size: 1, reason: r }, ctx);
      expect(first.output).toContain('<CONFLICT-0> x.py');
      expect(first.output).toContain('3 conflict(s) remain');
      const second = await viewMergeConflictAtTool.run({ conflict_index: 1, context_window_size: 0, reason: r }, ctx);
      expect(second.output).toContain('g = 700');
      expect(
        (await viewMergeConflictAtTool.run({ conflict_index: 3, context_window_size: 0, reason: r }, ctx)).isError,
      ).toBe(true);
      expect((await viewDiffForTool.run({ relative_path_from_project_root: 'y.py', reason: r }, ctx)).output).toContain(
        '+uno',
      );

      // The merge base: what both sides changed x.py from (the index's stage 1 while the file is unmerged).
      const base = await viewMergeBaseOfTool.run({ relative_path_from_project_root: 'x.py', reason: r }, ctx);
      expect(base).toMatchObject({
        isError: false,
        output: 'a = 1\r\nb = 2\r\nc = 3\r\nd = 4\r\ne = 5\r\nf = 6\r\ng = 7\r\n',
      });
      expect(
        (
          await viewMergeBaseOfTool.run(
            { relative_path_from_project_root: 'x.py', reason: r, offset: 7, limit: 1 },
            ctx,
          )
        ).output,
      ).toBe('g = 7\r\n[lines 7-7 of 7]');
      expect(
        await viewMergeBaseOfTool.run({ relative_path_from_project_root: 'nope.py', reason: r }, ctx),
      ).toMatchObject({
        isError: true,
        output: expect.stringMatching(/^nope\.py does not exist in the merge base [0-9a-f]{12}/),
      });

      const one = await resolveCurrentMergeConflictTool.run({ content: 'a = 110\n', reason: r }, ctx);
      expect(one.output).toContain('2 conflict(s) remain');
      // No drift: the former CONFLICT-1 is now CONFLICT-0, and the file view shows the resolution made.
      expect((await viewCurrentMergeConflictTool.run({ context_window_size: 0, reason: r }, ctx)).output).toContain(
        'g = 700',
      );
      expect((await viewFileAtTool.run({ relative_path_from_project_root: 'x.py', reason: r }, ctx)).output).toContain(
        'a = 110\r\n',
      );
      // A large file is read in parts: a cut view could not be read past its middle.
      expect(
        (await viewFileAtTool.run({ relative_path_from_project_root: 'x.py', reason: r, offset: 1, limit: 1 }, ctx))
          .output,
      ).toMatch(/^a = 110\r\n\[lines 1-1 of \d+; the next part starts at offset 2\]$/);

      await resolveCurrentMergeConflictTool.run({ content: 'g = 770\n', reason: r }, ctx);
      // x.py is staged now (no stage 1 left): the base is read from the merge base commit instead.
      expect(
        (
          await viewMergeBaseOfTool.run(
            { relative_path_from_project_root: 'x.py', reason: r, offset: 1, limit: 1 },
            ctx,
          )
        ).output,
      ).toBe('a = 1\r\n[lines 1-1 of 7; the next part starts at offset 2]');
      expect(sh('git diff --name-only --diff-filter=U')).toBe('y.py\n');
      const last = await resolveCurrentMergeConflictTool.run({ content: 'it\'s "merged" $HOME\n', reason: r }, ctx);
      expect(last.output).toContain('the merge is committed');
      expect(sh('git rev-list --parents -1 HEAD').trim().split(' ')).toHaveLength(3);
      expect(readFileSync(join(dir, 'x.py'), 'utf8')).toBe(
        'a = 110\r\nb = 2\r\nc = 3\r\nd = 4\r\ne = 5\r\nf = 6\r\ng = 770\r\n',
      );
      expect(readFileSync(join(dir, 'y.py'), 'utf8')).toBe('it\'s "merged" $HOME\n');
      expect((await resolveCurrentMergeConflictTool.run({ content: 'x\n', reason: r }, ctx)).isError).toBe(true);
      expect(
        (await viewMergeBaseOfTool.run({ relative_path_from_project_root: 'x.py', reason: r }, ctx)).output,
      ).toMatch(/no merge in progress/);
    },
  );
});

describe('IR tools on a paused rebase', () => {
  function paused() {
    const { dir, sh } = tempRepo();
    sh(`printf 'base\\n' > f.py && git add . && git commit -qm base`);
    for (const [i, msg] of ['add one', 'add two', 'add three'].entries())
      sh(`printf 'line ${i}\\n' >> f.py && git commit -qam '${msg}'`);
    sh(`git config core.editor true && GIT_SEQUENCE_EDITOR="sed -i '1i break'" git rebase -i HEAD~3`);
    return { dir, sh, ctx: hostContext(dir) };
  }

  it(
    'views the todo and commits by a stable index, rewrites ' + 'messages without the shell and finishes the rebase',
    async () => {
      const { sh, ctx } = paused();
      const todo = await viewRebaseTodoTool.run({ reason: r }, ctx);
      expect(todo.output).toMatch(/pick [0-9a-f]+ add one {4}<- COMMIT-0/);
      expect((await showChangesInTool.run({ commit_index: 2, reason: r }, ctx)).output).toContain('+line 2');
      // A commit's changes can be longer than the attempt's output limit: they page like every view.
      expect(showChangesInTool.truncationHint).toMatch(/offset .* limit/);
      expect((await showChangesInTool.run({ commit_index: 2, reason: r, offset: 2, limit: 1 }, ctx)).output).toMatch(
        /^Author: T <t@example.com>\n\[lines 2-2 of \d+; the next part starts at offset 3\]$/,
      );
      const bad = await updateRebaseTodoListTool.run(
        { rebase_todo_list_items: [{ commit_index: 0, command: 'pick' }], reason: r },
        ctx,
      );
      expect(bad).toMatchObject({ isError: true });
      expect(bad.output).toContain('missing: COMMIT-1, COMMIT-2');
      const message = 'Add lines one and two\n\nIt\'s "quoted", $HOME and `ticks` stay as written.';
      const ok = await updateRebaseTodoListTool.run(
        {
          rebase_todo_list_items: [
            { commit_index: 0, command: 'pick' },
            { commit_index: 1, command: 'squash', commit_msg: message },
            { commit_index: 2, command: 'reword', commit_msg: 'Add line three' },
          ],
          reason: r,
        },
        ctx,
      );
      expect(ok.isError).toBe(false);
      // The echo is the list as the agent wrote it: reword and squash with their messages, no exec line or message
      // file.
      const echoed = ok.output.split('\n');
      expect(echoed[0]).toBe('The todo list now reads:');
      expect(echoed[1]).toBe('break    <- done: the rebase is paused here');
      expect(echoed[2]).toMatch(/^pick [0-9a-f]{7} add one {4}<- COMMIT-0$/);
      expect(echoed[3]).toMatch(/^squash [0-9a-f]{7} add two {4}<- COMMIT-1$/);
      expect(echoed.slice(4, 8)).toEqual([
        '    combined message:',
        '    | Add lines one and two',
        '    | ',
        '    | It\'s "quoted", $HOME and `ticks` stay as written.',
      ]);
      expect(echoed[8]).toMatch(/^reword [0-9a-f]{7} add three {4}<- COMMIT-2$/);
      expect(echoed.slice(9)).toEqual(['    new message:', '    | Add line three']);
      expect(ok.output).not.toMatch(/exec|--amend|message-of|msg-/);
      expect((await viewRebaseTodoTool.run({ reason: r }, ctx)).output).toBe(echoed.slice(1).join('\n'));
      expect((await viewRewrittenHistoryTool.run({ reason: r }, ctx)).output).toBe(
        "The rebase is still in progress; the commits written so far:\nNo commit yet: HEAD is the rebase's base.",
      );
      const done = await executeRebaseTool.run({ reason: r }, ctx);
      expect(done.output).toContain('The rebase finished');
      expect(
        sh('git log --format=%B%x00 main~2..main')
          .split('\0')
          .map((m) => m.trim())
          .filter(Boolean),
      ).toEqual(['Add line three', message]);
      expect((await viewRebaseTodoTool.run({ reason: r }, ctx)).isError).toBe(true);
      // The rewritten history before submit: every commit with its whole message and its changes, paged.
      const history = await viewRewrittenHistoryTool.run({ reason: r }, ctx);
      expect(history.isError).toBe(false);
      expect(history.output).toMatch(
        new RegExp(
          [
            /^commit [0-9a-f]{40}\nAuthor: [^\n]+\nDate: [^\n]+\n\n {4}Add lines one and two\n {4}\n/,
            / {4}It's "quoted", \$HOME and `ticks` stay as written.\n\n/,
            /diff --git a\/f.py b\/f.py\n[\s\S]*\+line 0\n\+line 1\n\n/,
            /commit [0-9a-f]{40}\n[\s\S]*\n\n {4}Add line three\n\ndiff --git[\s\S]*\+line 2\n$/,
          ]
            .map((r) => r.source)
            .join(''),
        ),
      );
      expect((await viewRewrittenHistoryTool.run({ reason: r, offset: 1, limit: 1 }, ctx)).output).toMatch(
        /^commit [0-9a-f]{40}\n\[lines 1-1 of \d+; the next part starts at offset 2\]$/,
      );
    },
  );

  it('has no rewritten history to show before a rebase ran', async () => {
    const { dir, sh } = tempRepo();
    sh('git commit -q --allow-empty -m base');
    expect(await viewRewrittenHistoryTool.run({ reason: r }, hostContext(dir))).toMatchObject({
      isError: true,
      output: 'No rebase has been run: there is no rewritten history yet.',
    });
  });

  it('explains every command it lists, fixup -c and edit included, and the tool set says how to split a commit', () => {
    const description = updateRebaseTodoListTool.description;
    type Schema = {
      properties: { rebase_todo_list_items: { items: { properties: { command: { enum: string[] } } } } };
    };
    const listed = (updateRebaseTodoListTool.parameters as unknown as Schema).properties.rebase_todo_list_items.items
      .properties.command.enum;
    expect(listed).toEqual(['pick', 'drop', 'fixup', 'fixup -C', 'fixup -c', 'squash', 'reword', 'edit']);
    for (const command of listed) expect(description).toContain(`${command} (`);
    expect(description).not.toContain('cannot be split');
    expect(getToolSet('ggb-ir').instructions).toMatch(
      /mark it edit in the todo list: the rebase stops after it, view_hunks_to_split .* split_commit/,
    );
  });

  it('splits a commit at an edit stop into commits of its hunks, keeping its author and its files', async () => {
    const { dir, sh } = tempRepo();
    const lines = [...Array(20).keys()].map((i) => `line ${i}`).join('\\n');
    sh(`printf '${lines}\\n' > f.py && git add . && git commit -qm base`);
    sh(
      `sed -i -e 's/^line 1$/ONE/' -e 's/^line 18$/EIGHTEEN/' f.py && ` +
        `printf 'new\\n' > g.py && printf '\\000\\001' > b.bin && git add . && ` +
        `git commit -q --author='Ann <ann@example.com>' --date='2020-02-02T02:02:02Z' -m 'mixed change'`,
    );
    sh(`printf 'tail\\n' >> f.py && git commit -qam 'add tail'`);
    const [mixedTree, tipTree] = sh('git rev-parse HEAD~^{tree} HEAD^{tree}').trim().split('\n');
    sh(`git config core.editor true && GIT_SEQUENCE_EDITOR="sed -i '1i break'" git rebase -i HEAD~2`);
    const ctx = hostContext(dir);
    const noStop = await splitCommitTool.run({ parts: [], reason: r } as never, ctx);
    expect(noStop).toMatchObject({ isError: true });
    expect(noStop.output).toContain('not stopped at an `edit` item');
    const set = await updateRebaseTodoListTool.run(
      {
        rebase_todo_list_items: [
          { commit_index: 0, command: 'edit' },
          { commit_index: 1, command: 'pick' },
        ],
        reason: r,
      },
      ctx,
    );
    expect(set.output.split('\n')[2]).toMatch(/^edit [0-9a-f]{7} mixed change {4}<- COMMIT-0$/);
    const stopped = await executeRebaseTool.run({ reason: r }, ctx);
    expect(stopped.isError).toBe(false);
    expect(stopped.output).toMatch(/^The rebase stopped after COMMIT-0 \(edit\) so that it can be split/);
    expect((await viewRebaseTodoTool.run({ reason: r }, ctx)).output.split('\n')[1]).toMatch(
      /^edit [0-9a-f]{7} mixed change {4}<- COMMIT-0, done: the rebase is paused here$/,
    );
    // Past the start a whole list would pick both commits again on top of the ones done.
    expect(
      await updateRebaseTodoListTool.run(
        { rebase_todo_list_items: [0, 1].map((i) => ({ commit_index: i, command: 'pick' as const })), reason: r },
        ctx,
      ),
    ).toMatchObject({ isError: true, output: expect.stringContaining('can no longer be replaced') });

    const hunks = (await viewHunksToSplitTool.run({ reason: r }, ctx)).output;
    expect(hunks.split('\n')[0]).toBe('COMMIT-0 as picked, 4 hunk(s):');
    expect(hunks).toMatch(/<HUNK-1>\ndiff --git a\/b\.bin b\/b\.bin\n[\s\S]*GIT binary patch[\s\S]*<\/HUNK-1>/);
    expect(hunks).toMatch(
      /<HUNK-2>\n@@ [^\n]*\n[\s\S]*\+ONE\n[\s\S]*<HUNK-3>\n@@[\s\S]*\+EIGHTEEN[\s\S]*<HUNK-4>\n@@ -0,0 \+1 @@\n\+new/,
    );
    const bad = await splitCommitTool.run(
      {
        parts: [
          { hunks: [1, 2], commit_msg: 'a' },
          { hunks: [2, 5], commit_msg: 'b' },
        ],
        reason: r,
      },
      ctx,
    );
    expect(bad).toMatchObject({
      isError: true,
      output: 'No such hunk: 5 (the commit has hunks 1 to 4). view_hunks_to_split shows the hunks.',
    });

    const split = await splitCommitTool.run(
      {
        parts: [
          { hunks: [2, 4], commit_msg: 'Rename line one and add g.py' },
          { hunks: [1, 3], commit_msg: "Rename line eighteen, add b.bin\n\nIt's $HOME" },
        ],
        reason: r,
      },
      ctx,
    );
    expect(split.isError).toBe(false);
    expect(split.output).toMatch(
      new RegExp(
        /^COMMIT-0 is now 2 commits:\n/.source +
          /[0-9a-f]+ Rename line one and add g.py\n[0-9a-f]+ Rename line eighteen, add b.bin\n/.source,
      ),
    );
    expect((await splitCommitTool.run({ parts: [], reason: r } as never, ctx)).output).toContain('already been split');
    expect((await executeRebaseTool.run({ reason: r }, ctx)).output).toContain('The rebase finished');

    expect(sh('git log --format=%an%x09%ad%x09%s --date=iso-strict main~3..main').trim().split('\n')).toEqual([
      'T\t2024-01-01T00:00:00+00:00\tadd tail',
      'Ann\t2020-02-02T02:02:02+00:00\tRename line eighteen, add b.bin',
      'Ann\t2020-02-02T02:02:02+00:00\tRename line one and add g.py',
    ]);
    expect(sh('git log -1 --format=%B main~1').trim()).toBe("Rename line eighteen, add b.bin\n\nIt's $HOME");
    // The first part holds its hunks only; the second ends at the split commit's files, the tip unchanged.
    expect(sh('git diff --name-status main~3 main~2').trim()).toBe('M\tf.py\nA\tg.py');
    expect(sh('git show main~2:f.py')).toContain('ONE\nline 2');
    expect(sh('git show main~2:f.py')).toContain('line 18\n');
    expect(sh('git rev-parse main~1^{tree} main^{tree}').trim().split('\n')).toEqual([mixedTree, tipTree]);
    expect(sh('git status --porcelain')).toBe('');
  });

  it("reads what it splits and pages whole, past the attempt's output limit", async () => {
    const { dir, sh } = tempRepo();
    const block = (tag: string) => [...Array(60).keys()].map((k) => `${tag} line ${k}`).join('\\n');
    sh(`printf 'top\\n${block('base')}\\n' > f.py && git add . && git commit -qm base`);
    sh(`sed -i 's/^top$/TOP/' f.py && printf '${block('zero')}\\n' >> f.py && git commit -qam 'zero'`);
    for (const tag of ['one', 'two']) sh(`printf '${block(tag)}\\n' >> f.py && git commit -qam '${tag}'`);
    sh(`git config core.editor true && GIT_SEQUENCE_EDITOR="sed -i '1i break'" git rebase -i HEAD~3`);
    // A session keeps 512 bytes of a command here: every diff and the history are longer.
    const ctx = cappedContext(dir, 512);
    await updateRebaseTodoListTool.run(
      { rebase_todo_list_items: [0, 1, 2].map((i) => ({ commit_index: i, command: i ? 'pick' : 'edit' })), reason: r },
      ctx,
    );
    await executeRebaseTool.run({ reason: r }, ctx);
    const split = await splitCommitTool.run(
      {
        parts: [
          { hunks: [1], commit_msg: 'Capitalise top' },
          { hunks: [2], commit_msg: 'Add the zero lines' },
        ],
        reason: r,
      },
      ctx,
    );
    expect(split.isError, split.output).toBe(false);
    expect((await executeRebaseTool.run({ reason: r }, ctx)).output).toContain('The rebase finished');
    expect(sh('git diff --stat main~4 main~3 | tail -1').trim()).toBe('1 file changed, 1 insertion(+), 1 deletion(-)');
    expect(sh('git diff --stat main~3 main~2 | tail -1').trim()).toBe('1 file changed, 60 insertions(+)');
    const log = sh('git log --reverse --no-color --no-ext-diff -p main~4..main').split('\n');
    const middle = log.indexOf('+one line 30');
    expect(middle).toBeGreaterThan(100);
    const page = await viewRewrittenHistoryTool.run({ reason: r, offset: middle + 1, limit: 1 }, ctx);
    expect(page.output.split('\n')[0]).toBe('+one line 30');
    // A history is not a file: an offset past its end says so in those words.
    expect((await viewRewrittenHistoryTool.run({ reason: r, offset: log.length + 5, limit: 1 }, ctx)).output).toBe(
      `[the answer has ${log.length - 1} line(s); offset ${log.length + 5} is past its end]`,
    );
  });

  it('wants every hunk in exactly one part', () => {
    const parts = (...groups: number[][]) => groups.map((hunks) => ({ hunks, commit_msg: 'm' }));
    expect(splitPartsError(parts([1], [2, 3]), 3)).toBeNull();
    expect(splitPartsError(parts([1, 2], [2, 3]), 3)).toBe('Hunk 2 is given to more than one part.');
    expect(splitPartsError(parts([1], [3]), 3)).toBe('Every hunk goes to one part; not given: 2.');
    expect(splitPartsError(parts([1], [4, 2, 3]), 3)).toBe('No such hunk: 4 (the commit has hunks 1 to 3).');
  });

  it('fixup -C keeps the fixup commit message; fixup -c is the same; a first fixup is refused', () => {
    const state = {
      dir: '.git/rebase-merge',
      onto: 'o',
      commits: ['a', 'b'].map((x) => ({ sha: x.repeat(40), subject: x })),
    };
    const t = buildTodo(
      state,
      [
        { commit_index: 0, command: 'pick' },
        { commit_index: 1, command: 'fixup -c' },
      ],
      'm',
    );
    expect(t).toEqual({ todo: `pick ${'a'.repeat(40)} a\nfixup -C ${'b'.repeat(40)} b\n`, messages: {} });
    expect(
      buildTodo(
        state,
        [
          { commit_index: 1, command: 'fixup' },
          { commit_index: 0, command: 'pick' },
        ],
        'm',
      ),
    ).toHaveProperty('error');
  });
});

describe('ICC tools on an unorganised change', () => {
  it('commits selected hunks of the target file, renumbers the rest, and commits what remains', async () => {
    const { sh, dir } = tempRepo();
    const lines = Array.from({ length: 30 }, (_, i) => `v${i} = ${i}`).join('\\n');
    sh(`printf '${lines}\\n' > t.py && printf 'x\\n' > other.py && git add . && git commit -qm base`);
    sh(
      `sed -i 's/^v1 = 1$/v1 = 11/; s/^v15 = 15$/v15 = 115/; s/^v28 = 28$/v28 = ` +
        `128/' t.py && printf 'y\\n' > other.py && git config ggb.targetFile t.py`,
    );
    const ctx = hostContext(dir);
    const first = await commitChangesInTool.run(
      { selected_hunks: [2], commit_message: "Change v15's value", reason: r },
      ctx,
    );
    expect(first.isError).toBe(false);
    expect(first.output).toContain('<HUNK-1>');
    expect(first.output).toContain('<HUNK-2>');
    expect(first.output).not.toContain('<HUNK-3>');
    expect(first.output).toContain('v28 = 128');
    // The list after a commit can be cut by the output limit: view_remaining_hunks gives it again, in parts.
    expect(commitChangesInTool.truncationHint).toContain('view_remaining_hunks');
    const list = await viewRemainingHunksTool.run({ reason: r }, ctx);
    expect(list.output).toBe(first.output.slice(first.output.indexOf('Remaining hunks')));
    expect((await viewRemainingHunksTool.run({ reason: r, offset: 2, limit: 1 }, ctx)).output).toMatch(
      /^<HUNK-1>\n\[lines 2-2 of \d+; the next part starts at offset 3\]$/,
    );
    expect((await commitChangesInTool.run({ selected_hunks: [3], commit_message: 'x', reason: r }, ctx)).isError).toBe(
      true,
    );
    await commitChangesInTool.run({ selected_hunks: [1, 2], commit_message: 'Change v1 and v28', reason: r }, ctx);
    expect(sh('git diff --name-only')).toBe('other.py\n');
    // What the last commit will hold besides the target file: other.py's change and the untracked file, never t.py.
    sh(`printf 'new\\n' > added.py && printf 'v0 = 100\\n' >> t.py`);
    const others = await viewOtherChangesTool.run({ reason: r }, ctx);
    expect(others.isError).toBe(false);
    expect(others.output).toMatch(
      new RegExp(
        /^diff --git a\/other.py b\/other.py\n[\s\S]*-x\n\+y\n/.source +
          /diff --git a\/added.py b\/added.py\nnew file mode 100644\n[\s\S]*\+new\n$/.source,
      ),
    );
    expect(others.output).not.toContain('t.py');
    expect((await viewOtherChangesTool.run({ reason: r, offset: 1, limit: 1 }, ctx)).output).toMatch(
      /^diff --git a\/other.py b\/other.py\n\[lines 1-1 of \d+; the next part starts at offset 2\]$/,
    );
    sh('rm added.py && git checkout -q -- t.py');
    expect((await commitRemainingChangesTool.run({ commit_message: 'Update other', reason: r }, ctx)).output).toContain(
      'Committed',
    );
    expect(sh('git log --format=%s')).toBe("Update other\nChange v1 and v28\nChange v15's value\nbase\n");
    expect(sh('git status --porcelain')).toBe('');
  });
});
