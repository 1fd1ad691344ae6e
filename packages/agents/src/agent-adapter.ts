import type { AgentLimits } from '@gitbench/core';

/** The HTTP protocol an agent speaks to its model endpoint; the gateway answers each in its own shape. */
export const WIRE_PROTOCOLS = ['anthropic-messages', 'openai-responses', 'openai-chat-completions'] as const;
export type WireProtocol = (typeof WIRE_PROTOCOLS)[number];

/**
 * How a shell command becomes a call of the agent's own shell tool: the built-in oracle plays a
 * fixture's reference commands through it, one command per model call (see the gateway's builtin backend).
 */
export interface ShellToolMapping {
  name: string;
  toArguments(command: string): Record<string, unknown>;
}

/** Where the agent runs and how far it may go: the campaign's limits, the model, the gateway's address. */
export interface AgentRunSpec {
  /** The model id the agent names in its requests; the gateway decides who answers. */
  model: string;
  /** The task, as the fixture's prompt renders it. */
  prompt: string;
  /** The loopback forwarder's base URL inside the container, e.g. http://127.0.0.1:4141 (no path). */
  baseUrl: string;
  limits: AgentLimits;
  /** The agent's home directory inside the sandbox (its configuration files go there). */
  home: string;
  /** The repository the agent works on. */
  workdir: string;
}

/** A file the adapter writes into the sandbox before the agent starts (its configuration). */
export interface AgentFile {
  /** Absolute path inside the sandbox. */
  path: string;
  content: string;
}

/** Everything needed to start one agent run: its command line, its environment and its files. */
export interface AgentLaunch {
  argv: string[];
  env: Record<string, string>;
  files: AgentFile[];
}

/**
 * A third-party coding agent: data (the package, the pinned version, what it speaks) plus the one
 * function that turns a run into a command line. Everything an adapter knows was checked against the
 * pinned version (packages/agents/README.md says how).
 */
export interface AgentAdapter {
  /** Our name for it: `gitbench run --agent <name>`. */
  name: string;
  displayName: string;
  npmPackage: string;
  /** Pinned: the image holds exactly this version, and changing it changes the image's tag. */
  version: string;
  /**
   * The installed program, relative to node_modules. For the native agents this is the platform
   * package's executable itself: their launchers in node_modules/.bin are placeholders until an install
   * script replaces them, and install scripts are not run (see stageAgent). x86-64 Linux only.
   */
  bin: string;
  protocol: WireProtocol;
  /** Whether it asks for server-sent events (all four pinned agents do). */
  streams: boolean;
  /** Whether the program is JavaScript run by node (the image then carries a node binary). */
  needsNode: boolean;
  /** The agent's own turn flag honours limits.maxTurns; otherwise the gateway's call budget alone stops it. */
  honoursTurnLimit: boolean;
  shellTool: ShellToolMapping;
  launch(spec: AgentRunSpec): AgentLaunch;
}

/**
 * The key every agent is given. Agents refuse to start without one; the gateway ignores it and calls
 * the provider with the stored key on the host, so no provider key ever enters the sandbox.
 */
export const GATEWAY_DUMMY_KEY = 'gitbench-gateway-holds-the-key';

/** Where the agent image holds the installed agent (node_modules) and the forwarder. */
export const AGENT_DIR = '/opt/gitbench/agent';
export const FORWARDER_PATH = `${AGENT_DIR}/forwarder.py`;
/** The forwarder's port inside the container: every container has its own loopback, so one port serves all. */
export const FORWARDER_PORT = 4141;
/** Where the gateway's socket directory is bind-mounted inside the container. */
export const GATEWAY_SOCKET_DIR = '/run/gitbench-gateway';

export function agentProgram(adapter: AgentAdapter): string {
  return `${AGENT_DIR}/node_modules/${adapter.bin}`;
}

/** Variables every agent gets: no colour, no pager, no prompt for anything. */
export function commonEnv(spec: AgentRunSpec): Record<string, string> {
  return {
    HOME: spec.home,
    NO_COLOR: '1',
    TERM: 'dumb',
    CI: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
  };
}
