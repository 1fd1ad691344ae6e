import { agentProgram, commonEnv, GATEWAY_DUMMY_KEY, type AgentAdapter } from '../agent-adapter';

/**
 * opencode. The npm package ships a native executable per platform, so the image needs no node. The
 * gateway is a custom provider through the bundled @ai-sdk/openai-compatible (Chat Completions), so
 * nothing is installed at start. `run` does one task; `--auto` approves its permission asks, and the
 * configuration allows every tool anyway; `--pure` loads no external plugin; `--title` names the
 * session, which spares the title model call. The variables turn off the update check, the models.dev
 * download, the default plugins, LSP downloads and sharing. No turn flag: the gateway's call budget is
 * its turn limit.
 */
export const opencode: AgentAdapter = {
  name: 'opencode',
  displayName: 'opencode',
  npmPackage: 'opencode-ai',
  version: '1.18.33',
  bin: 'opencode-linux-x64/bin/opencode',
  protocol: 'openai-chat-completions',
  streams: true,
  needsNode: false,
  honoursTurnLimit: false,
  // Its timeout is in milliseconds.
  shellTool: { name: 'bash', toArguments: (command) => ({ command, description: 'Run a command' }) },
  launch(spec) {
    const config = {
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      permission: 'allow',
      model: `gitbench/${spec.model}`,
      provider: {
        gitbench: {
          npm: '@ai-sdk/openai-compatible',
          name: 'gitbench',
          options: { baseURL: `${spec.baseUrl}/v1`, apiKey: GATEWAY_DUMMY_KEY },
          models: { [spec.model]: { name: spec.model } },
        },
      },
    };
    return {
      argv: [
        agentProgram(this),
        'run',
        '--pure',
        '--auto',
        '--format',
        'json',
        '--title',
        'gitbench',
        '-m',
        `gitbench/${spec.model}`,
        spec.prompt,
      ],
      env: {
        ...commonEnv(spec),
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        XDG_CONFIG_HOME: `${spec.home}/.config`,
        XDG_DATA_HOME: `${spec.home}/.local/share`,
        XDG_CACHE_HOME: `${spec.home}/.cache`,
        XDG_STATE_HOME: `${spec.home}/.local/state`,
      },
      files: [{ path: `${spec.home}/.config/opencode/opencode.json`, content: `${JSON.stringify(config, null, 2)}\n` }],
    };
  },
};
