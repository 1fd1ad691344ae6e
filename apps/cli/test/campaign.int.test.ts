import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AA_COLUMNS, ATTEMPT_EXPORT_COLUMNS, type CampaignSummary } from '@gitbench/db';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import {
  freePort,
  removeSandboxesOf,
  startWorkerProcess,
  TestRedis,
  waitFor,
  type WorkerProcess,
} from '../../worker/test/harness';
import {
  chatCompletion,
  openAIError,
  startFakeModelServer,
  type FakeModelServer,
} from '../../../packages/providers/test/support/fake-model-server';
import { gitbench, jsonOf, UPSTREAM } from './cli-process';

/**
 * The campaign commands against real services: Postgres in a schema of this file's own, a Redis of
 * its own, a worker process started like production, Docker sandboxes, and a local HTTP server for the
 * one hosted model (which can be made to fail, to give `retry` something to retry).
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const FIXTURES = path.join(UPSTREAM, 'fixtures');
const RESULTS = path.join(UPSTREAM, 'results');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-campaign-'));

let t: TestDatabase;
let redis: TestRedis;
let worker: WorkerProcess;
let model: FakeModelServer;
let modelDown = true;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL, 'cli');
  redis = new TestRedis(await freePort());
  await redis.start();
  model = await startFakeModelServer(() =>
    modelDown
      ? openAIError(503, 'overloaded')
      : {
          json: chatCompletion({
            content: 'Simplify query for performance',
            usage: { prompt: 50, completion: 5, cost: 0.0001 },
          }),
        },
  );
  const profiles = path.join(tmp, 'gitbench.json');
  writeFileSync(
    profiles,
    JSON.stringify({ models: { hosted: { models: ['acme/coder'], base_url: `${model.url}/v1`, retry_count: 1 } } }),
  );
  env = {
    DATABASE_URL,
    GITBENCH_DATABASE_SCHEMA: t.schema,
    REDIS_URL: redis.url,
    GITBENCH_QUEUE: `cli-${Date.now()}`,
    GITBENCH_PROFILES: profiles,
  };
  worker = await startWorkerProcess({
    ...env,
    GITBENCH_WORKER_CONCURRENCY: '3',
    GITBENCH_HEARTBEAT_MS: '500',
    GITBENCH_STALE_AFTER_MS: '4000',
    GITBENCH_REDISPATCH_AFTER_MS: '3000',
    GITBENCH_REAPER_INTERVAL_MS: '500',
  });
});
afterAll(async () => {
  await worker?.stop('SIGKILL');
  if (worker) await removeSandboxesOf([worker]);
  await model?.close();
  await redis?.stop();
  await t?.drop();
});

const cli = (args: string[], extra: Record<string, string | undefined> = {}) => gitbench(args, { ...env, ...extra });
const campaigns = () => t.db.campaign.count();

describe('gitbench campaign create', () => {
  it("prints the API's field errors for an invalid configuration and writes nothing", async () => {
    const bad = await cli([
      'campaign',
      'create',
      '--name',
      '',
      '--model',
      'oracle',
      '--trials',
      '0',
      '--fixtures',
      FIXTURES,
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr.slice(bad.stderr.indexOf('{')))).toEqual({
      formErrors: [],
      fieldErrors: { name: ['Enter a name.'], trials: ['Run at least 1 trial.'] },
    });

    const unknownModel = await cli(['campaign', 'create', '--name', 'x', '--model', 'sim', '--fixtures', FIXTURES]);
    expect(unknownModel.code).toBe(2);
    const errors = JSON.parse(unknownModel.stderr) as { fieldErrors: Record<string, string[]> };
    expect(errors.fieldErrors['models.0']?.[0]).toMatch(
      new RegExp(
        /^No configured profile serves 'sim'\. Add it to a profile in .*gitbench\.json, /.source +
          /or use a built-in model: oracle, nop, mock, simulated\[:seed\]/.source,
      ),
    );

    const noJudge = await cli([
      'campaign',
      'create',
      '--name',
      'x',
      '--model',
      'oracle',
      '--fixtures',
      FIXTURES,
      '--judge-profile',
      'judges',
    ]);
    expect(noJudge.code).toBe(2);
    expect(JSON.parse(noJudge.stderr)).toEqual({
      formErrors: [],
      fieldErrors: { judgeProfile: ["Judge profile 'judges' is not configured (configured: hosted)."] },
    });

    const file = path.join(tmp, 'broken.json');
    writeFileSync(file, '{"name": ');
    const notJson = await cli(['campaign', 'create', '--config', file]);
    expect(notJson.code).toBe(2);
    expect(JSON.parse(notJson.stderr)).toMatchObject({
      formErrors: [expect.stringMatching(/broken\.json is not valid JSON/)],
      fieldErrors: {},
    });
    expect(await campaigns()).toBe(0);
  });

  it('creates a campaign, prints its id, and --wait follows it to the end', { timeout: 300_000 }, async () => {
    const r = await cli([
      'campaign',
      'create',
      '--name',
      'cli oracle vs simulated',
      '--model',
      'oracle',
      '--model',
      'simulated:5',
      '--trials',
      '2',
      '--fixtures',
      FIXTURES,
      '--id',
      'blame_forensics/f001,git_clean/f002',
      '--wait',
    ]);
    expect(r.code, `${r.stdout}\n${r.stderr}\n${worker.output.join('').slice(-2000)}`).toBe(0);
    const id = r.stdout.split('\n')[0]!;
    expect(id).toMatch(/^cmp_[A-Za-z0-9]+$/);
    expect(r.stderr).toMatch(/completed: 8\/8 attempt\(s\) done/);
    expect(r.stdout).toContain('completeness: complete');
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { id } });
    expect(campaign).toMatchObject({ status: 'COMPLETED', createdBy: expect.any(String), trials: 2 });
    expect(await t.db.attempt.count({ where: { campaignId: id, status: { in: ['VALID_PASS', 'VALID_FAIL'] } } })).toBe(
      8,
    );
    // The creation is audited once, by the use case the API shares, naming the shell user.
    const audits = await t.db.auditEvent.findMany({ where: { action: 'campaign.create', targetId: id } });
    expect(audits.map((a) => [a.via, a.actorId, a.detail])).toEqual([['cli', null, { attempts: 8 }]]);
  });
});

describe('status, export, retry and cancel on a campaign', () => {
  let id: string;
  beforeAll(async () => {
    const file = path.join(tmp, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'from a file',
        createdBy: 'test',
        models: ['oracle', 'mock'],
        trials: 2,
        fixtures: { suiteDir: FIXTURES, ids: ['blame_forensics/f001', 'worktree_usage/f004'] },
      }),
    );
    const r = await cli(['campaign', 'create', '--config', file, '--wait', '--json']);
    expect(r.code, r.stderr).toBe(0);
    id = jsonOf<{ campaignId: string }>(r).campaignId;
  }, 300_000);

  it(
    'status: counts, completeness in three parts, and ' + 'per target mean success, pass_any_at_n and stability',
    async () => {
      const summary = jsonOf<CampaignSummary>(await cli(['campaign', 'status', id, '--json']));
      expect(summary.statusCounts).toEqual({ VALID_PASS: 4, VALID_FAIL: 4 });
      expect(summary.completeness.complete).toBe(true);
      expect(Object.keys(summary.completeness.parts)).toEqual(['targetAttempts', 'judgeScoring', 'safetyReview']);
      const oracle = summary.perTarget.find((g) => g.modelId === 'oracle')!;
      expect(oracle.meanSuccess).toMatchObject({ numerator: 4, denominator: 4, value: 1, interval: { high: 1 } });
      expect(oracle.meanSuccess.interval!.low).toBeCloseTo(0.51, 2);
      expect(oracle.passAny).toMatchObject({
        applicable: true,
        points: [
          { n: 1, numerator: 2, denominator: 2 },
          { n: 2, numerator: 2, denominator: 2 },
        ],
      });
      expect(oracle.classification).toMatchObject({ stablePass: 2, flaky: 0, stableFail: 0 });
      const mock = summary.perTarget.find((g) => g.modelId === 'mock')!;
      expect(mock.classification).toMatchObject({ stablePass: 0, stableFail: 2 });

      const text = await cli(['campaign', 'status', id]);
      expect(text.stdout).toContain('mean success   4/4 = 100.0% (95% Wilson 51.0%–100.0%)');
      expect(text.stdout).toContain('pass_any_at_n  n=1 2/2  n=2 2/2');
      expect(text.stdout).toContain('fixtures       0 stable pass, 0 flaky, 2 stable fail, 0 unknown');
      // No reviewer is configured here: the review lets the campaign through but never reads as passed.
      expect(text.stdout).toContain('safety review    not configured (GITBENCH_SAFETY_REVIEW)');
    },
  );

  it('export: attempts as CSV and JSON, and the artificialanalysis rows', async () => {
    const csv = (await cli(['campaign', 'export', id, '--format', 'csv'])).stdout.trim().split('\n');
    expect(csv[0]).toBe(ATTEMPT_EXPORT_COLUMNS.join(','));
    expect(csv).toHaveLength(1 + 8);
    const out = path.join(tmp, 'attempts.json');
    expect((await cli(['campaign', 'export', id, '--format', 'json', '--output', out])).code).toBe(0);
    const json = JSON.parse(readFileSync(out, 'utf8')) as { campaign: { id: string }; attempts: unknown[] };
    expect(json.campaign.id).toBe(id);
    expect(json.attempts).toHaveLength(8);
    const aa = (await cli(['campaign', 'export', id, '--format', 'aa'])).stdout.trim().split('\n');
    expect(aa[0]).toBe(AA_COLUMNS.join(','));
    const rows = aa.slice(1).map((line) => Object.fromEntries(line.split(',').map((v, i) => [AA_COLUMNS[i], v])));
    expect(
      rows.map((r) => [
        r.model,
        r.benchmark,
        r.score,
        r.total,
        r.passed,
        r.output_mode,
        r.trials,
        r.excluded,
        r.profile,
      ]),
    ).toEqual([
      ['mock', 'blame_forensics', '0', '2', '0', 'text', '2', '0', 'builtin'],
      ['mock', 'worktree_usage', '0', '2', '0', 'text', '2', '0', 'builtin'],
      ['oracle', 'blame_forensics', '1', '2', '2', 'text', '2', '0', 'builtin'],
      ['oracle', 'worktree_usage', '1', '2', '2', 'text', '2', '0', 'builtin'],
    ]);
    // The campaign records the GitBench that created it: here the CLI's own checkout.
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8' }).stdout.trim();
    expect(new Set(rows.map((r) => r.git_sha))).toEqual(new Set([head]));
    expect(['true', 'false']).toContain(rows[0]!.git_dirty);
    const missing = await cli(['campaign', 'export', 'cmp_doesnotexist', '--format', 'aa']);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, 'no campaign cmp_doesnotexist']);
  });

  it('retry queues only infrastructure failures again, and they finish', { timeout: 300_000 }, async () => {
    modelDown = true;
    const r = await cli([
      'campaign',
      'create',
      '--name',
      'hosted',
      '--model',
      'acme/coder',
      '--trials',
      '1',
      '--fixtures',
      FIXTURES,
      '--id',
      'blame_forensics/f001',
      '--wait',
    ]);
    expect(r.code).toBe(1);
    const campaignId = r.stdout.split('\n')[0]!;
    expect(r.stdout).toMatch(/INFRA_FAILURE 1/);
    expect(r.stdout).toContain('completeness: INCOMPLETE');
    modelDown = false;
    const retried = await cli(['campaign', 'retry', campaignId, '--json']);
    expect(jsonOf(retried)).toEqual({ requeued: 1, dispatched: 1, replanned: false });
    await waitFor(
      'the retried attempt to pass',
      async () => (await t.db.attempt.findFirst({ where: { campaignId, status: 'VALID_PASS' } })) ?? undefined,
      120_000,
    );
    const attempt = await t.db.attempt.findFirstOrThrow({
      where: { campaignId },
      include: { tries: { orderBy: { tryNumber: 'asc' } } },
    });
    expect(attempt.tries.map((x) => x.status)).toEqual(['INFRA_FAILURE', 'VALID_PASS']);
    expect(attempt).toMatchObject({ costUsd: 0.0001, inputTokens: 50 });
    const again = await cli(['campaign', 'retry', id, '--json']);
    expect(jsonOf(again)).toEqual({ requeued: 0, dispatched: 0, replanned: false });
  });

  it(
    'cancel stops a running campaign once, and says so when there is nothing to cancel',
    { timeout: 120_000 },
    async () => {
      const r = await cli([
        'campaign',
        'create',
        '--name',
        'to cancel',
        '--model',
        'simulated:1',
        '--trials',
        '20',
        '--fixtures',
        FIXTURES,
        '--domain',
        'git_clean',
        '--json',
      ]);
      const campaignId = jsonOf<{ campaignId: string }>(r).campaignId;
      const cancelled = await cli(['campaign', 'cancel', campaignId, '--json']);
      expect(cancelled.code).toBe(0);
      expect(jsonOf(cancelled)).toMatchObject({ cancelled: true });
      expect((await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } })).status).toBe('CANCELLED');
      const twice = await cli(['campaign', 'cancel', campaignId]);
      expect([twice.code, twice.stderr.trim()]).toEqual([1, `${campaignId} is cancelled: there is nothing to cancel`]);
      await waitFor(
        'no attempt left running',
        async () => (await t.db.attempt.count({ where: { campaignId, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0,
        60_000,
      );
    },
  );
});

describe('gitbench import-legacy', () => {
  it('imports upstream result files once, and nothing from a set with an invalid file', async () => {
    const first = await cli(['import-legacy', RESULTS, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const imported = jsonOf<{ campaignId: string; created: boolean; attempts: number }[]>(first);
    expect(imported.map((i) => [i.created, i.attempts])).toEqual([
      [true, 68],
      [true, 68],
    ]);
    expect(
      await t.db.campaignStats.count({ where: { campaignId: { in: imported.map((i) => i.campaignId) } } }),
    ).toBeGreaterThan(0);
    const again = jsonOf<{ campaignId: string; created: boolean }[]>(await cli(['import-legacy', RESULTS, '--json']));
    expect(again).toEqual(imported.map((i) => expect.objectContaining({ campaignId: i.campaignId, created: false })));

    const before = await campaigns();
    const bad = path.join(tmp, 'not-a-result.json');
    writeFileSync(bad, JSON.stringify({ model: 'x', results: [] }));
    const r = await cli(['import-legacy', bad, path.join(RESULTS, readdirSync(RESULTS)[0]!)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not-a-result\.json: benchmark_suite_version: /);
    expect(await campaigns()).toBe(before);
  });
});

describe('the environment', () => {
  it('is validated before anything connects, naming the variable', async () => {
    const r = await cli(['campaign', 'status', 'cmp_x'], { GITBENCH_QUEUE: 'a:b', REDIS_URL: 'http://nope' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('REDIS_URL: must be a redis:// URL');
    expect(r.stderr).toContain('GITBENCH_QUEUE: must be letters, digits, _ or - (BullMQ reserves ":")');
  });
});
