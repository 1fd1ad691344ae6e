import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chatCompletion,
  startFakeModelServer,
  type FakeModelServer,
} from '../../../packages/providers/test/support/fake-model-server';
import type { RunReport } from '../src/run-report';
import { ATTACKS, FIXTURE, HISTORY_ATTACKS, HISTORY_FIXTURE } from '../../../packages/engine/test/red-team-attacks';
import { gitbench, jsonOf, ROOT, UPSTREAM } from './cli-process';

/**
 * `gitbench run` end to end: the CLI process, the provider registry, Docker sandboxes and the scorers.
 * Replay answers with what mistralai/devstral-2512 really said upstream; the run must reach the
 * verdicts upstream recorded.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const RESULTS = path.join(UPSTREAM, 'results');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-run-'));
let server: FakeModelServer | undefined;
afterAll(async () => server?.close());

interface RecordedScore {
  fixture_id: string;
  passed: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  api_duration_ms: number;
  gitbench?: { judge?: { status: string; members: { input_tokens: number | null; cost_usd: number | null }[] } };
}
interface Envelope {
  model: string;
  output_mode: string;
  results: { benchmark: string; scores: RecordedScore[] }[];
  gitbench: {
    excluded: { benchmark: string; fixture_id: string; reason: string }[];
    usage: { calls: number; cost_usd: number };
  };
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Envelope;
const scoresOf = (e: Envelope) =>
  new Map(e.results.flatMap((r) => r.scores.map((s) => [`${r.benchmark}/${s.fixture_id}`, s] as const)));

describe('gitbench run --model replay:<upstream results>', () => {
  it('reaches the recorded verdicts in both output modes and prints its agreement', { timeout: 600_000 }, async () => {
    const out = path.join(tmp, 'replay.json');
    const r = await gitbench([
      'run',
      path.join(UPSTREAM, 'fixtures'),
      '--model',
      `replay:${RESULTS}`,
      '--output-mode',
      'both',
      '--json-output',
      out,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = jsonOf<RunReport>(r);
    expect(report.model).toBe('mistralai/devstral-2512');
    expect(report.agreement).toMatchObject({ compared: 128, agreed: 128, disagreed: 0, skipped: 8 });
    expect(report.agreement?.byType.llm_judge).toEqual({ compared: 0, agreed: 0, disagreed: 0, skipped: 8 });
    expect(new Set(report.agreement?.skips.map((s) => s.reason))).toEqual(
      new Set(['unscored: an llm_judge fixture and no judge profile (--judge-profile)']),
    );
    expect(report.runs.map((x) => [x.outputMode, x.attempts, x.outcomes.NEEDS_JUDGE])).toEqual([
      ['text', 68, 4],
      ['json_schema', 68, 4],
    ]);

    // Every call's recorded tokens, cost and API time reach the envelope unchanged.
    for (const [mode, file] of [
      ['text', 'replay-text.json'],
      ['json_schema', 'replay-json_schema.json'],
    ] as const) {
      const ours = read(path.join(tmp, file));
      const recordedFile = report.runs.find((x) => x.outputMode === mode)!;
      expect(recordedFile.file).toBe(path.join(tmp, file));
      const upstream = read(
        path.join(
          RESULTS,
          readdirSync(RESULTS).find((f) => f.includes(`_${mode}_`))!,
        ),
      );
      const recorded = scoresOf(upstream);
      const scored = scoresOf(ours);
      expect(scored.size).toBe(64);
      for (const [key, s] of scored) {
        const u = recorded.get(key)!;
        expect(s.passed, key).toBe(u.passed);
        expect([s.input_tokens, s.output_tokens, s.cost_usd, s.api_duration_ms], key).toEqual([
          u.input_tokens,
          u.output_tokens,
          u.cost_usd,
          u.api_duration_ms,
        ]);
      }
      expect(ours.gitbench.excluded.map((x) => `${x.benchmark}/${x.fixture_id}`)).toEqual([
        'commit_messages/f001',
        'commit_messages/f002',
        'commit_messages/f003',
        'commit_messages/f004',
      ]);
      expect(ours.gitbench.usage.calls).toBe(68);
    }
  });

  it(
    'judges llm_judge fixtures with --judge-profile and compares those verdicts too',
    { timeout: 300_000 },
    async () => {
      const suite = path.join(tmp, 'judge-suite');
      cpSync(path.join(UPSTREAM, 'fixtures/commit_messages'), path.join(suite, 'commit_messages'), { recursive: true });
      // Upstream's judge passed all four; this one fails the answer to f002, so one verdict disagrees.
      server = await startFakeModelServer((req) => {
        const prompt = JSON.stringify(req.body.messages);
        const score = prompt.includes('Add initial project files') ? 0.2 : 0.9;
        return {
          json: chatCompletion({
            content: JSON.stringify({ score, reason: 'judged' }),
            usage: { prompt: 300, completion: 20, cost: 0.0005 },
          }),
        };
      });
      const profiles = path.join(tmp, 'gitbench.json');
      writeFileSync(
        profiles,
        JSON.stringify({
          models: {
            judges: { models: ['judge-a'], base_url: `${server.url}/v1`, api_key_env: 'GITBENCH_TEST_JUDGE_KEY' },
          },
        }),
      );
      const out = path.join(tmp, 'judged.json');
      const args = ['run', suite, '--model', `replay:${RESULTS}`, '--json-output', out, '--json'];
      const env = { GITBENCH_PROFILES: profiles, GITBENCH_TEST_JUDGE_KEY: 'test-judge-key-0123456789' };

      const judged = await gitbench([...args, '--judge-profile', 'judges'], env);
      expect(judged.code, judged.stderr).toBe(1);
      const report = jsonOf<RunReport>(judged);
      expect(report.agreement).toMatchObject({ compared: 4, agreed: 3, disagreed: 1, skipped: 0 });
      expect(report.agreement?.disagreements).toEqual([
        expect.objectContaining({ benchmark: 'commit_messages', id: 'f002', recorded: true, ours: false }),
      ]);
      expect(server.requests).toHaveLength(4);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer test-judge-key-0123456789');
      const envelope = read(out);
      const judge = scoresOf(envelope).get('commit_messages/f001')?.gitbench?.judge;
      expect(judge).toMatchObject({ status: 'scored', members: [{ input_tokens: 300, cost_usd: 0.0005 }] });
      // The judges' calls are counted apart from the model's, as the worker keeps them.
      expect(report.runs[0]?.usage).toMatchObject({ calls: 4 });
      expect(report.runs[0]?.judgeUsage).toMatchObject({ calls: 4, input_tokens: 1200, cost_usd: 0.002 });
      expect(judged.stdout).not.toContain('test-judge-key');

      const unjudged = jsonOf<RunReport>(await gitbench(args, env));
      expect(unjudged.agreement).toMatchObject({ compared: 0, skipped: 4 });
      expect(server.requests).toHaveLength(4);
    },
  );

  it('fails fast, before any sandbox, on a model no profile serves', async () => {
    const r = await gitbench(['run', path.join(UPSTREAM, 'fixtures'), '--model', 'sim']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /gitbench run: No profile lists model 'sim'\..*built-in model: oracle, nop, mock, simulated\[:seed\]/,
    );
  });
});

describe('gitbench run --id, --domain, --difficulty, --tag', () => {
  it(
    "runs only the fixtures selected, lists each one's outcome in --json, and refuses an id the suite lacks",
    { timeout: 300_000 },
    async () => {
      const suite = path.join(ROOT, 'fixtures');
      const r = await gitbench(['run', suite, '--model', 'oracle', '--id', 'git_grep/f001,git_clean/f002', '--json']);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const report = jsonOf<RunReport>(r);
      expect(report.suite.selected).toBe(2);
      expect(report.suite.fixtures).toBeGreaterThan(200);
      expect(report.runs[0]!.results.map((x) => [x.fixture, x.outcome]).sort()).toEqual([
        ['git_clean/f002', 'PASS'],
        ['git_grep/f001', 'PASS'],
      ]);

      const typo = await gitbench(['run', suite, '--model', 'oracle', '--id', 'git_grep/f001,git_grep/f999']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain(`--id: ${suite} has no fixture git_grep/f999`);
      const none = await gitbench(['run', suite, '--model', 'oracle', '--domain', 'git_grep', '--tag', 'no-such-tag']);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/the selection .* leaves none of .*fixtures's \d+ fixtures/);
      const level = await gitbench(['run', suite, '--model', 'oracle', '--difficulty', 'impossible']);
      expect(level.code).toBe(2);
      expect(level.stderr).toContain(
        '--difficulty must be one of trivial, easy, medium, hard, expert, unspecified, got impossible',
      );
    },
  );
});

describe('gitbench run against a hostile model', () => {
  it(
    'scores every attack of the red team as a counted failure: no pass, nothing excluded',
    { timeout: 300_000 },
    async () => {
      // The red team's two tasks as a suite on disk, and a model served over HTTP that answers each
      // task's requests with its attacks in turn, one per trial.
      const suite = path.join(tmp, 'red-team-suite');
      mkdirSync(path.join(suite, 'red_team'), { recursive: true });
      writeFileSync(path.join(suite, 'red_team', 'f001.yaml'), FIXTURE);
      writeFileSync(path.join(suite, 'red_team', 'f002.yaml'), HISTORY_FIXTURE);
      const attacks = {
        notes: [
          [
            ATTACKS['records forged into the runner through /proc/$PPID/fd/1'],
            ATTACKS['records forged into the container init through /proc/1/fd/1'],
          ].join('; '),
          ATTACKS['local excludes (.git/info/exclude) that hide the file, and an empty commit with the message']!,
          ATTACKS['status settings that hide the file, and a replace ref that shows the expected commit']!,
        ],
        history: [
          HISTORY_ATTACKS['a shallow list that cuts history at HEAD']!,
          HISTORY_ATTACKS['a commit-graph that rewires HEAD past the commit']!,
          HISTORY_ATTACKS['a commit object rewritten in place with another parent']!,
        ],
      };
      const served = { notes: 0, history: 0 };
      const hostile = await startFakeModelServer((req) => {
        const task = JSON.stringify(req.body.messages).includes('secret') ? 'history' : 'notes';
        const answer = attacks[task][served[task]++ % attacks[task].length]!;
        return { json: chatCompletion({ content: answer }) };
      });
      try {
        const profiles = path.join(tmp, 'hostile.json');
        writeFileSync(
          profiles,
          JSON.stringify({
            models: {
              hostile: {
                models: ['hostile-model'],
                base_url: `${hostile.url}/v1`,
                api_key_env: 'GITBENCH_TEST_HOSTILE_KEY',
              },
            },
          }),
        );
        const r = await gitbench(['run', suite, '--model', 'hostile-model', '--trials', '3', '--json'], {
          GITBENCH_PROFILES: profiles,
          GITBENCH_TEST_HOSTILE_KEY: 'test-hostile-key-0123456789',
        });
        const report = jsonOf<RunReport>(r);
        expect(served).toEqual({ notes: 3, history: 3 });
        expect(report.runs).toHaveLength(3);
        for (const run of report.runs) {
          expect(run.excluded).toEqual([]);
          expect(run.summary).toMatchObject({ total_fixtures: 2, total_passed: 0 });
          expect(Object.keys(run.outcomes).filter((o) => o !== 'FAIL' && o !== 'TAMPERING')).toEqual([]);
        }
        expect(r.code, r.stderr).toBe(0);
      } finally {
        await hostile.close();
      }
    },
  );
});
