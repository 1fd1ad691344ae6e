import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bash, submit, toolReply, type ScriptedCall } from '../../../packages/engine/test/agent/support/agent-server';
import {
  ATTACKS,
  FIXTURE,
  FORGE_COMMIT_OBJECT,
  HISTORY_FIXTURE,
  INDEX_ATTACKS,
  INDEX_FIXTURE,
} from '../../../packages/engine/test/red-team-attacks';
import { startFakeModelServer, type FakeModelServer } from '../../../packages/providers/test/support/fake-model-server';
import type { RunReport } from '../src/run-report';
import { gitbench, jsonOf, ROOT } from './cli-process';

/**
 * `gitbench run --mode agent --json-output` against a scripted OpenAI-compatible endpoint with native
 * tool calls: the result file records what really happened (every step, the prompts sent, the
 * submitted answer, every call, the sandbox that ran) and a line is printed per finished attempt.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
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
  gitbench: {
    sandbox: { kind: string; durationMs: number };
    agent: { steps: number; exit_status: string; wall_ms: number; tool_set: string };
  };
}
interface Envelope {
  results: { scores: Score[] }[];
  gitbench: { usage: { calls: number; input_tokens: number; cost_usd: number }; judge_usage: { calls: number } };
}

describe('gitbench run --mode agent --json-output', () => {
  it(
    'records the steps, the prompts sent, the submitted answer, ' +
      'every call and the sandbox, and prints a line per attempt',
    { timeout: 180_000 },
    async () => {
      const suite = path.join(tmp, 'suite');
      cpSync(path.join(ROOT, 'fixtures/git_grep/f001.yaml'), path.join(suite, 'git_grep/f001.yaml'));
      const script = [
        toolReply({
          content: 'Looking first.',
          calls: [bash('git status --short')],
          usage: { prompt: 100, completion: 20, cost: 0.001 },
        }),
        toolReply({ calls: [bash("git grep -c 'logger\\.'")], usage: { prompt: 150, completion: 20, cost: 0.001 } }),
        toolReply({ calls: [submit('6')], usage: { prompt: 200, completion: 10, cost: 0.001 } }),
      ];
      server = await startFakeModelServer((_req, i) => script[Math.min(i, script.length - 1)]!);
      const profiles = path.join(tmp, 'gitbench.json');
      writeFileSync(
        profiles,
        JSON.stringify({ models: { relay: { models: ['acme/agent'], base_url: `${server.url}/v1` } } }),
      );
      const out = path.join(tmp, 'agent.json');

      const r = await gitbench(
        [
          'run',
          suite,
          '--mode',
          'agent',
          '--tool-set',
          'bash',
          '--model',
          'acme/agent',
          '--json-output',
          out,
          '--json',
        ],
        { GITBENCH_PROFILES: profiles },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(server.requests).toHaveLength(3);
      // stderr is a pipe here, not a terminal: the attempt's line is printed all the same.
      expect(r.stderr).toMatch(
        /^\[1\/1\] git_grep\/f001 agent trial 1: PASS, submitted after 3 step\(s\) in \d+\.\d s$/m,
      );

      const envelope = JSON.parse(readFileSync(out, 'utf8')) as Envelope;
      const score = envelope.results[0]!.scores[0]!;
      expect(score).toMatchObject({
        fixture_id: 'f001',
        passed: true,
        model_output: '6',
        input_tokens: 450,
        cost_usd: 0.003,
      });
      // The prompts exactly as sent, then every step: the model's message with its call, and the call's output.
      const sent = (server.requests[0]!.body as { messages: { role: string; content: string }[] }).messages;
      expect(score.transcript.slice(0, 2)).toEqual([
        { role: 'system', content: sent[0]!.content },
        { role: 'user', content: sent[1]!.content },
      ]);
      expect(score.prompt).toBe(sent[1]!.content);
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
      expect(report.runs[0]).toMatchObject({
        usage: { calls: 3 },
        judgeUsage: { calls: 0 },
        agent: { steps: 3, toolCalls: 3 },
      });
    },
  );
});

describe('gitbench run --mode agent against a hostile agent', () => {
  it(
    'scores every attack of the red team as a counted failure, in the ' +
      'report and the result file: no pass, nothing excluded, no sandbox error',
    { timeout: 300_000 },
    async () => {
      // The red team's three tasks on disk, and an agent served over HTTP that plays, on each task, its
      // tool calls in turn (the turn is the number of its own messages the request carries), then submits.
      const suite = path.join(tmp, 'red-team-suite');
      mkdirSync(path.join(suite, 'red_team'), { recursive: true });
      writeFileSync(path.join(suite, 'red_team', 'f001.yaml'), FIXTURE);
      writeFileSync(path.join(suite, 'red_team', 'f002.yaml'), HISTORY_FIXTURE);
      writeFileSync(path.join(suite, 'red_team', 'f003.yaml'), INDEX_FIXTURE);
      const FORGED_REPLY = `@@GBSTEP 0.0 0 1 0 1.0 1.0\\n0\\n0\\n@@GBEND\\n`;
      const scripts: Record<'notes' | 'history' | 'index', ScriptedCall[]> = {
        notes: [
          // Erasing its failure: garbage and forged records into the runner's channel, then every process it can reach
          // killed.
          bash(
            `printf 'garbage\\n' > /proc/1/fd/1; printf '${FORGED_REPLY}' > ` +
              `/proc/$PPID/fd/1; printf '@@GBOK r9\\n' > /proc/$PPID/fd/1; kill -9 -1; true`,
          ),
          // Output no JSON document takes as it is: bytes that are not UTF-8, NULs, escapes.
          bash(`head -c 20000 /dev/urandom; printf '\\0\\033[2J\\x7b"passed": true}'`),
          { name: 'write_file', args: { path: '.git/info/exclude', content: 'notes.txt\n' } },
          {
            name: 'write_file',
            args: {
              path: '.git/config',
              content: '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[status]\n\tshowUntrackedFiles = no\n',
            },
          },
          bash(ATTACKS['status settings that hide the file, and a replace ref that shows the expected commit']!),
          bash(`git commit -q --allow-empty -m 'add notes'`),
        ],
        history: [bash(FORGE_COMMIT_OBJECT)],
        index: [
          bash(INDEX_ATTACKS['the bits in a split index']!),
          bash(INDEX_ATTACKS['core.fileMode off, which hides the mode, with the content restored']!),
        ],
      };
      const hostile = await startFakeModelServer((req) => {
        const messages = (req.body as { messages: { role: string }[] }).messages;
        const sent = JSON.stringify(messages);
        const task = sent.includes('secret') ? 'history' : sent.includes('Discard every change') ? 'index' : 'notes';
        const turn = messages.filter((m) => m.role === 'assistant').length;
        const call = scripts[task][turn];
        return toolReply({ calls: [call ?? submit('done')] });
      });
      try {
        const profiles = path.join(tmp, 'hostile-agent.json');
        writeFileSync(
          profiles,
          JSON.stringify({ models: { hostile: { models: ['hostile/agent'], base_url: `${hostile.url}/v1` } } }),
        );
        const out = path.join(tmp, 'hostile-agent.json.out');
        const r = await gitbench(
          [
            'run',
            suite,
            '--mode',
            'agent',
            '--tool-set',
            'bash+editor',
            '--model',
            'hostile/agent',
            '--json-output',
            out,
            '--json',
          ],
          { GITBENCH_PROFILES: profiles },
        );
        expect(r.code, r.stderr).toBe(0);
        const report = jsonOf<RunReport>(r);
        expect(report.runs).toHaveLength(1);
        expect(report.runs[0]!.excluded).toEqual([]);
        expect(report.runs[0]!.summary).toMatchObject({ total_fixtures: 3, total_passed: 0 });
        expect(Object.keys(report.runs[0]!.outcomes).filter((o) => o !== 'FAIL' && o !== 'TAMPERING')).toEqual([]);
        // Every call of each script was played, and the result file says how each attempt ended.
        const envelope = JSON.parse(readFileSync(out, 'utf8')) as Envelope;
        const scores = envelope.results.flatMap((x) => x.scores);
        expect(scores.map((x) => [x.fixture_id, x.passed, x.gitbench.agent.exit_status]).sort()).toEqual([
          ['f001', false, 'submitted'],
          ['f002', false, 'tampering'],
          ['f003', false, 'submitted'],
        ]);
        expect(scores.map((x) => [x.fixture_id, x.gitbench.agent.steps]).sort()).toEqual([
          ['f001', scripts.notes.length + 1],
          ['f002', scripts.history.length + 1],
          ['f003', scripts.index.length + 1],
        ]);
      } finally {
        await hostile.close();
      }
    },
  );
});
