import { agentConfigSchema, getToolSet, type ToolContext } from '@gitbench/core';
import { nopAgent, runAgent, type RepoStateReader } from '@gitbench/engine';
import type { AgentModel } from '@gitbench/providers';

/** Steps whose times are not kept: the session and the model's conversation warm up. */
const WARM_UP = 20;

/**
 * What the agent loop waits on per step besides the model, through runAgent itself: a model that
 * answers every turn after `modelMs` (a timer) with one bash `git status --short`, and the repository's
 * state read after each step as an attempt reads it. Per step, the time from the model's answer to the
 * next model call: the tool call, and whatever of the state read the model's turn did not cover.
 */
export async function loopWaitPerStep(
  ctx: ToolContext,
  repoState: RepoStateReader,
  modelMs: number,
  steps: number,
): Promise<number[]> {
  const answered: number[] = [];
  const asked: number[] = [];
  // The nop agent's turn (a built-in's usage, cost and route), asking for the bash call instead.
  const nop = nopAgent();
  const model: AgentModel = {
    name: 'bench',
    kind: 'bench',
    simulated: true,
    async chat(request) {
      asked.push(performance.now());
      if (modelMs > 0) await new Promise((resolve) => setTimeout(resolve, modelMs));
      answered.push(performance.now());
      const turn = await nop.chat(request);
      const call = { id: `bench_${answered.length}`, name: 'bash', arguments: '{"command":"git status --short"}' };
      return { ...turn, toolCalls: [call], finishReason: 'tool_calls' };
    },
  };
  const maxTurns = Math.min(500, steps + WARM_UP);
  const run = await runAgent({
    model,
    modelName: 'bench',
    agent: 'bench',
    toolSet: getToolSet('bash+editor'),
    config: agentConfigSchema.parse({ limits: { maxTurns, maxWallMs: 3_600_000 } }),
    taskPrompt: 'Look at the repository.',
    ctx,
    repoState,
  });
  if (run.summary.exitStatus !== 'turn_limit' || run.steps.some((s) => s.repo === null))
    throw new Error(
      `the bench loop ended ${run.summary.exitStatus} (${run.summary.exitDetail ?? ''}), or without state`,
    );
  return asked
    .slice(1)
    .map((t, i) => t - answered[i]!)
    .slice(WARM_UP - 1);
}
