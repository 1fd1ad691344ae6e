import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bash, submit, toolReply } from '../../../packages/engine/test/agent/support/agent-server';
import { startFakeModelServer, type FakeModelServer } from '../../../packages/providers/test/support/fake-model-server';
import type { RunReport } from '../src/run-report';
import { gitbench, jsonOf, ROOT } from './cli-process';

/**
 * `gitbench run --mode agent --json-output` against a scripted OpenAI-compatible endpoint with native
 * tool calls: the result file records what really happened (every step, the prompts sent, the
 * submitted answer, every call, the sandbox that ran) and a line is printed per finished attempt.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE) throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-agent-'));
let server: FakeModelServer | undefined;
afterAll(async () => server?.close());

interface Message {
  role: string;
  content: string;
  tool_calls?: { name: string; arguments: string }[];
  exit_code?: number | null;
}
interface Score {
  fixture_id: string;
  passed: boolean;
  model_output: string;
  input_tokens: number;
  cost_usd: number;
  prompt: string;
  transcript: Message[];
  gitbench: { sandbox: { kind: string; durationMs: number }; agent: { steps: number; exit_status: string; wall_ms: number; tool_set: string } };
}
interface Envelope {
  results: { scores: Score[] }[];
  gitbench: { usage: { calls: number; input_tokens: number; cost_usd: number }; judge_usage: { calls: number } };
}

describe('gitbench run --mode agent --json-output', () => {
  it('records the steps, the prompts sent, the submitted answer, every call and the sandbox, and prints a line per attempt', { timeout: 180_000 }, async () => {
    const suite = path.join(tmp, 'suite');
    cpSync(path.join(ROOT, 'fixtures/git_grep/f001.yaml'), path.join(suite, 'git_grep/f001.yaml'));
    const script = [
      toolReply({ content: 'Looking first.', calls: [bash('git status --short')], usage: { prompt: 100, completion: 20, cost: 0.001 } }),
      toolReply({ calls: [bash("git grep -c 'logger\\.'")], usage: { prompt: 150, completion: 20, cost: 0.001 } }),
      toolReply({ calls: [submit('6')], usage: { prompt: 200, completion: 10, cost: 0.001 } }),
    ];
    server = await startFakeModelServer((_req, i) => script[Math.min(i, script.length - 1)]!);
    const profiles = path.join(tmp, 'gitbench.json');
    writeFileSync(profiles, JSON.stringify({ models: { relay: { models: ['acme/agent'], base_url: `${server.url}/v1` } } }));
    const out = path.join(tmp, 'agent.json');

    const r = await gitbench(['run', suite, '--mode', 'agent', '--tool-set', 'bash', '--model', 'acme/agent', '--json-output', out, '--json'], { GITBENCH_PROFILES: profiles });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(3);
    // stderr is a pipe here, not a terminal: the attempt's line is printed all the same.
    expect(r.stderr).toMatch(/^\[1\/1\] git_grep\/f001 agent trial 1: PASS, submitted after 3 step\(s\) in \d+\.\d s$/m);

    const envelope = JSON.parse(readFileSync(out, 'utf8')) as Envelope;
    const score = envelope.results[0]!.scores[0]!;
    expect(score).toMatchObject({ fixture_id: 'f001', passed: true, model_output: '6', input_tokens: 450, cost_usd: 0.003 });
    // The prompts exactly as sent, then every step: the model's message with its call, and the call's output.
    const sent = (server.requests[0]!.body as { messages: { role: string; content: string }[] }).messages;
    expect(score.transcript.slice(0, 2)).toEqual([
      { role: 'system', content: sent[0]!.content },
      { role: 'user', content: sent[1]!.content },
    ]);
    expect(score.transcript.slice(2).map((m) => [m.role, m.tool_calls?.[0]?.name ?? null])).toEqual([
      ['assistant', 'bash'],
      ['tool', null],
      ['assistant', 'bash'],
      ['tool', null],
      ['assistant', 'submit'],
      ['tool', null],
    ]);
    expect(score.transcript[2]!.content).toBe('Looking first.');
    expect(score.transcript[5]!.content).toMatch(/app\/orders\.py:3/);
    expect(score.transcript[5]!.exit_code).toBe(0);
    // The sandbox that ran: the agent's own Docker session, for as long as it lived.
    expect(score.gitbench.sandbox.kind).toBe('docker');
    expect(score.gitbench.sandbox.durationMs).toBeGreaterThanOrEqual(score.gitbench.agent.wall_ms);
    expect(score.gitbench.agent).toMatchObject({ steps: 3, exit_status: 'submitted', tool_set: 'bash' });
    // Every model call counted, and no judge's among them.
    expect(envelope.gitbench.usage).toMatchObject({ calls: 3, input_tokens: 450, cost_usd: 0.003 });
    expect(envelope.gitbench.judge_usage.calls).toBe(0);

    const report = jsonOf<RunReport>(r);
    expect(report.runs[0]).toMatchObject({ usage: { calls: 3 }, judgeUsage: { calls: 0 }, agent: { steps: 3, toolCalls: 3 } });
  });
});
