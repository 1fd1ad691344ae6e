import {
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
import { summarizeRandomTrajectory } from './random-trajectory-summary';
import {
  BRANCHES,
  FILES,
  ordinaryStep,
  type Dice,
  type RandomRepo,
  type StepDraft,
  type StepTools,
} from './random-trajectory-step';

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

const PRICE_IN = 2.5e-6;
const PRICE_OUT = 1e-5;

/** The generator's state while it writes steps: its random source, the clock, the repository. */
interface TrajectoryWriter {
  opts: RandomTrajectoryOptions;
  exitStatus: AgentExitStatus;
  dice: Dice;
  tools: Omit<StepTools, 'bash'>;
  bigText: (bytes: number, label: string) => string;
  refs: Record<string, string>;
  repo: RandomRepo;
  pendingConflict: string | null;
  clock: number;
  /** Tokens of the conversation so far: the next step's input. */
  context: number;
}

export function randomTrajectory(opts: RandomTrajectoryOptions): RandomTrajectory {
  const w = trajectoryWriter(opts);
  const steps: TrajectoryStep[] = [];
  for (let index = 0; index < opts.steps; index++) {
    steps.push(recordStep(w, index, draftStep(w, index)));
    if (w.repo.operation === null && w.repo.branch === null) w.repo.branch = 'topic/cleanup';
  }
  const summary = summarizeRandomTrajectory(opts, w.exitStatus, steps);
  // Parsed, so a change to the contract that this factory no longer meets fails where it is used.
  return { summary: trajectorySummarySchema.parse(summary), steps: steps.map((s) => trajectoryStepSchema.parse(s)) };
}

/** The random source, then the branches' first commits and the big outputs' pool, drawn in that order. */
function trajectoryWriter(opts: RandomTrajectoryOptions): TrajectoryWriter {
  const rand = prng(opts.seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  const dice: Dice = { rand, int, pick, sha: () => hex(40) };
  const refs: Record<string, string> = Object.fromEntries(BRANCHES.map((b) => [`refs/heads/${b}`, dice.sha()]));
  const repo: RandomRepo = { branch: 'main', staged: 0, unstaged: 0, untracked: 0, conflicted: 0, operation: null };
  const bigText = bigTextWriter(dice, hex);
  return {
    opts,
    exitStatus: opts.exitStatus ?? 'submitted',
    dice,
    tools: stepTools(opts, dice, refs, repo),
    bigText,
    refs,
    repo,
    pendingConflict: null,
    clock: (opts.startedAt ?? new Date('2026-11-20T10:00:00Z')).getTime(),
    context: 1_800,
  };
}

/** Lines of a big output come from a pool, so 50 MB of them take milliseconds, not seconds. */
function bigTextWriter(dice: Dice, hex: (n: number) => string): (bytes: number, label: string) => string {
  const { int, pick } = dice;
  const pool = Array.from(
    { length: 256 },
    () =>
      `${hex(12)} ${pick(FILES)}: ` +
      pick(['fix typo', 'add test', 'refactor helper', 'bump version', 'handle empty input']),
  );
  return (bytes, label) => {
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
}

/** What a step's tool calls are made of: calls, their results (cut as the model saw them), diffs, moved refs. */
function stepTools(
  opts: RandomTrajectoryOptions,
  dice: Dice,
  refs: Record<string, string>,
  repo: RandomRepo,
): Omit<StepTools, 'bash'> {
  const { int, sha } = dice;
  const cap = opts.maxToolOutputBytes ?? 16_384;
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
  return { call, result, diffOf, moveHead };
}

/** One step's turn: a submit on the last step, a big output, the pending conflict resolved, or an ordinary step. */
function draftStep(w: TrajectoryWriter, index: number): StepDraft {
  const { opts, repo } = w;
  const { rand, pick } = w.dice;
  const step: StepDraft = {
    toolCalls: [],
    results: [],
    refsChanged: [],
    content: null,
    reasoning:
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
        : null,
    diff: '',
    formatStrike: false,
    runtimeNote: null,
    finishReason: 'tool_calls',
  };
  const big = opts.bigOutputBytes && (opts.bigOutputEveryStep || index % 10 === 7);
  const bash = (command: string, output: string, exitCode: number) => {
    const c = w.tools.call(index, 'bash', { command });
    step.toolCalls.push(c);
    step.results.push(w.tools.result(c, output, exitCode));
  };
  if (index === opts.steps - 1 && w.exitStatus === 'submitted') submitStep(w, index, step);
  else if (big) bash('git log -p --all', w.bigText(opts.bigOutputBytes!, 'commit'), 0);
  else if (w.pendingConflict) resolveConflictStep(w, index, step, w.pendingConflict);
  else {
    const tools = { ...w.tools, bash };
    w.pendingConflict = ordinaryStep({ index, seed: opts.seed, step, repo, refs: w.refs, dice: w.dice, tools });
  }
  return step;
}

function submitStep(w: TrajectoryWriter, index: number, step: StepDraft): void {
  const c = w.tools.call(index, 'submit', {
    answer:
      `Merged feature/login into main and rebased topic/cleanup ` +
      `onto it (${w.refs['refs/heads/main']!.slice(0, 7)}).`,
  });
  step.toolCalls.push(c);
  step.results.push(w.tools.result(c, 'Submitted.', null, false));
  step.content = 'The work is done; submitting.';
}

/** Resolves what the previous merge or rebase left, then carries the operation on. */
function resolveConflictStep(w: TrajectoryWriter, index: number, step: StepDraft, file: string): void {
  const { repo, tools } = w;
  const c = tools.call(index, 'str_replace', { path: file, old: '<<<<<<< HEAD', new: '' });
  step.toolCalls.push(c);
  step.results.push(tools.result(c, `Replaced 1 occurrence in ${file}.`, null, false));
  step.diff = tools.diffOf(
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
  const add = tools.call(index, 'bash', {
    command: `git add ${file} && git ${repo.operation === 'rebase' ? 'rebase --continue' : 'commit --no-edit'}`,
  });
  step.toolCalls.push(add);
  step.results.push(
    tools.result(
      add,
      repo.operation === 'rebase'
        ? 'Successfully rebased and updated refs/heads/topic/cleanup.'
        : `[main ${w.dice.sha().slice(0, 7)}] Merge branch 'feature/login'`,
      0,
    ),
  );
  repo.conflicted = 0;
  repo.staged = 0;
  repo.operation = null;
  w.pendingConflict = null;
  tools.moveHead(step.refsChanged);
}

/** The step as the runtime records it: its times, its tokens and cost, the repository after it. */
function recordStep(w: TrajectoryWriter, index: number, step: StepDraft): TrajectoryStep {
  const { int } = w.dice;
  const { repo } = w;
  const modelMs = int(250, 4_000);
  const toolMs = step.results.reduce((s, r) => s + r.durationMs, 0);
  const startedAt = new Date(w.clock);
  w.clock += modelMs + toolMs + int(2, 20);
  const inputTokens = w.context;
  const outputTokens = int(20, 400);
  const reasoningTokens = step.reasoning ? int(10, 200) : 0;
  // The runtime keeps the conversation within the model's window; so does this.
  const seen = Math.min(
    4_000,
    step.results.reduce((s, r) => s + Math.ceil(r.output.length / 4), 0),
  );
  w.context = Math.min(120_000, w.context + outputTokens + seen);
  return {
    index,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date(w.clock).toISOString(),
    modelMs,
    toolMs,
    channel: 'native',
    message: { content: step.content, reasoning: step.reasoning },
    toolCalls: step.toolCalls,
    results: step.results,
    usage: {
      inputTokens,
      outputTokens,
      reasoningTokens,
      totalTokens: inputTokens + outputTokens,
      costUsd: Number((inputTokens * PRICE_IN + outputTokens * PRICE_OUT).toFixed(6)),
      costEstimated: true,
    },
    finishReason: step.finishReason,
    retries: index % 23 === 11 ? 1 : 0,
    formatStrike: step.formatStrike,
    runtimeNote: step.runtimeNote,
    repo: {
      head: w.refs[repo.branch ? `refs/heads/${repo.branch}` : 'refs/heads/topic/cleanup'] ?? null,
      branch: repo.branch,
      staged: repo.staged,
      unstaged: repo.unstaged,
      untracked: repo.untracked,
      conflicted: repo.conflicted,
      operations: repo.operation ? [repo.operation] : [],
      refsChanged: step.refsChanged,
      diff: step.diff,
      diffBytes: Buffer.byteLength(step.diff),
      diffTruncatedBytes: 0,
    },
  };
}
