import { findAgent, FORWARDER_PATH } from '@gitbench/agents';
import type { Fixture } from '@gitbench/core';
import type { Sandbox, SandboxDriver } from '@gitbench/sandbox';
import { executeAttempt, type AttemptRun, type BuiltSnapshot } from '../../../src';

/**
 * The driver's sessions, in which the one command that would start the forwarder and a third-party
 * agent (it names FORWARDER_PATH) runs `agent` instead: what a hostile agent's process runs, without
 * an agent image. Everything else of the third-party path (the gateway, the observer beside the agent,
 * the session's end, the scorer) is its own.
 */
export function agentRunning(driver: SandboxDriver, agent: string): SandboxDriver {
  const session = (s: Sandbox): Sandbox =>
    new Proxy(s, {
      get: (target, key) =>
        key === 'exec'
          ? (command: string, options?: Parameters<Sandbox['exec']>[1]) =>
              target.exec(command.includes(FORWARDER_PATH) ? agent : command, options)
          : Reflect.get(target, key),
    });
  return new Proxy(driver, {
    get: (target, key) =>
      key === 'create'
        ? async (...args: Parameters<SandboxDriver['create']>) => session(await target.create(...args))
        : Reflect.get(target, key),
  });
}

/** An attempt of a third-party agent (claude-code's adapter, the nop model) whose process runs `agent`. */
export function swappedAgentAttempt(
  task: { fixture: Fixture; snapshot: BuiltSnapshot; driver: SandboxDriver; labels: Record<string, string> },
  agent: string,
): Promise<AttemptRun> {
  return executeAttempt({
    ...task,
    model: { name: 'nop', complete: () => Promise.reject(new Error('agent mode only')) },
    modelName: 'nop',
    mode: 'agent',
    thirdParty: { adapter: findAgent('claude-code'), driver: agentRunning(task.driver, agent) },
    agent: { config: { limits: { maxWallMs: 60_000 } } },
  });
}
