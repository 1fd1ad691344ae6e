import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ADAPTERS, findAgent } from '@gitbench/agents';
import { toolReply } from '../../../packages/engine/test/agent/support/agent-server';
import { startFakeModelServer, type FakeModelServer } from '../../../packages/providers/test/support/fake-model-server';
import type { RunReport } from '../src/run-report';
import { gitbench, jsonOf, ROOT } from './cli-process';

/**
 * Each third-party agent, really installed and really run, in its image on the sandbox image with
 * --network none, through the model gateway on a mounted socket: the built-in oracle plays every
 * fixture's reference solution through the agent's own shell tool and passes a sample of one fixture
 * per domain; nop fails every fixture of it that needs a change. A hosted model is a local fake
 * speaking Chat Completions, used to look for the key from inside the container and to make the agent
 * run hostile commands. The images are built on first use (npm install on the host, then docker
 * build) and reused by every later run.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-agents-'));
const SAMPLE = path.join(tmp, 'sample');
/** Scored on the repository the agent leaves: nop, which changes nothing, must fail each. */
const NEEDS_A_CHANGE = new Set(['state_assertions', 'resolved_file_blocks']);
const changing: string[] = [];

/** The first fixture of every domain of our suite that a built-in model can score (no LLM judge). */
function buildSample(): void {
  cpSync(path.join(ROOT, 'fixtures/suite.yaml'), path.join(SAMPLE, 'suite.yaml'));
  const changeDir = path.join(tmp, 'changing');
  cpSync(path.join(ROOT, 'fixtures/suite.yaml'), path.join(changeDir, 'suite.yaml'));
  for (const domain of readdirSync(path.join(ROOT, 'fixtures'), { withFileTypes: true })) {
    if (!domain.isDirectory()) continue;
    const dir = path.join(ROOT, 'fixtures', domain.name);
    const files = readdirSync(dir)
      .filter((f) => /^f\d+\.yaml$/.test(f))
      .sort();
    const pick = files.find((f) => !/^\s+type: llm_judge$/m.test(readFileSync(path.join(dir, f), 'utf8')));
    if (!pick) continue;
    mkdirSync(path.join(SAMPLE, domain.name), { recursive: true });
    cpSync(path.join(dir, pick), path.join(SAMPLE, domain.name, pick));
    const type = /^scoring:\s*\n\s+type: (\w+)$/m.exec(readFileSync(path.join(dir, pick), 'utf8'))?.[1] ?? '';
    if (NEEDS_A_CHANGE.has(type)) {
      mkdirSync(path.join(changeDir, domain.name), { recursive: true });
      cpSync(path.join(dir, pick), path.join(changeDir, domain.name, pick));
      changing.push(`${domain.name}/${pick.replace('.yaml', '')}`);
    }
  }
}
buildSample();
const domains = readdirSync(SAMPLE).filter((d) => d !== 'suite.yaml');

/**
 * opencode starts slowly (11-27 s to its first call on an idle two-core machine, minutes under load:
 * two waits of ~4 s inside its start-up, and its bun runtime on the sandbox's one CPU), so CI gives it a
 * sample of three domains: one answer, one repository change, one conflict resolution.
 */
const SMALL_SAMPLE: Record<string, string[]> = { opencode: ['git_grep', 'git_clean', 'merge_conflicts'] };
function sampleFor(agent: string): { dir: string; size: number; changing: number } {
  const keep = SMALL_SAMPLE[agent];
  if (!keep) return { dir: SAMPLE, size: domains.length, changing: changing.length };
  const dir = path.join(tmp, `sample-${agent}`);
  cpSync(path.join(SAMPLE, 'suite.yaml'), path.join(dir, 'suite.yaml'));
  for (const d of keep) cpSync(path.join(SAMPLE, d), path.join(dir, d), { recursive: true });
  return { dir, size: keep.length, changing: changing.filter((c) => keep.includes(c.split('/')[0]!)).length };
}

const STATE_DIR = process.env.GITBENCH_STATE_DIR ?? path.join(ROOT, '.gitbench');
const env = { GITBENCH_STATE_DIR: STATE_DIR };

function run(args: string[], extra: Record<string, string> = {}) {
  return gitbench(['run', ...args, '--json'], { ...env, ...extra });
}

describe('the sample', () => {
  it('has one fixture per domain, and fixtures that need a change', () => {
    expect(domains.length).toBeGreaterThanOrEqual(15);
    expect(changing.length).toBeGreaterThanOrEqual(4);
  });
});

describe('gitbench agents', () => {
  it('lists each agent with its pinned version and protocol, as text and as JSON', async () => {
    const text = await gitbench(['agents']);
    expect(text.code, text.stderr).toBe(0);
    for (const a of AGENT_ADAPTERS) expect(text.stdout).toContain(`${a.name}`);
    expect(text.stdout).toContain('@anthropic-ai/claude-code@2.1.332  anthropic-messages, streamed');
    const json = jsonOf<{ agents: { name: string; version: string; protocol: string }[] }>(
      await gitbench(['agents', '--json']),
    );
    expect(json.agents.map((a) => [a.name, a.version, a.protocol])).toEqual(
      AGENT_ADAPTERS.map((a) => [a.name, a.version, a.protocol]),
    );
  });

  it('refuses an unknown agent and --agent without --mode agent, naming the known ones', async () => {
    const unknown = await run([SAMPLE, '--mode', 'agent', '--agent', 'aider', '--model', 'oracle']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--agent: unknown agent 'aider' (claude-code, codex, pi, opencode");
    const noMode = await run([SAMPLE, '--agent', 'pi', '--model', 'oracle']);
    expect(noMode.stderr).toContain('--agent goes with --mode agent');
  });
});

for (const adapter of AGENT_ADAPTERS) {
  describe(`${adapter.name} ${adapter.version}`, () => {
    const sample = sampleFor(adapter.name);
    it(
      'passes every fixture of the sample with the oracle, through its own shell tool',
      { timeout: 1_200_000 },
      async () => {
        const r = await run([sample.dir, '--mode', 'agent', '--agent', adapter.name, '--model', 'oracle']);
        expect(r.code, r.stderr.slice(-3000)).toBe(0);
        const report = jsonOf<RunReport>(r);
        expect(report.thirdPartyAgent).toMatchObject({
          name: adapter.name,
          version: adapter.version,
          protocol: adapter.protocol,
        });
        expect(report.thirdPartyAgent!.image).toMatch(new RegExp(`^gitbench-agent-${adapter.name}:[0-9a-f]{12}$`));
        expect(report.runs[0]!.outcomes, r.stderr.slice(-3000)).toEqual({ PASS: sample.size });
        // The repository-changing fixtures were solved by tool calls the agent made, not by an answer.
        expect(report.runs[0]!.agent!.toolCalls).toBeGreaterThanOrEqual(sample.changing);
      },
    );

    it('fails every fixture that needs a change with nop', { timeout: 600_000 }, async () => {
      const keep = SMALL_SAMPLE[adapter.name];
      const dir = keep ? path.join(tmp, `changing-${adapter.name}`) : path.join(tmp, 'changing');
      if (keep) {
        cpSync(path.join(SAMPLE, 'suite.yaml'), path.join(dir, 'suite.yaml'));
        for (const c of changing.filter((f) => keep.includes(f.split('/')[0]!)))
          cpSync(path.join(tmp, 'changing', c.split('/')[0]!), path.join(dir, c.split('/')[0]!), { recursive: true });
      }
      const r = await run([dir, '--mode', 'agent', '--agent', adapter.name, '--model', 'nop']);
      expect(r.code, r.stderr.slice(-3000)).toBe(0);
      const report = jsonOf<RunReport>(r);
      expect(report.runs[0]!.outcomes, r.stderr.slice(-3000)).toEqual({ FAIL: sample.changing });
      expect(report.runs[0]!.agent!.exitStatuses).toEqual({ model_stopped: sample.changing });
    });
  });
}

describe('a hosted model behind the gateway', () => {
  const SECRET = 'sk-gitbench-test-4d1c0ffee5ecret';
  let server: FakeModelServer;
  let profiles: string;
  const one = path.join(tmp, 'one');
  beforeAll(() => {
    cpSync(path.join(ROOT, 'fixtures/suite.yaml'), path.join(one, 'suite.yaml'));
    cpSync(path.join(ROOT, 'fixtures/git_clean/f001.yaml'), path.join(one, 'git_clean/f001.yaml'));
  });
  afterAll(async () => server?.close());

  /** The scripted model: the tool call first, then a closing answer once the call's result has come back. */
  async function withScript(call: ReturnType<typeof toolReply>, resultSeen: (body: string) => boolean) {
    await server?.close();
    server = await startFakeModelServer((req) =>
      resultSeen(JSON.stringify(req.body)) ? toolReply({ content: 'Done.' }) : call,
    );
    profiles = path.join(tmp, 'gitbench.json');
    writeFileSync(
      profiles,
      JSON.stringify({
        models: { relay: { models: ['acme/coder'], base_url: `${server.url}/v1`, api_key_env: 'RELAY_KEY' } },
      }),
    );
  }

  it(
    'never lets the key into the container: not in its environment, files or processes, nor in what the agent sends',
    { timeout: 300_000 },
    async () => {
      const claude = findAgent('claude-code');
      // The pattern is written in two quoted halves: the command itself, which goes back to the model with
      // every later request, must not hold the secret for the search to be meaningful.
      const look =
        'env; cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | sort -u; grep -rIl ' +
        '"4d1c0ffee5""ecret" /home /tmp /work /etc /opt /run /root 2>/dev/null; echo looked';
      await withScript(
        toolReply({ calls: [{ name: claude.shellTool.name, args: claude.shellTool.toArguments(look) }] }),
        (body) => body.includes('looked'),
      );
      const r = await run(
        [one, '--mode', 'agent', '--agent', 'claude-code', '--model', 'acme/coder', '--max-turns', '4'],
        { GITBENCH_PROFILES: profiles, RELAY_KEY: SECRET },
      );
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      // The gateway called the provider with the key, on the host.
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
      const sent = server.requests.map((q) => JSON.stringify(q.body)).join('\n');
      // What the container showed came back as the tool's result: its environment, and no key anywhere.
      expect(sent).toContain('ANTHROPIC_API_KEY=gitbench-gateway-holds-the-key');
      expect(sent).toContain('looked');
      expect(sent).not.toContain('4d1c0ffee5ecret');
      expect(jsonOf<RunReport>(r).runs[0]!.agent!.exitStatuses, r.stderr.slice(-2000)).toEqual({ model_stopped: 1 });
    },
  );

  it(
    'contains a hostile agent process: a flood and a fork bomb ' +
      'left running end at the wall-clock limit, the attempt counted',
    { timeout: 300_000 },
    async () => {
      const pi = findAgent('pi');
      const hostile =
        'yes gitbench-flood | head -c 100000000 | tail -c 100; (:(){ :|:& };:) 2>/dev/null; sleep infinity';
      await withScript(
        toolReply({ calls: [{ name: pi.shellTool.name, args: pi.shellTool.toArguments(hostile) }] }),
        (body) => body.includes('"role":"tool"'),
      );
      const r = await run(
        [one, '--mode', 'agent', '--agent', 'pi', '--model', 'acme/coder', '--max-wall-ms', '20000'],
        { GITBENCH_PROFILES: profiles, RELAY_KEY: SECRET },
      );
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const report = jsonOf<RunReport>(r);
      expect(report.runs[0]!.agent!.exitStatuses).toEqual({ time_limit: 1 });
      // Scored on what it left (nothing), a counted failure, not an infrastructure error.
      expect(report.runs[0]!.outcomes).toEqual({ FAIL: 1 });
      expect(server.requests).toHaveLength(1);
    },
  );
});
