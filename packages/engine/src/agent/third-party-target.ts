import path from 'node:path';
import { buildAgentImage, findAgent } from '@gitbench/agents';
import { DockerSandboxDriver, type DockerLimits } from '@gitbench/sandbox';
import type { ThirdPartyAgentTarget } from './agent-attempt-input';

/**
 * What an agent's sandbox may take. More memory and processes than our own loop's sandbox (the agent
 * itself runs there: a native binary or node, with its threads), a larger home (its configuration,
 * sessions and caches); the repository's size limit and the CPU share stay as they are.
 */
export const AGENT_SANDBOX_LIMITS: Partial<DockerLimits> = {
  memoryBytes: 1536 * 1024 * 1024,
  pids: 512,
  homeBytes: 256 * 1024 * 1024,
};

export interface AgentTargetOptions {
  /** The sandbox image the agent image builds on. */
  sandboxImage: string;
  /** GITBENCH_STATE_DIR: staged npm installs are kept under it. */
  stateDir: string;
  /** Labels on every container (cancel, shutdown and the orphan sweep find them). */
  labels?: Record<string, string>;
  limits?: Partial<DockerLimits>;
}

/**
 * A third-party agent ready to run attempts: its image built on demand (once; the tag names its
 * content) and a Docker driver on that image, whose description is what each attempt records.
 */
export async function openAgentTarget(
  name: string,
  opts: AgentTargetOptions,
): Promise<ThirdPartyAgentTarget & { image: string; built: boolean }> {
  const adapter = findAgent(name);
  const image = await buildAgentImage(adapter, {
    sandboxImage: opts.sandboxImage,
    stagingRoot: path.join(opts.stateDir, 'agent-staging'),
  });
  const driver = await new DockerSandboxDriver({
    image: image.tag,
    ...(opts.labels ? { labels: opts.labels } : {}),
    limits: { ...AGENT_SANDBOX_LIMITS, ...opts.limits },
  }).init();
  return { adapter, driver, image: image.tag, built: image.built };
}
