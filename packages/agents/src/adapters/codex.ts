import { agentProgram, commonEnv, GATEWAY_DUMMY_KEY, type AgentAdapter } from '../agent-adapter';

/** A TOML basic string: JSON's escaping is a subset TOML reads the same way. */
const toml = (value: string) => JSON.stringify(value);

/**
 * Codex CLI. The npm package's launcher (bin/codex.js, node) only picks the native binary from the
 * platform package; the image runs that binary directly, so it needs no node. `codex exec` runs one
 * task; the gateway is a custom model provider speaking the Responses API (Codex's only wire API for
 * custom providers), with retries off so that every retry is the gateway's and is recorded there.
 * Codex has no turn flag: the gateway's call budget is its turn limit.
 */
export const codex: AgentAdapter = {
  name: 'codex',
  displayName: 'Codex CLI',
  npmPackage: '@openai/codex',
  version: '0.171.0',
  bin: '@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex',
  protocol: 'openai-responses',
  streams: true,
  needsNode: false,
  honoursTurnLimit: false,
  shellTool: { name: 'exec_command', toArguments: (command) => ({ cmd: command }) },
  launch(spec) {
    const config = [
      `model = ${toml(spec.model)}`,
      'model_provider = "gitbench"',
      // Approvals and Codex's own sandbox off: the container is the sandbox.
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.gitbench]',
      'name = "gitbench"',
      `base_url = ${toml(`${spec.baseUrl}/v1`)}`,
      'env_key = "GITBENCH_GATEWAY_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[otel]',
      'exporter = "none"',
      '',
    ].join('\n');
    return {
      argv: [
        agentProgram(this),
        'exec',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        '--json',
        '--cd',
        spec.workdir,
        spec.prompt,
      ],
      env: { ...commonEnv(spec), CODEX_HOME: `${spec.home}/.codex`, GITBENCH_GATEWAY_KEY: GATEWAY_DUMMY_KEY },
      files: [{ path: `${spec.home}/.codex/config.toml`, content: config }],
    };
  },
};
