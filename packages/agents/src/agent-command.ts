import { shellArg } from '@gitbench/core';
import {
  FORWARDER_PATH,
  FORWARDER_PORT,
  GATEWAY_SOCKET_DIR,
  type AgentAdapter,
  type AgentLaunch,
  type AgentRunSpec,
} from './agent-adapter';

/** The socket's file name inside the mounted directory (the gateway creates it there on the host). */
export const GATEWAY_SOCKET_NAME = 'gateway.sock';
export const GATEWAY_SOCKET_PATH = `${GATEWAY_SOCKET_DIR}/${GATEWAY_SOCKET_NAME}`;
export const FORWARDER_BASE_URL = `http://127.0.0.1:${FORWARDER_PORT}`;

export interface AgentInvocation extends AgentLaunch {
  /** One bash command: the forwarder, which starts the agent as its child and exits with its status. */
  command: string;
}

/**
 * How one attempt starts its agent in the sandbox: the adapter's command line wrapped by the loopback
 * forwarder (the container keeps `--network none`; the agent reaches the gateway's Unix socket through
 * 127.0.0.1). stdin is closed so that no agent waits for input.
 */
export function agentInvocation(adapter: AgentAdapter, spec: Omit<AgentRunSpec, 'baseUrl'>): AgentInvocation {
  const launch = adapter.launch({ ...spec, baseUrl: FORWARDER_BASE_URL });
  const words = [
    '/usr/bin/python3',
    '-I',
    '-S',
    FORWARDER_PATH,
    String(FORWARDER_PORT),
    GATEWAY_SOCKET_PATH,
    ...launch.argv,
  ];
  return { ...launch, command: `exec ${words.map(shellArg).join(' ')} < /dev/null` };
}
