import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_CONFIG } from '@gitbench/core';
import {
  AGENT_ADAPTERS,
  agentInvocation,
  describeAgents,
  findAgent,
  FORWARDER_BASE_URL,
  GATEWAY_DUMMY_KEY,
  GATEWAY_SOCKET_PATH,
  UnknownAgentError,
  type AgentRunSpec,
} from '../src';

const spec: Omit<AgentRunSpec, 'baseUrl'> = {
  model: 'oracle',
  prompt: 'Rename the branch \'old\' to "new"; then $(reboot)',
  limits: { ...DEFAULT_AGENT_CONFIG.limits, maxTurns: 7, commandTimeoutMs: 12_000, maxToolOutputBytes: 9_000 },
  home: '/home/sandbox',
  workdir: '/work/repo',
};

/** Values that would be a provider key if they reached the sandbox. */
const KEY_LIKE = /sk-[A-Za-z0-9]|sk-ant-|AIza|gbt_|OPENROUTER|OPENAI_API_KEY=(?!gitbench)/;

describe('agent adapters', () => {
  it('lists at least four agents, Claude Code and Codex CLI among them, each pinned to an exact version', () => {
    const names = AGENT_ADAPTERS.map((a) => a.name);
    expect(names).toEqual(expect.arrayContaining(['claude-code', 'codex']));
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const a of AGENT_ADAPTERS) expect(a.version, a.name).toMatch(/^\d+\.\d+\.\d+$/);
    expect(describeAgents().map((a) => [a.name, a.protocol])).toEqual([
      ['claude-code', 'anthropic-messages'],
      ['codex', 'openai-responses'],
      ['pi', 'openai-chat-completions'],
      ['opencode', 'openai-chat-completions'],
    ]);
  });

  it('names an unknown agent and the known ones', () => {
    expect(() => findAgent('aider')).toThrow(UnknownAgentError);
    expect(() => findAgent('aider')).toThrow(/unknown agent 'aider'; known agents: claude-code, codex, pi, opencode/);
  });

  for (const adapter of AGENT_ADAPTERS) {
    describe(adapter.name, () => {
      const inv = agentInvocation(adapter, spec);
      const everything = JSON.stringify(inv);

      it('points the agent at the loopback forwarder with the dummy key, and carries no other credential', () => {
        expect(everything).toContain(FORWARDER_BASE_URL);
        expect(everything).toContain(GATEWAY_DUMMY_KEY);
        expect(everything).not.toMatch(KEY_LIKE);
        expect(inv.env.HOME).toBe('/home/sandbox');
        for (const f of inv.files) expect(f.path.startsWith('/home/sandbox/'), f.path).toBe(true);
      });

      it('starts through the forwarder on the mounted socket, the prompt one quoted word, stdin closed', () => {
        expect(
          inv.command.startsWith(
            `exec /usr/bin/python3 -I -S /opt/gitbench/agent/forwarder.py 4141 ${GATEWAY_SOCKET_PATH} `,
          ),
        ).toBe(true);
        expect(inv.command.endsWith(' < /dev/null')).toBe(true);
        expect(inv.command).toContain(`'Rename the branch '\\''old'\\'' to "new"; then $(reboot)'`);
        expect(inv.argv).toContain(spec.prompt);
        expect(everything).toContain(`"${spec.model}`);
      });

      it('maps a shell command onto its own shell tool', () => {
        const args = adapter.shellTool.toArguments('git branch -m old new');
        expect(Object.values(args)).toContain('git branch -m old new');
      });
    });
  }

  it(
    'Claude Code takes the campaign turn limit (one more, ' + 'so the gateway stops it first) and the command limits',
    () => {
      const inv = agentInvocation(findAgent('claude-code'), spec);
      expect(inv.argv.slice(inv.argv.indexOf('--max-turns'), inv.argv.indexOf('--max-turns') + 2)).toEqual([
        '--max-turns',
        '8',
      ]);
      expect(inv.env).toMatchObject({
        ANTHROPIC_BASE_URL: FORWARDER_BASE_URL,
        BASH_DEFAULT_TIMEOUT_MS: '12000',
        BASH_MAX_OUTPUT_LENGTH: '9000',
        DISABLE_AUTOUPDATER: '1',
      });
      expect(findAgent('claude-code').shellTool.name).toBe('Bash');
    },
  );

  it('Codex reaches the gateway as a custom Responses provider, retries and update checks off', () => {
    const inv = agentInvocation(findAgent('codex'), spec);
    const config = inv.files.find((f) => f.path === '/home/sandbox/.codex/config.toml')!.content;
    expect(config).toContain('base_url = "http://127.0.0.1:4141/v1"');
    expect(config).toContain('wire_api = "responses"');
    expect(config).toContain('request_max_retries = 0');
    expect(config).toContain('check_for_update_on_startup = false');
    expect(config).toContain('model = "oracle"');
    expect(findAgent('codex').shellTool.toArguments('ls')).toEqual({ cmd: 'ls' });
  });

  it('a model id with quotes stays one TOML string and one JSON string', () => {
    const odd = { ...spec, model: 'a"b\\c' };
    const toml = agentInvocation(findAgent('codex'), odd).files[0]!.content;
    expect(toml).toContain('model = "a\\"b\\\\c"');
    const pi = JSON.parse(agentInvocation(findAgent('pi'), odd).files[0]!.content);
    expect(pi.providers.gitbench.models).toEqual([{ id: 'a"b\\c' }]);
  });

  it('pi and opencode reach the gateway as a Chat Completions provider', () => {
    const pi = JSON.parse(agentInvocation(findAgent('pi'), spec).files[0]!.content);
    expect(pi.providers.gitbench).toMatchObject({
      baseUrl: 'http://127.0.0.1:4141/v1',
      api: 'openai-completions',
      apiKey: GATEWAY_DUMMY_KEY,
    });
    const oc = JSON.parse(agentInvocation(findAgent('opencode'), spec).files[0]!.content);
    expect(oc.provider.gitbench.options).toEqual({ baseURL: 'http://127.0.0.1:4141/v1', apiKey: GATEWAY_DUMMY_KEY });
    expect(oc.autoupdate).toBe(false);
  });
});
