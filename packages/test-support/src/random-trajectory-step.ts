import type { RepoStepState, ToolCallRecord, ToolCallResult } from '@gitbench/core';

/** What a step of a random trajectory holds while it is written. */
export interface StepDraft {
  toolCalls: ToolCallRecord[];
  results: ToolCallResult[];
  refsChanged: RepoStepState['refsChanged'];
  content: string | null;
  reasoning: string | null;
  diff: string;
  formatStrike: boolean;
  runtimeNote: string | null;
  finishReason: string | null;
}

/** The repository as the random agent has left it. */
export interface RandomRepo {
  branch: string | null;
  staged: number;
  unstaged: number;
  untracked: number;
  conflicted: number;
  operation: 'merge' | 'rebase' | null;
}

/** The trajectory's random source, in the order its draws are made (the trajectory is reproducible from its seed). */
export interface Dice {
  rand: () => number;
  int: (lo: number, hi: number) => number;
  pick: <T>(xs: readonly T[]) => T;
  sha: () => string;
}

export interface StepTools {
  call: (index: number, name: string, args: Record<string, unknown>) => ToolCallRecord;
  result: (call: ToolCallRecord, full: string, exitCode: number | null, isError?: boolean) => ToolCallResult;
  bash: (command: string, output: string, exitCode: number) => void;
  diffOf: (file: string, removed: string[], added: string[]) => string;
  moveHead: (changed: RepoStepState['refsChanged']) => void;
}

export const FILES = ['src/app.py', 'src/util.py', 'README.md', 'tests/test_app.py', 'docs/guide.md'];
export const BRANCHES = ['main', 'feature/login', 'topic/cleanup'];

/**
 * A step with no operation under way and nothing to submit: a turn without a tool call, truncated arguments, a
 * merge or rebase that conflicts, a failing command, an edit, a commit or a look around. Returns the file left
 * conflicted, if any.
 */
export function ordinaryStep(ctx: {
  index: number;
  seed: number;
  step: StepDraft;
  repo: RandomRepo;
  refs: Record<string, string>;
  dice: Dice;
  tools: StepTools;
}): string | null {
  const { index, step, repo, refs } = ctx;
  const { rand, int, pick, sha } = ctx.dice;
  const { call, result, bash, diffOf, moveHead } = ctx.tools;
  let pending: string | null = null;
  const roll = rand();
  if (index % 13 === 5) {
    step.formatStrike = true;
    step.finishReason = 'stop';
    step.reasoning = null;
    step.content = pick([
      'Let me think about which branch holds the fix before running anything.',
      'I will now inspect the history.',
    ]);
    step.runtimeNote = 'Your reply had no tool call. Call one of the tools, or submit when you are done.';
  } else if (index % 17 === 9) {
    const c: ToolCallRecord = {
      id: `call_${ctx.seed}_${index}_bad`,
      name: 'bash',
      rawArguments: '{"command": "git log --oneline --graph --decorate -n 3',
      arguments: null,
      parseError: 'Unterminated string in JSON at position 52',
    };
    step.toolCalls.push(c);
    step.results.push({
      callId: c.id,
      name: 'bash',
      isError: true,
      exitCode: null,
      timedOut: false,
      durationMs: 0,
      output: 'The arguments are not valid JSON (Unterminated string in JSON at position 52). Send the call again.',
      outputBytes: 98,
      truncatedBytes: 0,
    });
    step.finishReason = 'length';
  } else if (roll < 0.12 && repo.operation === null) {
    const file = pick(FILES.slice(0, 2));
    bash(
      'git merge feature/login',
      `Auto-merging ${file}\nCONFLICT (content): Merge conflict ` +
        `in ${file}\nAutomatic merge failed; fix conflicts and then commit the result.`,
      1,
    );
    repo.operation = 'merge';
    repo.conflicted = 1;
    pending = file;
    step.diff = diffOf(
      file,
      ['    return greet(user)'],
      [
        '<<<<<<< HEAD',
        '    return greet(user)',
        '=======',
        '    return greet(user, formal=True)',
        '>>>>>>> feature/login',
      ],
    );
  } else if (roll < 0.2 && repo.operation === null) {
    bash(
      'git switch topic/cleanup && git rebase main',
      `Switched to branch 'topic/cleanup'\nCONFLICT (content): Merge conflict in src/util.py\nerror: ` +
        `could not apply ${sha().slice(0, 7)}... Tidy helpers\nhint: Resolve all conflicts manually, ` +
        `mark them as resolved with "git add/rm <conflicted_files>", then run "git rebase --continue".`,
      1,
    );
    repo.operation = 'rebase';
    repo.branch = null;
    repo.conflicted = 1;
    pending = 'src/util.py';
    step.diff = diffOf(
      'src/util.py',
      ['def tidy(x):'],
      ['<<<<<<< HEAD', 'def tidy(x):', '=======', 'def tidy(value):', '>>>>>>> Tidy helpers'],
    );
  } else if (roll < 0.3) {
    const [command, output, code] = pick([
      [
        'git chekout main',
        "git: 'chekout' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tcheckout",
        1,
      ],
      [
        'git push origin main',
        "fatal: 'origin' does not appear to be a git repository\nfatal: Could not read from remote repository.",
        128,
      ],
      [
        'python3 -m pytest -q',
        `F.\n=================================== FAILURES ` +
          `===================================\n____________________________ ` +
          `test_greet_formal ____________________________\n    assert ` +
          `greet(u, formal=True) == "Good day, Ada"\nE   AssertionError\n1 failed, 1 passed in 0.04s`,
        1,
      ],
    ] as const);
    bash(command, output, code);
  } else if (roll < 0.42) {
    const file = pick(FILES);
    const c = call(index, 'write_file', {
      path: file,
      content: `# ${file}\n\ndef handler(request):\n    return render(request.user)\n`,
    });
    step.toolCalls.push(c);
    step.results.push(result(c, `Wrote 64 bytes to ${file}.`, null, false));
    repo.unstaged++;
    step.diff = diffOf(file, ['    return render(user)'], ['    return render(request.user)']);
  } else if (roll < 0.5 && repo.unstaged > 0) {
    bash(
      `git commit -am ${JSON.stringify(pick(['Fix handler', 'Use the request user', 'Tidy imports']))}`,
      `[${repo.branch ?? 'detached HEAD'} ${sha().slice(0, 7)}] Fix ` +
        `handler\n ${repo.unstaged} file(s) changed, 3 insertions(+), 2 deletions(-)`,
      0,
    );
    repo.unstaged = 0;
    moveHead(step.refsChanged);
  } else if (roll < 0.6) {
    const c = call(index, 'read_file', { path: pick(FILES) });
    step.toolCalls.push(c);
    step.results.push(
      result(
        c,
        Array.from({ length: int(5, 40) }, (_, i) => `${i + 1}\tline ${i + 1} of the file`).join('\n'),
        null,
        false,
      ),
    );
  } else {
    const [command, output] = pick([
      ['git status', `On branch ${repo.branch ?? '(no branch)'}\nnothing to commit, working tree clean`],
      [
        'git log --oneline --graph -n 8',
        Array.from(
          { length: 8 },
          (_, i) =>
            `* ${sha().slice(0, 7)} ${pick(['Add login form', 'Fix tests', 'Merge branch', 'Tidy helpers'])} ${i}`,
        ).join('\n'),
      ],
      [
        'git branch -vv',
        BRANCHES.map(
          (b) => `${b === repo.branch ? '*' : ' '} ${b.padEnd(16)} ${refs[`refs/heads/${b}`]!.slice(0, 7)} last commit`,
        ).join('\n'),
      ],
      [
        'git diff --stat main...feature/login',
        ' src/app.py | 12 ++++++++----\n 1 file changed, 8 insertions(+), 4 deletions(-)',
      ],
    ] as const);
    bash(command, output, 0);
  }
  return pending;
}
