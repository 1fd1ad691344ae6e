import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAttemptEvidence } from '@gitbench/core';
import { requeueInfraFailures } from '@gitbench/db';
import {
  chatCompletion,
  startFakeModelServer,
  type FakeModelServer,
} from '../../../packages/providers/test/support/fake-model-server';
import {
  campaignTestBed,
  expectOneOutcomeEach,
  finished,
  launch,
  loadFixtures,
  UPSTREAM_FIXTURES,
  waitFor,
  workerIdOf,
} from './harness';

/**
 * Campaigns that used to hang or loop: planning that fails every time, an attempt whose execution
 * fails the same way every time, attempts given back by a worker that stops. Real worker processes,
 * a Redis of this file's own, Docker sandboxes, and a local server for a paid model.
 */
const PAID = 'acme/coder';
const HOSTED = { [PAID]: 'hosted' };
const COST = 0.0002;

const bed = campaignTestBed('recover');
let model: FakeModelServer;
let modelDelayMs = 0;
let modelGate: Promise<void> = Promise.resolve();
let profiles: string;
const fixtures = await loadFixtures(UPSTREAM_FIXTURES);

beforeAll(async () => {
  model = await startFakeModelServer(async () => {
    await modelGate;
    return {
      delayMs: modelDelayMs,
      json: chatCompletion({ content: 'git clean -n', usage: { prompt: 40, completion: 4, cost: COST } }),
    };
  });
  profiles = path.join(mkdtempSync(path.join(tmpdir(), 'gitbench-recovery-')), 'gitbench.json');
  writeFileSync(
    profiles,
    JSON.stringify({ models: { hosted: { models: [PAID], base_url: `${model.url}/v1`, retry_count: 1 } } }),
  );
});
afterEach(() => {
  modelDelayMs = 0;
  modelGate = Promise.resolve();
});
afterAll(async () => {
  await model?.close();
});

const startWorkers = (n: number, queueName: string, extra: Record<string, string> = {}) =>
  bed.startWorkers(n, queueName, { GITBENCH_PROFILES: profiles, ...extra });

/**
 * Makes Postgres fail the first write to `table` that `when` matches (as a write cut by a lost connection
 * fails), once: a sequence counts, as a rolled-back row would not. Returns the trigger's removal.
 */
async function failFirstWrite(
  name: string,
  table: string,
  op: 'INSERT' | 'UPDATE',
  when: string,
  message: string,
): Promise<() => Promise<unknown>> {
  const s = `"${bed.t.schema}"`;
  await bed.t.db.$executeRawUnsafe(`CREATE SEQUENCE ${s}.${name}_count`);
  await bed.t.db.$executeRawUnsafe(
    `CREATE FUNCTION ${s}.${name}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF ${when} THEN
         IF nextval('${s}.${name}_count') = 1 THEN RAISE EXCEPTION '${message}'; END IF;
       END IF;
       RETURN NEW;
     END $$`,
  );
  await bed.t.db.$executeRawUnsafe(
    `CREATE TRIGGER ${name} BEFORE ${op} ON ${s}."${table}" FOR EACH ROW EXECUTE FUNCTION ${s}.${name}()`,
  );
  return () => bed.t.db.$executeRawUnsafe(`DROP TRIGGER ${name} ON ${s}."${table}"`);
}

/** What the campaign page's retry does: the retry, then sending what it queued. */
async function retry(campaignId: string) {
  const r = await requeueInfraFailures(bed.t.db, campaignId);
  if (r.plan) await bed.queue!.enqueue('campaign.plan', r.plan);
  await bed.queue!.enqueueMany('attempt.run', r.attempts);
  return r;
}

describe('campaigns that used to hang or loop', () => {
  it('a campaign that cannot be planned ends FAILED with the reason, and retry plans it again', async () => {
    const { queue, name: queueName } = bed.newQueue('plan-fail');
    const ids = ['blame_forensics/f001', 'git_clean/f002'];
    const campaignId = await launch(bed.t.db, queue, fixtures, {
      models: ['oracle'],
      trials: 1,
      fixtures: { suiteDir: 'upstream', ids },
    });
    // A frozen definition planning cannot use: every try of the plan job fails the same way.
    const [snap] = await bed.t.db.fixtureSnapshot.findMany({ where: { campaignId }, orderBy: { fixtureId: 'asc' } });
    await bed.t.db.fixtureSnapshot.update({ where: { id: snap!.id }, data: { definition: { broken: true } } });
    await startWorkers(1, queueName);
    const failed = await waitFor(
      'the campaign to fail',
      async () => {
        const c = await bed.t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
        return c.status === 'FAILED' ? c : undefined;
      },
      90_000,
    );
    expect(failed.statusDetail).toMatch(/^planning failed: /);
    expect(await bed.t.db.attempt.count({ where: { campaignId } })).toBe(0);

    // The cause is fixed; retry plans it as a new job (BullMQ still holds the failed one).
    await bed.t.db.fixtureSnapshot.update({
      where: { id: snap!.id },
      data: { definition: snap!.definition as object },
    });
    expect((await retry(campaignId)).plan).toEqual({ campaignId, dispatch: 2 });
    await finished(bed.t.db, campaignId, bed.workers, 120_000);
    await expectOneOutcomeEach(bed.t.db, campaignId, ids.length);
    expect((await bed.t.db.campaign.findUniqueOrThrow({ where: { id: campaignId } })).statusDetail).toBeNull();
    await bed.stopAll();
  }, 240_000);

  it(
    'an attempt that fails the same way every time stops at the dispatch ' +
      'cap, keeps what each paid call cost, and retry brings it back',
    async () => {
      const { queue, name: queueName } = bed.newQueue('cap');
      // The model answers only once the archive is broken: the answer is paid for, then the worker
      // cannot read the repository to score it, every time.
      let openGate!: () => void;
      modelGate = new Promise((r) => (openGate = r));
      await startWorkers(1, queueName, { GITBENCH_MAX_DISPATCHES: '2' });
      const campaignId = await launch(
        bed.t.db,
        queue,
        fixtures,
        {
          models: [PAID],
          outputModes: ['text'],
          trials: 1,
          fixtures: { suiteDir: 'upstream', ids: ['git_clean/f002'] },
        },
        HOSTED,
      );
      await waitFor('the model to be called', async () => model.requests.length > 0, 60_000);
      const build = await bed.t.db.fixtureBuild.findFirstOrThrow({ where: { fixtureId: 'f002', domain: 'git_clean' } });
      // gzip's magic bytes and then garbage: the worker cannot read its own storage (not the sandbox's fault).
      await bed.t.db.fixtureBuild.update({
        where: { key: build.key },
        data: { repoArchive: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]) },
      });
      openGate();

      const [capped] = await waitFor(
        'the attempt to reach its dispatch cap',
        async () => {
          const rows = await bed.t.db.attempt.findMany({
            where: { campaignId, status: 'INFRA_FAILURE' },
            include: { tries: true },
          });
          return rows.length === 1 ? rows : undefined;
        },
        120_000,
      );
      expect(capped, JSON.stringify(capped!.tries.map((x) => [x.status, x.errorClass, x.errorMessage]))).toMatchObject({
        errorClass: 'dispatch_limit',
        dispatchCount: 2,
      });
      expect(capped!.errorMessage).toMatch(
        /sent to workers 2 times without an outcome.*last try: storage: reading the archive/,
      );
      expect(capped!.tries.length).toBeGreaterThanOrEqual(2);
      for (const tr of capped!.tries) {
        expect(tr).toMatchObject({ status: 'INFRA_FAILURE', errorClass: 'storage' });
        // The model had answered: its tokens and cost are on the try that was given back.
        const evidence = parseAttemptEvidence(tr.evidence);
        expect(
          evidence.origin === 'gitbench' && evidence.calls.map((c) => ({ usage: c.usage, cost: c.cost.usd })),
        ).toEqual([
          { usage: { inputTokens: 40, outputTokens: 4, reasoningTokens: null, totalTokens: 44 }, cost: COST },
        ]);
      }
      expect(new Set(capped!.tries.map((x) => x.tryNumber)).size).toBe(capped!.tries.length);
      await finished(bed.t.db, campaignId, bed.workers, 30_000);

      await bed.t.db.fixtureBuild.update({ where: { key: build.key }, data: { repoArchive: build.repoArchive } });
      expect((await retry(campaignId)).attempts).toEqual([{ attemptId: capped!.id, dispatch: 3 }]);
      await finished(bed.t.db, campaignId, bed.workers, 60_000);
      const [done] = await expectOneOutcomeEach(bed.t.db, campaignId, 1);
      expect(done!.costUsd).toBe(COST);
      await bed.stopAll();
    },
    300_000,
  );

  it('an attempt given back after a database error is sent again at once, ahead of the backlog', async () => {
    const { queue, name: queueName } = bed.newQueue('db-error');
    // The campaign's first scored write fails inside Postgres: the worker gives that attempt back.
    const restore = await failFirstWrite(
      'fail_first_outcome',
      'AttemptTry',
      'INSERT',
      "NEW.status IN ('VALID_PASS', 'VALID_FAIL')",
      'the database failed this write',
    );
    try {
      // One job at a time, and no reaper re-sends anything: only the give-back itself can send it.
      const [worker] = await startWorkers(1, queueName, {
        GITBENCH_WORKER_CONCURRENCY: '1',
        GITBENCH_REDISPATCH_AFTER_MS: '600000',
        GITBENCH_STALE_AFTER_MS: '600000',
      });
      const ids = ['blame_forensics/f001', 'branch_cleanup/f001', 'git_grep/f001', 'commit_squash/f001'];
      const campaignId = await launch(bed.t.db, queue, fixtures, {
        models: ['oracle', 'mock'],
        outputModes: ['text'],
        trials: 1,
        fixtures: { suiteDir: 'upstream', ids },
      });
      await finished(bed.t.db, campaignId, bed.workers, 120_000);
      await expectOneOutcomeEach(bed.t.db, campaignId, 2 * ids.length);
      const tries = await bed.t.db.attemptTry.findMany({
        where: { attempt: { campaignId } },
        orderBy: { startedAt: 'asc' },
      });
      const failed = tries.findIndex((x) => x.errorClass === 'worker_error');
      expect(tries[failed], JSON.stringify(tries.map((x) => [x.attemptId, x.status, x.errorClass]))).toMatchObject({
        status: 'INFRA_FAILURE',
        workerId: workerIdOf(worker!),
      });
      expect(tries[failed]!.errorMessage).toMatch(/the database failed this write/);
      // Attempts were still waiting when it was given back, and it was the next one the worker ran.
      expect(tries.length - failed - 2).toBeGreaterThan(0);
      expect(tries.map((x) => x.attemptId).slice(failed, failed + 2)).toEqual([
        tries[failed]!.attemptId,
        tries[failed]!.attemptId,
      ]);
    } finally {
      await restore();
    }
    await bed.stopAll();
  }, 240_000);

  it('an attempt whose claim the database failed is sent again at once, ahead of the backlog', async () => {
    const { queue, name: queueName } = bed.newQueue('claim-error');
    // The campaign's first claim (QUEUED -> RUNNING) fails inside Postgres.
    const restore = await failFirstWrite(
      'fail_first_claim',
      'Attempt',
      'UPDATE',
      "OLD.status = 'QUEUED' AND NEW.status = 'RUNNING'",
      'the database failed this claim',
    );
    try {
      const [worker] = await startWorkers(1, queueName, {
        GITBENCH_WORKER_CONCURRENCY: '1',
        GITBENCH_REDISPATCH_AFTER_MS: '600000',
        GITBENCH_STALE_AFTER_MS: '600000',
      });
      const ids = ['blame_forensics/f001', 'branch_cleanup/f001', 'git_grep/f001', 'commit_squash/f001'];
      const campaignId = await launch(bed.t.db, queue, fixtures, {
        models: ['oracle', 'mock'],
        outputModes: ['text'],
        trials: 1,
        fixtures: { suiteDir: 'upstream', ids },
      });
      await finished(bed.t.db, campaignId, bed.workers, 120_000);
      const attempts = await expectOneOutcomeEach(bed.t.db, campaignId, 2 * ids.length);
      // Only the attempt whose claim failed was sent twice, and the worker ran it first: before every other.
      const resent = attempts.filter((a) => a.dispatchCount === 2);
      expect(resent, worker!.output.join('').slice(-2000)).toHaveLength(1);
      expect(worker!.output.join('')).toMatch(
        new RegExp(`claiming ${resent[0]!.id} failed \\(.*the database failed this claim.*\\): sent again at once`),
      );
      const tries = await bed.t.db.attemptTry.findMany({
        where: { attempt: { campaignId } },
        orderBy: { startedAt: 'asc' },
      });
      expect(tries).toHaveLength(2 * ids.length);
      expect(tries[0]!.attemptId).toBe(resent[0]!.id);
    } finally {
      await restore();
    }
    await bed.stopAll();
  }, 240_000);

  it(
    "Ctrl-C (SIGINT, then the supervisor's SIGTERM) gives running " +
      'attempts back once, and they are sent again at once, ahead of the rest',
    async () => {
      const { queue, name: queueName } = bed.newQueue('give-back');
      modelDelayMs = 4_000;
      // No reaper re-sends anything during this test: only the give-back itself can.
      const [first] = await startWorkers(1, queueName, {
        GITBENCH_WORKER_CONCURRENCY: '2',
        GITBENCH_REDISPATCH_AFTER_MS: '600000',
        GITBENCH_STALE_AFTER_MS: '600000',
      });
      const ids = ['blame_forensics/f001', 'branch_cleanup/f001', 'git_grep/f001', 'commit_squash/f001'];
      const campaignId = await launch(
        bed.t.db,
        queue,
        fixtures,
        { models: [PAID], outputModes: ['text'], trials: 1, fixtures: { suiteDir: 'upstream', ids } },
        HOSTED,
      );
      await waitFor(
        'two attempts running',
        async () => (await bed.t.db.attempt.count({ where: { campaignId, status: 'RUNNING' } })) === 2,
        60_000,
        50,
      );
      const running = await bed.t.db.attempt.findMany({
        where: { campaignId, status: 'RUNNING' },
        select: { id: true },
      });

      first!.proc.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 100));
      expect(await first!.stop('SIGTERM')).toBe(0);
      const log = first!.output.join('');
      expect(log.match(/stopping intake/g)).toHaveLength(1);
      expect(log).not.toMatch(/exiting now/);
      const given = await bed.t.db.attempt.findMany({
        where: { id: { in: running.map((r) => r.id) } },
        include: { tries: true },
      });
      for (const a of given) {
        expect(a).toMatchObject({ status: 'QUEUED', dispatchCount: 2 });
        expect(a.tries).toMatchObject([
          { status: 'INFRA_FAILURE', errorClass: 'given_back', workerId: workerIdOf(first!) },
        ]);
      }

      modelDelayMs = 0;
      const [second] = await startWorkers(1, queueName, {
        GITBENCH_WORKER_CONCURRENCY: '1',
        GITBENCH_REDISPATCH_AFTER_MS: '600000',
        GITBENCH_STALE_AFTER_MS: '600000',
      });
      await finished(bed.t.db, campaignId, bed.workers, 60_000);
      await expectOneOutcomeEach(bed.t.db, campaignId, ids.length);
      // The given-back attempts were the first two the next worker ran.
      const tries = await bed.t.db.attemptTry.findMany({
        where: { workerId: workerIdOf(second!), attempt: { campaignId } },
        orderBy: { startedAt: 'asc' },
      });
      expect(new Set(tries.slice(0, 2).map((x) => x.attemptId))).toEqual(new Set(running.map((r) => r.id)));
      await bed.stopAll();
    },
    240_000,
  );
});
