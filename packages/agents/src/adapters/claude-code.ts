import { agentProgram, commonEnv, GATEWAY_DUMMY_KEY, type AgentAdapter } from '../agent-adapter';

/**
 * Claude Code. The npm package ships a native executable per platform (an optional dependency), so the
 * image needs no node. `-p` runs one task and exits; `--bare` skips hooks, plugins, background
 * prefetches and CLAUDE.md discovery, and takes the key from ANTHROPIC_API_KEY only.
 */
export const claudeCode: AgentAdapter = {
  name: 'claude-code',
  displayName: 'Claude Code',
  npmPackage: '@anthropic-ai/claude-code',
  version: '2.1.332',
  bin: '@anthropic-ai/claude-code-linux-x64/claude',
  protocol: 'anthropic-messages',
  streams: true,
  needsNode: false,
  honoursTurnLimit: true,
  shellTool: { name: 'Bash', toArguments: (command) => ({ command, description: 'Run a command' }) },
  launch(spec) {
    return {
      argv: [
        agentProgram(this),
        '-p',
        spec.prompt,
        '--bare',
        // Permission prompts off: the container is the sandbox (no network, no key, its own uid).
        '--dangerously-skip-permissions',
        '--model',
        spec.model,
        // One more than the campaign's: the gateway's call budget stops it first, so the attempt ends
        // as turn_limit (named by the gateway) rather than as the agent's own error exit.
        '--max-turns',
        String(spec.limits.maxTurns + 1),
        '--output-format',
        'stream-json',
        '--verbose',
      ],
      env: {
        ...commonEnv(spec),
        ANTHROPIC_BASE_URL: spec.baseUrl,
        ANTHROPIC_API_KEY: GATEWAY_DUMMY_KEY,
        // Its helper calls (titles, summaries) name a small model: the campaign's model answers those too.
        ANTHROPIC_SMALL_FAST_MODEL: spec.model,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: spec.model,
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_BUG_COMMAND: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        IS_SANDBOX: '1',
        BASH_DEFAULT_TIMEOUT_MS: String(spec.limits.commandTimeoutMs),
        BASH_MAX_TIMEOUT_MS: String(spec.limits.commandTimeoutMs),
        BASH_MAX_OUTPUT_LENGTH: String(spec.limits.maxToolOutputBytes),
      },
      files: [],
    };
  },
};
