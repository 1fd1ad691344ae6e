import type { AgentAdapter } from './agent-adapter';
import { claudeCode } from './adapters/claude-code';
import { codex } from './adapters/codex';
import { opencode } from './adapters/opencode';
import { pi } from './adapters/pi';

/** Every third-party agent GitBench runs, in the order `gitbench agents` lists them. */
export const AGENT_ADAPTERS: readonly AgentAdapter[] = [claudeCode, codex, pi, opencode];

export class UnknownAgentError extends Error {
  constructor(name: string) {
    super(`unknown agent '${name}'; known agents: ${AGENT_ADAPTERS.map((a) => a.name).join(', ')}`);
    this.name = 'UnknownAgentError';
  }
}

export function findAgent(name: string): AgentAdapter {
  const adapter = AGENT_ADAPTERS.find((a) => a.name === name);
  if (!adapter) throw new UnknownAgentError(name);
  return adapter;
}

/** What `gitbench agents` prints: name, version and protocol of each. */
export function describeAgents(): {
  name: string;
  displayName: string;
  npmPackage: string;
  version: string;
  protocol: string;
  streams: boolean;
}[] {
  return AGENT_ADAPTERS.map(({ name, displayName, npmPackage, version, protocol, streams }) => ({
    name,
    displayName,
    npmPackage,
    version,
    protocol,
    streams,
  }));
}
