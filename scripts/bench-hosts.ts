/**
 * `npm run bench:hosts -- [<fixtures dir>] [--concurrency N]`
 *
 * Several worker hosts sharing one Redis and one Postgres, each with its own Docker engine, proved and
 * measured on this machine: scripts/hosts.sh makes two "hosts" (network namespaces gbhost1 and gbhost2,
 * reaching Postgres and Redis over a veth pair; host 1 on this machine's Docker engine, host 2 on a
 * second dockerd with its own data root and socket). A warm-up campaign builds the fixture
 * repositories first; then the same campaign (mock and oracle x text and json_schema, new seed each
 * time) runs on one worker on host 1, and then on one worker on each host together. For each run it
 * prints attempts per second from the campaign's first written attempt to its completion, which
 * worker and which engine ran how many attempts, and checks that every attempt has exactly one
 * outcome (one terminal status, one scored try).
 *
 * Runs in a database and queue of its own (gitbench_hosts / hosts-<pid>).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createDb, type Db } from '@gitbench/db';
import { detectProductVersion, loadSuiteDir } from '@gitbench/engine';
import { createQueueClient } from '@gitbench/queue';
import { createCampaign } from '@gitbench/use-cases';
import { recreateDatabase } from './lib/bench-database';
import { loadSetUpEnv } from './lib/set-up-env';

loadSetUpEnv();
const ROOT = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const upstream = process.env.GITBENCH_UPSTREAM_DIR ?? path.resolve(ROOT, '../shared/gitbench-upstream');
const suiteDir = path.resolve(
  ROOT,
  argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--')) ?? path.join(upstream, 'fixtures'),
);
const concurrency = flag('concurrency', '8');
const baseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const queueName = `hosts-${process.pid}`;
const HOSTS = [
  {
    name: 'host 1',
    netns: 'gbhost1',
    services: '10.231.1.1',
    dockerHost: process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock',
  },
  { name: 'host 2', netns: 'gbhost2', services: '10.231.2.1', dockerHost: 'unix:///run/gitbench-host2/docker.sock' },
];
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const up = spawnSync('bash', ['scripts/hosts.sh', 'up'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
if (up.status !== 0) throw new Error('setting up the two hosts failed (scripts/hosts.sh up)');

const databaseUrl = await recreateDatabase(baseUrl, 'gitbench_hosts');
const db = createDb({ databaseUrl, maxConnections: 4 });
const queue = createQueueClient({ redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', queueName });
const suite = await loadSuiteDir(suiteDir);

interface Worker {
  host: (typeof HOSTS)[number];
  proc: ChildProcess;
  id: string;
}
const workers: Worker[] = [];

/** A worker process inside the host's namespace, reaching Postgres and Redis at the host's forwarded address. */
async function startWorker(host: (typeof HOSTS)[number]): Promise<Worker> {
  const hostUrl = (url: string) => {
    const u = new URL(url);
    u.hostname = host.services;
    return u.toString();
  };
  const env = {
    ...process.env,
    DATABASE_URL: hostUrl(databaseUrl),
    REDIS_URL: hostUrl(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    DOCKER_HOST: host.dockerHost,
    GITBENCH_QUEUE: queueName,
    GITBENCH_WORKER_CONCURRENCY: concurrency,
  };
  const proc = spawn(
    'ip',
    ['netns', 'exec', host.netns, process.execPath, '--import', 'tsx', 'apps/worker/src/main.ts'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let log = '';
  const id = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker on ${host.name} not ready in 60 s:\n${log.slice(-2000)}`)),
      60_000,
    );
    const onData = (c: Buffer) => {
      log += c.toString();
      const m = /\[worker ([^\]]+)\] ready/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    proc.once('exit', (code) => reject(new Error(`worker on ${host.name} exited with ${code}:\n${log.slice(-2000)}`)));
  });
  const w = { host, proc, id };
  workers.push(w);
  return w;
}

async function stopWorkers() {
  await Promise.all(
    workers.splice(0).map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.proc.exitCode !== null || w.proc.signalCode !== null) return resolve();
          w.proc.once('exit', () => resolve());
          process.kill(-w.proc.pid!, 'SIGTERM');
          setTimeout(() => {
            try {
              process.kill(-w.proc.pid!, 'SIGKILL');
            } catch {
              // gone
            }
          }, 15_000).unref();
        }),
    ),
  );
}

async function runCampaign(seed: number, timeoutMs = 600_000) {
  const created = await createCampaign(
    {
      db,
      queue,
      loadSuite: async () => ({
        version: suite.version,
        fixtures: suite.fixtures,
        invalid: [],
        ...(suite.modes ? { modes: suite.modes } : {}),
      }),
      profileFor: () => ({ profile: 'builtin' }),
      productVersion: detectProductVersion(process.env, ROOT),
    },
    {
      name: `hosts ${seed}`,
      createdBy: 'bench-hosts',
      models: ['mock', 'oracle'],
      outputModes: ['text', 'json_schema'],
      fixtures: { suiteDir },
      trials: 1,
      seed,
    },
    { userId: null, email: 'bench-hosts@localhost', via: 'cli' },
  );
  if (!created.ok) throw new Error(`campaign rejected: ${JSON.stringify(created.errors)}`);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const c = await db.campaign.findUniqueOrThrow({ where: { id: created.campaignId } });
    if (c.status === 'COMPLETED')
      return {
        id: c.id,
        attempts: created.attempts,
        seconds: (c.finishedAt!.getTime() - c.startedAt!.getTime()) / 1000,
      };
    if (['FAILED', 'CANCELLED'].includes(c.status))
      throw new Error(`campaign ${c.id} ended ${c.status}: ${c.statusDetail}`);
    if (Date.now() > until) throw new Error(`campaign ${c.id} did not complete in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Exactly one outcome per attempt, and who ran them: tries per worker (so per host and engine). */
async function outcomes(database: Db, campaignId: string) {
  const [row] = await database.$queryRaw<{ attempts: bigint; terminal: bigint; scored_once: bigint; tries: bigint }[]>`
    SELECT count(*) AS attempts,
           count(*) FILTER (WHERE a.status NOT IN ('QUEUED', 'RUNNING')) AS terminal,
           count(*) FILTER (WHERE (SELECT count(*) FROM "AttemptTry" t WHERE t."attemptId" = a.id
             AND t.status = a.status) = 1) AS scored_once,
           (SELECT count(*) FROM "AttemptTry" t JOIN "Attempt" b ON b.id = t."attemptId"
             WHERE b."campaignId" = ${campaignId}) AS tries
      FROM "Attempt" a WHERE a."campaignId" = ${campaignId}`;
  const perWorker = await database.$queryRaw<{ workerId: string; tries: bigint }[]>`
    SELECT t."workerId", count(*) AS tries FROM "AttemptTry" t JOIN "Attempt" a ON a.id = t."attemptId"
     WHERE a."campaignId" = ${campaignId} GROUP BY t."workerId"`;
  return { ...row!, perWorker };
}

try {
  console.log(
    `suite ${suiteDir}: ${suite.fixtures.length} fixtures; mock + ` +
      `oracle x text + json_schema; worker concurrency ${concurrency}`,
  );
  console.log(`machine: ${os.cpus().length} cores, load average ${loadavg()}\n`);
  await startWorker(HOSTS[0]!);
  const warm = await runCampaign(1);
  console.log(
    `warm-up (fixture repositories built on host 1): ${warm.attempts} attempts in ${warm.seconds.toFixed(1)} s`,
  );
  const results: { label: string; rate: number }[] = [];
  for (const [label, hosts] of [
    ['one worker (host 1)', [HOSTS[0]!]],
    ['two workers (host 1 + host 2)', HOSTS],
  ] as const) {
    for (const h of hosts) if (!workers.some((w) => w.host === h)) await startWorker(h);
    const load = loadavg();
    const r = await runCampaign(results.length + 2);
    const o = await outcomes(db, r.id);
    const rate = r.attempts / r.seconds;
    results.push({ label, rate });
    const who = o.perWorker
      .map((p) => `${workers.find((w) => w.id === p.workerId)?.host.name ?? p.workerId}: ${p.tries}`)
      .join(', ');
    console.log(
      `${label}: ${r.attempts} attempts in ${r.seconds.toFixed(1)} ` +
        `s = ${rate.toFixed(1)} attempts/s; load average before ${load}`,
    );
    console.log(
      `  tries per host: ${who}; ${o.terminal}/${o.attempts} attempts ` +
        `ended, ${o.scored_once} with exactly one try of their outcome, ${o.tries} tries in all`,
    );
    if (Number(o.terminal) !== r.attempts || Number(o.scored_once) !== r.attempts)
      throw new Error('an attempt has no outcome or more than one');
  }
  console.log(
    `\nthroughput, two hosts against one worker: ${(results[1]!.rate / results[0]!.rate).toFixed(2)}x ` +
      `(${results[1]!.rate.toFixed(1)} vs ${results[0]!.rate.toFixed(1)} attempts/s)`,
  );
  console.log(`load average after: ${loadavg()}`);
} finally {
  await stopWorkers();
  await queue.close();
  await db.$disconnect();
}
