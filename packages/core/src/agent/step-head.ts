import { sumKnown } from '../models/usage';
import type { ToolCallRecord, TrajectoryStep } from './trajectory';

/**
 * A step without its bodies: timing, usage, which calls failed, the repository's counts. A
 * trajectory can hold tens of megabytes of tool output; its heads are a few hundred bytes per step,
 * so a page lists every step of a long trajectory from heads alone and asks for bodies only for the
 * steps on screen. Stored beside each step, computed here once.
 */
export interface StepCallHead {
  id: string;
  name: string;
  /** One line that says what the call did: the bash command, the file path; cut to LABEL_CHARS. */
  label: string;
  parseError: boolean;
}

export interface StepResultHead {
  callId: string;
  isError: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  outputBytes: number;
  truncatedBytes: number;
  /** The agent's own report of its tool's result, not observed by GitBench (ToolCallResult.agentReported). */
  agentReported?: boolean;
}

export interface StepHead {
  index: number;
  startedAt: string;
  finishedAt: string;
  modelMs: number;
  toolMs: number;
  channel: TrajectoryStep['channel'];
  usage: TrajectoryStep['usage'];
  finishReason: string | null;
  retries: number;
  formatStrike: boolean;
  calls: StepCallHead[];
  results: StepResultHead[];
  repo: (Omit<NonNullable<TrajectoryStep['repo']>, 'diff' | 'refsChanged'> & { refsChanged: number }) | null;
}

const LABEL_CHARS = 160;

/** The one argument a call is about, whole (a command, a path, a submitted answer), when it has one. */
export function mainArgument(args: unknown): string | null {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  const a = args as Record<string, unknown>;
  const main = a.command ?? a.path ?? a.answer ?? a.file;
  return typeof main === 'string' ? main : null;
}

/**
 * A call on one line: its main argument, else its arguments as name=value (GitGoodBench's tools take
 * a path, a conflict, a range; they read as raw JSON before), else the text the model sent.
 */
export function callLabel(call: Pick<ToolCallRecord, 'name' | 'arguments' | 'rawArguments'>): string {
  const args = call.arguments;
  let label: string;
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    label =
      mainArgument(args) ??
      Object.entries(args as Record<string, unknown>)
        .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
  } else {
    label = call.rawArguments;
  }
  const line = label.replace(/\s+/g, ' ').trim();
  return line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1)}…` : line;
}

export function stepHead(step: TrajectoryStep): StepHead {
  const { repo } = step;
  return {
    index: step.index,
    startedAt: step.startedAt,
    finishedAt: step.finishedAt,
    modelMs: step.modelMs,
    toolMs: step.toolMs,
    channel: step.channel,
    usage: step.usage,
    finishReason: step.finishReason,
    retries: step.retries,
    formatStrike: step.formatStrike,
    calls: step.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      label: callLabel(c),
      parseError: c.parseError !== null,
    })),
    results: step.results.map((r) => ({
      callId: r.callId,
      isError: r.isError,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      durationMs: r.durationMs,
      outputBytes: r.outputBytes,
      truncatedBytes: r.truncatedBytes,
      ...(r.agentReported ? { agentReported: true } : {}),
    })),
    repo: repo
      ? {
          head: repo.head,
          branch: repo.branch,
          staged: repo.staged,
          unstaged: repo.unstaged,
          untracked: repo.untracked,
          conflicted: repo.conflicted,
          operations: repo.operations,
          refsChanged: repo.refsChanged.length,
          diffBytes: repo.diffBytes,
          diffTruncatedBytes: repo.diffTruncatedBytes,
        }
      : null,
  };
}

/** A step whose tool calls failed: a refused argument, a tool error, a non-zero exit, a timeout. */
export function stepFailed(step: Pick<TrajectoryStep, 'toolCalls' | 'results'>): boolean {
  return (
    step.toolCalls.some((c) => c.parseError !== null) ||
    step.results.some((r) => r.isError || r.timedOut || (r.exitCode !== null && r.exitCode !== 0))
  );
}

/** Usage over a trajectory's steps; a count any step did not report makes the total unknown. */
export function sumStepUsage(steps: readonly Pick<TrajectoryStep, 'usage'>[]): TrajectoryStep['usage'] {
  return {
    inputTokens: sumKnown(steps.map((s) => s.usage.inputTokens)),
    outputTokens: sumKnown(steps.map((s) => s.usage.outputTokens)),
    reasoningTokens: sumKnown(steps.map((s) => s.usage.reasoningTokens)),
    totalTokens: sumKnown(steps.map((s) => s.usage.totalTokens)),
    costUsd: sumKnown(steps.map((s) => s.usage.costUsd)),
    costEstimated: steps.some((s) => s.usage.costEstimated),
  };
}
