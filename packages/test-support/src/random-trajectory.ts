import {
  TRAJECTORY_VERSION,
  trajectoryStepSchema,
  trajectorySummarySchema,
  type AgentExitStatus,
  type RepoStepState,
  type ToolCallRecord,
  type ToolCallResult,
  type TrajectoryStep,
  type TrajectorySummary,
} from '@gitbench/core';
import { prng } from './random-campaign';

/**
 * A seed factory for trajectories: the steps an agent might take on a merge-and-rebase task, with
 * inspections, a merge conflict resolved by editing, a rebase with a conflict, failing commands
 * (typos, a missing remote), turns without a tool call, truncated arguments, big outputs, and an end
 * by submit or by a limit. Reproducible from its seed; every record passes core's schemas, so what
 * the viewer renders in tests and benchmarks has the shapes the runtime writes.
 */
export interface RandomTrajectoryOptions {
  seed: number;
  steps: number;
  /** How the loop ends; `submitted` puts a submit call on the last step. Default: submitted. */
  exitStatus?: AgentExitStatus;
  /** Bytes of stored tool output per step for the big-output steps (every step when `everyStep`). */
  bigOutputBytes?: number;
  /** Every step carries a big output (the benchmark's 50 MB trajectory), not one in ten. */
  bigOutputEveryStep?: boolean;
  /**
   * Bytes of output the model saw (and the record keeps); beyond it the output is cut, head and tail kept. Default 16
   * KiB.
   */
  maxToolOutputBytes?: number;
  startedAt?: Date;
  agent?: string;
  model?: string;
}

export interface RandomTrajectory {
  summary: TrajectorySummary;
  steps: TrajectoryStep[];
}

const FILES = ['src/app.py', 'src/util.py', 'README.md', 'tests/test_app.py', 'docs/guide.md'];
const BRANCHES = ['main', 'feature/login', 'topic/cleanup'];
const PRICE_IN = 2.5e-6;
const PRICE_OUT = 1e-5;

export function randomTrajectory(opts: RandomTrajectoryOptions): RandomTrajectory {
  const rand = prng(opts.seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  const sha = () => hex(40);
  const cap = opts.maxToolOutputBytes ?? 16_384;
  const exitStatus = opts.exitStatus ?? 'submitted';

  let clock = (opts.startedAt ?? new Date('2026-11-20T10:00:00Z')).getTime();
  let context = 1_800;
  const refs: Record<string, string> = Object.fromEntries(BRANCHES.map((b) => [`refs/heads/${b}`, sha()]));
  const repo = {
    branch: 'main' as string | null,
    staged: 0,
    unstaged: 0,
    untracked: 0,
    conflicted: 0,
    operation: null as 'merge' | 'rebase' | null,
  };
  let pendingConflict: string | null = null;
  const steps: TrajectoryStep[] = [];

  // Lines of a big output come from a pool, so 50 MB of them take milliseconds, not seconds.
  const pool = Array.from(
    { length: 256 },
    () =>
      `${hex(12)} ${pick(FILES)}: ` +
      pick(['fix typo', 'add test', 'refactor helper', 'bump version', 'handle empty input']),
  );
  const bigText = (bytes: number, label: string) => {
    const lines: string[] = [];
    const offset = int(0, 255);
    let size = 0;
    for (let i = 0; size < bytes; i++) {
      const line = `${label} ${String(i).padStart(6, '0')} ${pool[(i * 7 + offset) % 256]}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  const result = (
    call: ToolCallRecord,
    full: string,
    exitCode: number | null,
    isError = exitCode !== null && exitCode !== 0,
  ): ToolCallResult => {
    const bytes = Buffer.byteLength(full);
    const shown =
      bytes > cap ? `${full.slice(0, cap / 2)}\n[… ${bytes - cap} bytes cut …]\n${full.slice(-cap / 2)}` : full;
    return {
      callId: call.id,
      name: call.name,
      isError,
      exitCode,
      timedOut: false,
      durationMs: int(4, 180),
      output: shown,
      outputBytes: bytes,
      truncatedBytes: Math.max(0, bytes - cap),
    };
  };
  const call = (index: number, name: string, args: Record<string, unknown>): ToolCallRecord => ({
    id: `call_${opts.seed}_${index}_${name}`,
    name,
    rawArguments: JSON.stringify(args),
    arguments: args,
    parseError: null,
  });
  const diffOf = (file: string, removed: string[], added: string[]) => {
    const body = [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join('\n');
    return (
      `diff --git a/${file} b/${file}\nindex ${sha().slice(0, 7)}..${sha().slice(0, 7)} 100644\n--- ` +
      `a/${file}\n+++ b/${file}\n@@ -${int(1, 40)},${removed.length + 2} +${int(1, 40)},${added.length + 2} ` +
      `@@ def handler(request):\n     user = request.user\n${body}\n     return render(user)`
    );
  };
  const moveHead = (changed: RepoStepState['refsChanged']) => {
    const ref = repo.branch ? `refs/heads/${repo.branch}` : 'HEAD';
    const before = refs[ref] ?? null;
    const after = sha();
    refs[ref] = after;
    changed.push({ ref, before, after });
  };

  for (let index = 0; index < opts.steps; index++) {
    const last = index === opts.steps - 1;
    const toolCalls: ToolCallRecord[] = [];
    const results: ToolCallResult[] = [];
    const refsChanged: RepoStepState['refsChanged'] = [];
    let content: string | null = null;
    let reasoning: string | null =
      rand() < 0.6
        ? `The repository is on ${repo.branch ?? 'a detached HEAD'}; next I should ` +
          pick([
            'look at the log',
            'check the status',
            'resolve the conflict',
            'continue the rebase',
            'verify the result',
          ]) +
          '.'
        : null;
    let diff = '';
    let formatStrike = false;
    let runtimeNote: string | null = null;
    let finishReason: string | null = 'tool_calls';
    const big = opts.bigOutputBytes && (opts.bigOutputEveryStep || index % 10 === 7);

    const bash = (command: string, output: string, exitCode: number) => {
      const c = call(index, 'bash', { command });
      toolCalls.push(c);
      results.push(result(c, output, exitCode));
    };

    if (last && exitStatus === 'submitted') {
      const c = call(index, 'submit', {
        answer:
          `Merged feature/login into main and rebased topic/cleanup ` +
          `onto it (${refs['refs/heads/main']!.slice(0, 7)}).`,
      });
      toolCalls.push(c);
      results.push(result(c, 'Submitted.', null, false));
      content = 'The work is done; submitting.';
    } else if (big) {
      bash('git log -p --all', bigText(opts.bigOutputBytes!, 'commit'), 0);
    } else if (pendingConflict) {
      // Resolve what the previous merge or rebase left, then carry the operation on.
      const file = pendingConflict;
      const c = call(index, 'str_replace', { path: file, old: '<<<<<<< HEAD', new: '' });
      toolCalls.push(c);
      results.push(result(c, `Replaced 1 occurrence in ${file}.`, null, false));
      diff = diffOf(
        file,
        [
          '<<<<<<< HEAD',
          '    return greet(user)',
          '=======',
          '    return greet(user, formal=True)',
          '>>>>>>> feature/login',
        ],
        ['    return greet(user, formal=True)'],
      );
      const add = call(index, 'bash', {
        command: `git add ${file} && git ${repo.operation === 'rebase' ? 'rebase --continue' : 'commit --no-edit'}`,
      });
      toolCalls.push(add);
      results.push(
        result(
          add,
          repo.operation === 'rebase'
            ? 'Successfully rebased and updated refs/heads/topic/cleanup.'
            : `[main ${sha().slice(0, 7)}] Merge branch 'feature/login'`,
          0,
        ),
      );
      repo.conflicted = 0;
      repo.staged = 0;
      repo.operation = null;
      pendingConflict = null;
      moveHead(refsChanged);
    } else {
      const roll = rand();
      if (index % 13 === 5) {
        formatStrike = true;
        finishReason = 'stop';
        reasoning = null;
        content = pick([
          'Let me think about which branch holds the fix before running anything.',
          'I will now inspect the history.',
        ]);
        runtimeNote = 'Your reply had no tool call. Call one of the tools, or submit when you are done.';
      } else if (index % 17 === 9) {
        const c: ToolCallRecord = {
          id: `call_${opts.seed}_${index}_bad`,
          name: 'bash',
          rawArguments: '{"command": "git log --oneline --graph --decorate -n 3',
          arguments: null,
          parseError: 'Unterminated string in JSON at position 52',
        };
        toolCalls.push(c);
        results.push({
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
        finishReason = 'length';
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
        pendingConflict = file;
        diff = diffOf(
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
        pendingConflict = 'src/util.py';
        diff = diffOf(
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
        toolCalls.push(c);
        results.push(result(c, `Wrote 64 bytes to ${file}.`, null, false));
        repo.unstaged++;
        diff = diffOf(file, ['    return render(user)'], ['    return render(request.user)']);
      } else if (roll < 0.5 && repo.unstaged > 0) {
        bash(
          `git commit -am ${JSON.stringify(pick(['Fix handler', 'Use the request user', 'Tidy imports']))}`,
          `[${repo.branch ?? 'detached HEAD'} ${sha().slice(0, 7)}] Fix ` +
            `handler\n ${repo.unstaged} file(s) changed, 3 insertions(+), 2 deletions(-)`,
          0,
        );
        repo.unstaged = 0;
        moveHead(refsChanged);
      } else if (roll < 0.6) {
        const c = call(index, 'read_file', { path: pick(FILES) });
        toolCalls.push(c);
        results.push(
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
              (b) =>
                `${b === repo.branch ? '*' : ' '} ${b.padEnd(16)} ${refs[`refs/heads/${b}`]!.slice(0, 7)} last commit`,
            ).join('\n'),
          ],
          [
            'git diff --stat main...feature/login',
            ' src/app.py | 12 ++++++++----\n 1 file changed, 8 insertions(+), 4 deletions(-)',
          ],
        ] as const);
        bash(command, output, 0);
      }
    }

    const modelMs = int(250, 4_000);
    const toolMs = results.reduce((s, r) => s + r.durationMs, 0);
    const startedAt = new Date(clock);
    clock += modelMs + toolMs + int(2, 20);
    const inputTokens = context;
    const outputTokens = int(20, 400);
    const reasoningTokens = reasoning ? int(10, 200) : 0;
    // The runtime keeps the conversation within the model's window; so does this.
    context = Math.min(
      120_000,
      context +
        outputTokens +
        Math.min(
          4_000,
          results.reduce((s, r) => s + Math.ceil(r.output.length / 4), 0),
        ),
    );
    steps.push({
      index,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date(clock).toISOString(),
      modelMs,
      toolMs,
      channel: 'native',
      message: { content, reasoning },
      toolCalls,
      results,
      usage: {
        inputTokens,
        outputTokens,
        reasoningTokens,
        totalTokens: inputTokens + outputTokens,
        costUsd: Number((inputTokens * PRICE_IN + outputTokens * PRICE_OUT).toFixed(6)),
        costEstimated: true,
      },
      finishReason,
      retries: index % 23 === 11 ? 1 : 0,
      formatStrike,
      runtimeNote,
      repo: {
        head: refs[repo.branch ? `refs/heads/${repo.branch}` : 'refs/heads/topic/cleanup'] ?? null,
        branch: repo.branch,
        staged: repo.staged,
        unstaged: repo.unstaged,
        untracked: repo.untracked,
        conflicted: repo.conflicted,
        operations: repo.operation ? [repo.operation] : [],
        refsChanged,
        diff,
        diffBytes: Buffer.byteLength(diff),
        diffTruncatedBytes: 0,
      },
    });
    if (repo.operation === null && repo.branch === null) repo.branch = 'topic/cleanup';
  }

  const sum = (f: (s: TrajectoryStep) => number | null) => steps.reduce((a, s) => a + (f(s) ?? 0), 0);
  const limitStop = exitStatus.endsWith('_limit') || exitStatus === 'format_errors';
  const summary: TrajectorySummary = {
    version: TRAJECTORY_VERSION,
    agent: opts.agent ?? `simulated:${opts.seed}`,
    model: opts.model ?? `simulated:${opts.seed}`,
    toolSet: 'bash+editor',
    protocol: 'native',
    exitStatus,
    exitDetail: limitStop ? `stopped after step ${opts.steps}` : null,
    exitStep: opts.steps > 0 ? opts.steps - 1 : null,
    submission:
      exitStatus === 'submitted'
        ? String((steps.at(-1)?.toolCalls[0]?.arguments as { answer?: string } | undefined)?.answer ?? '')
        : null,
    steps: steps.length,
    totals: {
      inputTokens: sum((s) => s.usage.inputTokens),
      outputTokens: sum((s) => s.usage.outputTokens),
      reasoningTokens: sum((s) => s.usage.reasoningTokens),
      totalTokens: sum((s) => s.usage.totalTokens),
      costUsd: Number(sum((s) => s.usage.costUsd).toFixed(6)),
      costEstimated: true,
      modelMs: sum((s) => s.modelMs),
      toolMs: sum((s) => s.toolMs),
      wallMs: steps.length ? new Date(steps.at(-1)!.finishedAt).getTime() - new Date(steps[0]!.startedAt).getTime() : 0,
      toolCalls: sum((s) => s.toolCalls.length),
    },
    systemPrompt:
      'You are working in a Git repository inside a sandbox. Use the tools to act; call submit when you are done.',
    taskPrompt:
      'Merge feature/login into main, resolving any conflict in favour ' +
      'of the formal greeting, then rebase topic/cleanup onto main.',
  };
  // Parsed, so a change to the contract that this factory no longer meets fails where it is used.
  return { summary: trajectorySummarySchema.parse(summary), steps: steps.map((s) => trajectoryStepSchema.parse(s)) };
}
