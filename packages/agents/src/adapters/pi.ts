import { agentProgram, commonEnv, GATEWAY_DUMMY_KEY, type AgentAdapter } from '../agent-adapter';

/**
 * pi (pi-coding-agent): JavaScript, so the image carries node. The gateway is a custom provider in
 * ~/.pi/agent/models.json speaking Chat Completions; `-p` runs one task; `--offline` (PI_OFFLINE) skips
 * its start-up network calls (version check, package update). No turn flag: the gateway's call budget
 * is its turn limit. Extensions, skills, prompt templates and context files are not discovered, so
 * nothing from the repository or the home directory changes the agent between attempts.
 */
export const pi: AgentAdapter = {
  name: 'pi',
  displayName: 'pi',
  npmPackage: '@mariozechner/pi-coding-agent',
  version: '0.73.1',
  bin: '.bin/pi',
  protocol: 'openai-chat-completions',
  streams: true,
  needsNode: true,
  honoursTurnLimit: false,
  // Its timeout is in seconds.
  shellTool: { name: 'bash', toArguments: (command) => ({ command }) },
  launch(spec) {
    const models = {
      providers: {
        gitbench: {
          baseUrl: `${spec.baseUrl}/v1`,
          api: 'openai-completions',
          apiKey: GATEWAY_DUMMY_KEY,
          // Plain system messages and no reasoning_effort: what every Chat Completions endpoint takes.
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: spec.model }],
        },
      },
    };
    return {
      argv: [
        agentProgram(this),
        '-p',
        '--offline',
        '--provider',
        'gitbench',
        '--model',
        spec.model,
        '--no-session',
        '--mode',
        'json',
        '--no-extensions',
        '--no-skills',
        '--no-prompt-templates',
        '--no-themes',
        '--no-context-files',
        spec.prompt,
      ],
      env: { ...commonEnv(spec), PI_OFFLINE: '1', PI_TELEMETRY: '0', PI_CODING_AGENT_DIR: `${spec.home}/.pi/agent` },
      files: [{ path: `${spec.home}/.pi/agent/models.json`, content: `${JSON.stringify(models, null, 2)}\n` }],
    };
  },
};
