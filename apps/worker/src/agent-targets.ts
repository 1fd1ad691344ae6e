import { openAgentTarget, type ThirdPartyAgentTarget } from '@gitbench/engine';
import type { EngineExecutorDeps } from './engine-executor-deps';

export type AgentTargets = (name: string) => Promise<ThirdPartyAgentTarget>;

/**
 * Each third-party agent's image and driver, opened once per worker process on the first attempt that
 * needs it: the image is built on demand (an npm install, minutes the first time on a machine), then
 * found by its content tag. A failed opening is forgotten, so the next attempt tries again.
 */
export function agentTargets(deps: EngineExecutorDeps): AgentTargets {
  const opened = new Map<string, Promise<ThirdPartyAgentTarget>>();
  return (name) => {
    let target = opened.get(name);
    if (!target) {
      const sandbox = deps.driver.describe();
      target =
        sandbox.driver !== 'docker'
          ? Promise.reject(
              new Error(
                `the agent ${name} needs the Docker sandbox (its model gateway's socket ` +
                  `is mounted into the container); this worker runs ${sandbox.driver}`,
              ),
            )
          : openAgentTarget(name, {
              sandboxImage: sandbox.image,
              stateDir: deps.agents?.stateDir ?? '.gitbench',
              ...(deps.agents ? { labels: deps.agents.labels } : {}),
            });
      target.catch(() => opened.delete(name));
      opened.set(name, target);
    }
    return target;
  };
}
