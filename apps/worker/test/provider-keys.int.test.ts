import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  campaignAttemptsExport,
  collectExport,
  listProviderKeys,
  openProviderKeys,
  putProviderKey,
  readTrajectory,
  readTrajectorySteps,
  rotateProviderKeys,
} from '@gitbench/db';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { createQueueClient, type QueueClient } from '@gitbench/queue';
import {
  finished,
  launch,
  loadFixtures,
  startWorkerProcess,
  testWorkerEnv,
  UPSTREAM_FIXTURES,
  type WorkerProcess,
} from './harness';

/**
 * A stored provider key, used by a campaign against a local fake OpenAI-compatible server that echoes
 * the key back in its answer: the server must receive it as the bearer token, and afterwards the key
 * must appear nowhere the product keeps or shows anything (every table, the exports, the worker's log),
 * an agent attempt's trajectory steps included.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const SECRET = 'test-secret-key-of-at-least-32-characters';
const KEY = `sk-fake-${Date.now()}-0123456789abcdef`;
const seenAuth: string[] = [];

let t: TestDatabase;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let queue: QueueClient;
let server: Server;
let dir: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL);
  server = createServer((req, res) => {
    seenAuth.push(String(req.headers.authorization ?? ''));
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'cmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'fake/model',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `my key is ${KEY}` } }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  dir = mkdtempSync(path.join(tmpdir(), 'gitbench-keys-'));
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await queue?.close();
  await new Promise((r) => server?.close(r));
  await t?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('stored provider keys', () => {
  it("re-encrypts under a new secret with gitbench keys rotate's store function", async () => {
    await putProviderKey(t.db, SECRET, { name: 'rotating', value: 'sk-rotate-me-12345678', by: 'test' });
    const next = 'another-secret-key-of-32-characters!!';
    expect(await rotateProviderKeys(t.db, SECRET, next)).toEqual({ rotated: 1, already: 0 });
    expect((await openProviderKeys(t.db, next)).keys.get('rotating')).toBe('sk-rotate-me-12345678');
    expect((await openProviderKeys(t.db, SECRET)).unreadable).toEqual(['rotating']);
    expect((await listProviderKeys(t.db, SECRET)).find((k) => k.name === 'rotating')?.readable).toBe(false);
    await t.db.providerKey.deleteMany({ where: { name: 'rotating' } });
  });

  it('reaches the provider as the bearer token and never appears in any table, export or log line', async () => {
    await putProviderKey(t.db, SECRET, { name: 'fake-provider', value: KEY, by: 'admin@test' });
    const port = (server.address() as { port: number }).port;
    const profiles = path.join(dir, 'gitbench.json');
    writeFileSync(
      profiles,
      JSON.stringify({
        models: {
          fake: {
            provider: 'openai',
            base_url: `http://127.0.0.1:${port}/v1`,
            models: ['fake/model'],
            api_key_ref: 'fake-provider',
            retry_count: 1,
          },
        },
      }),
    );
    const queueName = `keys-${Date.now()}`;
    queue = createQueueClient({ redisUrl: REDIS_URL, queueName });
    const worker = await startWorkerProcess(
      testWorkerEnv(REDIS_URL, queueName, t.schema, {
        GITBENCH_SECRET_KEY: SECRET,
        GITBENCH_PROFILES: profiles,
        GITBENCH_SAFETY_REVIEW: 'rules',
      }),
    );
    workers.push(worker);
    const fixtures = await loadFixtures(UPSTREAM_FIXTURES);
    const campaignId = await launch(
      t.db,
      queue,
      fixtures,
      {
        models: ['fake/model'],
        trials: 1,
        fixtures: { suiteDir: 'upstream', ids: ['blame_forensics/f001', 'git_grep/f001'] },
      },
      { 'fake/model': 'fake' },
    );
    // As the web app does with a reviewer configured: the review starts pending.
    await t.db.campaign.update({ where: { id: campaignId }, data: { safetyReview: 'pending' } });
    await finished(t.db, campaignId, workers, 180_000);
    const ended = await t.db.attempt.findMany({ where: { campaignId }, select: { status: true, errorMessage: true } });
    expect(seenAuth.length, `${JSON.stringify(ended)}\n${worker.output.join('').slice(-1500)}`).toBeGreaterThan(0);
    expect(seenAuth.every((h) => h === `Bearer ${KEY}`)).toBe(true);

    const attempts = await t.db.attempt.findMany({ where: { campaignId }, include: { tries: true } });
    expect(attempts.map((a) => a.status)).toEqual(['VALID_FAIL', 'VALID_FAIL']);
    expect(JSON.stringify(attempts)).toContain('[provider key]');
    // The worker reviewed the (redacted) outputs when the campaign finished, whichever path finished it.
    await expect
      .poll(async () => (await t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } })).safetyReview, {
        timeout: 10_000,
      })
      .toBe('approved');

    // The agent loop writes its trajectory step by step: the echo is in a step's model output, redacted too.
    const agentCampaign = await launch(
      t.db,
      queue,
      fixtures,
      {
        models: ['fake/model'],
        outputModes: ['agent'],
        agent: { toolSet: 'bash', limits: { maxTurns: 2 } },
        trials: 1,
        fixtures: { suiteDir: 'upstream', ids: ['blame_forensics/f001'] },
      },
      { 'fake/model': 'fake' },
    );
    await finished(t.db, agentCampaign, workers, 180_000);
    const [agentAttempt] = await t.db.attempt.findMany({ where: { campaignId: agentCampaign } });
    const read = (await readTrajectory(t.db, agentAttempt!.id))!;
    const steps = await readTrajectorySteps(t.db, read.trajectory.id);
    expect(steps.length, worker.output.join('').slice(-1500)).toBeGreaterThan(0);
    expect(JSON.stringify(steps)).toContain('[provider key]');

    // Every row of every table, as text (the sealed key is ciphertext and must not contain it either).
    const tables = await t.db.$queryRawUnsafe<{ table_name: string }[]>(
      `SELECT table_name::text AS table_name FROM information_schema.tables WHERE table_schema = '${t.schema}'
        AND table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const { table_name } of tables) {
      const rows = await t.db.$queryRawUnsafe<{ dump: string | null }[]>(
        `SELECT string_agg(x::text, E'\\n') AS dump FROM "${t.schema}"."${table_name}" x`,
      );
      expect(rows[0]?.dump ?? '', table_name).not.toContain(KEY);
    }
    for (const format of ['csv', 'json'] as const) {
      const exported = await collectExport((await campaignAttemptsExport(t.db, campaignId, format))!);
      expect(exported.length).toBeGreaterThan(100);
      expect(exported).not.toContain(KEY);
    }
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    const log = worker.output.join('');
    expect(log).toContain('ready');
    expect(log).not.toContain(KEY);
  }, 300_000);
});
