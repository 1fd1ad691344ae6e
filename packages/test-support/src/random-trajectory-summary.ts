import { TRAJECTORY_VERSION, type AgentExitStatus, type TrajectoryStep, type TrajectorySummary } from '@gitbench/core';

/** A random trajectory's summary, derived from its steps as the runtime derives it from a real run's. */
export function summarizeRandomTrajectory(
  opts: { seed: number; steps: number; agent?: string; model?: string },
  exitStatus: AgentExitStatus,
  steps: readonly TrajectoryStep[],
): TrajectorySummary {
  const sum = (f: (s: TrajectoryStep) => number | null) => steps.reduce((a, s) => a + (f(s) ?? 0), 0);
  const limitStop = exitStatus.endsWith('_limit') || exitStatus === 'format_errors';
  return {
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
}
