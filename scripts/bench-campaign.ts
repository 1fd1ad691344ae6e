/**
 * `npm run bench:campaign -- [<fixtures dir>] [--workers N] [--concurrency N] [--runs N] [--cold-runs N]
 * [--upstream-workers N] [--no-build] [--no-reference]`
 *
 * Runs every fixture of a suite x text and json_schema with the mock model the way a user does: a campaign created over
 * HTTP (POST /api/campaigns on a started `next start`), planned and run by real worker processes over Redis and
 * Postgres, every sandboxed step in Docker. Prints wall time from the POST to the campaign's recorded completion, when
 * its first attempts could start (planning writes each fixture's attempts as its repository is built), and attempts per
 * second. The first run starts from an empty database (cold: every fixture repository is built; the web app has
 * answered one request per route first, see warmUp); later runs reuse the fixture builds of the first (warm), as a team
 * re-running a suite does. `--cold-runs N` repeats the cold run N times, each after the stored builds are deleted, and
 * prints the median of each ratio.
 *
 * Side by side: after each run, upstream's own Python harness (GITBENCH_UPSTREAM_DIR/harness) runs the
 * same fixtures with its mock model in both output modes, on the host without any isolation, and the
 * bench prints both times and their ratio, with the load average of the machine at each. That needs
 * the suite in upstream's layout; the default suite is upstream's sample fixtures. Every timed run,
 * ours or upstream's, starts on a quiet machine (waitForQuiet); where the machine's temporary
 * directory is a disk, upstream also runs with its repositories in memory, and each of its runs gets
 * its own verdict.
 * Last, as a reference, the same fixture repositories are built on the host without any isolation,
 * and the build's time per step is printed (where a build's time goes).
 *
 * BENCH_CPU_PROF=<dir> writes a CPU profile of each worker process there (node --cpu-prof), to see
 * where a worker spends its time.
 *
 * Everything runs in a database and queue of its own (<DATABASE_URL's database>_bench / bench-<pid>),
 * so the figures are not disturbed by, and do not disturb, a running demo or another checkout's bench
 * on the same server (the bench drops and creates its database). The web app listens on PORT when it
 * is set, else on a port picked from the process id.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApiToken, createAuth, createUser } from '@gitbench/auth';
import { createDb } from '@gitbench/db';
import { buildFixtureRepositories, loadSuiteDir } from '@gitbench/engine';
import { DockerSandboxDriver, LocalSandboxDriver, type SandboxDriver } from '@gitbench/sandbox';
import { cpuAccount, cpuSnapshot, cpuTicker, waitForQuiet } from './lib/cpu-account';
import { profilingDriver } from './lib/profile-builds';
import { databaseUrlFor, recreateDatabase } from './lib/bench-database';
import { loadSetUpEnv } from './lib/set-up-env';
import { filesystemOf, isUpstreamLayout, runUpstreamHarness, type UpstreamRun } from './lib/upstream-harness';

loadSetUpEnv();
const ROOT = path.resolve(import.meta.dirname, '..');
const UPSTREAM_DIR = process.env.GITBENCH_UPSTREAM_DIR ?? path.resolve(ROOT, '../shared/gitbench-upstream');
/** The targets the bench is held to, as ratios of our time to upstream's on the same fixtures. */
const TARGETS = { cold: 1.0, warm: 0.6 };

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const suiteDir =
  argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--')) ?? path.join(UPSTREAM_DIR, 'fixtures');
const upstreamWorkers = Number(flag('upstream-workers', '4'));
const workers = Number(flag('workers', '1'));
const concurrency = Number(flag('concurrency', '12'));
const buildConcurrency = flag('build-concurrency', '');
const runs = Number(flag('runs', '2'));
/** Cold runs in a row, each after the stored builds (and the campaigns that used them) are deleted. */
const coldRuns = Math.max(1, Number(flag('cold-runs', '1')));
const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error(
    'GITBENCH_SANDBOX_IMAGE is not set in the environment or .gitbench/env (npm run sandbox:image prints it)',
  );
if (!existsSync(path.resolve(ROOT, suiteDir))) throw new Error(`${suiteDir} is not a directory`);

const baseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const benchDatabase = `${new URL(baseUrl).pathname.slice(1) || 'gitbench'}_bench`;
const databaseUrl = databaseUrlFor(baseUrl, benchDatabase);
const queue = `bench-${process.pid}`;

const children: ChildProcess[] = [];
function start(label: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  // A process group of its own: `npm run start` starts next-server as a grandchild, and stopping must reach it.
  const child = spawn(args[0]!, args.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} not ready after 60 s:\n${log.slice(-2000)}`)), 60_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (ready.test(log)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}:\n${log.slice(-2000)}`)));
  });
}

async function stopAll() {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          const signal = (s: NodeJS.Signals) => {
            try {
              process.kill(-c.pid!, s);
            } catch {
              // already gone
            }
          };
          signal('SIGTERM');
          setTimeout(() => signal('SIGKILL'), 15_000).unref();
        }),
    ),
  );
}

interface CampaignView {
  campaign: { status: string; startedAt: string | null; finishedAt: string | null; createdAt: string };
  progress: { total: number; done: number; byStatus: Record<string, number> };
}

/** The API wants a signed-in caller: a member of the bench's own database, with a token. */
async function benchToken(): Promise<string> {
  const db = createDb({ databaseUrl, maxConnections: 2 });
  try {
    const user = await createUser(createAuth({ db, secretKey: randomBytes(32).toString('base64') }), {
      email: 'bench@gitbench.local',
      name: 'bench',
      password: randomBytes(16).toString('base64url'),
      role: 'member',
    });
    // In-process, as the person the bench signs in as: only a session may mint a token.
    return (
      await createApiToken(db, { id: user.id, role: user.role, via: 'session' }, { name: 'bench', role: 'member' })
    ).token;
  } finally {
    await db.$disconnect();
  }
}

let authorization = '';

async function runOnce(web: string, n: number) {
  const body = {
    name: `bench ${n} ${new Date().toISOString()}`,
    createdBy: 'bench-campaign',
    models: ['mock'],
    outputModes: ['text', 'json_schema'],
    fixtures: { suiteDir },
    trials: 1,
    // A different seed per run: a new configuration, so nothing but the fixture builds is reused.
    seed: n,
  };
  const cpuBefore = cpuSnapshot();
  const ticker = cpuTicker();
  const t0 = Date.now();
  const created = await fetch(`${web}/api/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify(body),
  });
  const createdBody = (await created.json()) as { campaignId?: string; attempts?: number };
  if (created.status !== 201 || !createdBody.campaignId)
    throw new Error(`POST /api/campaigns: ${created.status} ${JSON.stringify(createdBody)}`);
  const id = createdBody.campaignId;
  let view: CampaignView;
  // Watched the way the dashboard does, at its rate (campaign-live.tsx polls every 2 s): polling
  // faster cost the web app more CPU than a viewer ever would, taken from the workers being measured
  // on a CPU-bound machine. The phase boundaries come from the timestamps the campaign records (same
  // host clock), so the figures do not depend on the rate.
  for (;;) {
    const res = await fetch(`${web}/api/campaigns/${id}`, { headers: { authorization } });
    view = (await res.json()) as CampaignView;
    if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(view.campaign.status)) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const cpu = cpuAccount(cpuBefore, cpuSnapshot());
  // Taken once the poll saw the end: the machine's CPU up to the campaign's own finish.
  await new Promise((r) => setTimeout(r, 150));
  ticker.stop();
  if (view.campaign.status !== 'COMPLETED') throw new Error(`campaign ${id} ended ${view.campaign.status}`);
  const startedAt = Date.parse(view.campaign.startedAt ?? '');
  const finishedAt = Date.parse(view.campaign.finishedAt ?? '');
  if (!Number.isFinite(startedAt) || !Number.isFinite(finishedAt))
    throw new Error(`campaign ${id} has no start or finish time`);
  const seconds = (finishedAt - t0) / 1000;
  const toFinish = ticker.until(finishedAt);
  // The campaign starts when planning writes its first fixture's attempts.
  const firstSeconds = (startedAt - t0) / 1000;
  const cpuToFinish = toFinish
    ? `${toFinish.total.toFixed(1)} CPU-s up to the campaign's finish (sandboxes ${toFinish.sandboxes.toFixed(2)})`
    : 'CPU up to the finish unavailable';
  return {
    id,
    seconds,
    firstSeconds,
    attempts: createdBody.attempts ?? view.progress.total,
    progress: view.progress,
    cpu,
    cpuToFinish,
  };
}

/**
 * One request to each route a run uses, answered before anything is timed: `next start` loads a route's
 * code on its first request (0.7 s here), which a deployment that has served anyone has long done.
 * "Cold" is about fixture repositories, not about the web server's first request. The POST is refused
 * (400, an empty body) and creates nothing.
 */
/**
 * Deletes every campaign of the bench's database and every stored build, so the next run builds every fixture again.
 */
async function forgetBuilds() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Snapshots go with their campaigns (cascade); a build is deleted once no snapshot refers to it.
    await client.query('DELETE FROM "Campaign"');
    await client.query('DELETE FROM "FixtureBuild"');
  } finally {
    await client.end();
  }
}

async function warmUp(web: string) {
  const refused = await fetch(`${web}/api/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: '{}',
  });
  if (refused.status !== 400)
    throw new Error(`warm-up POST /api/campaigns with an empty body answered ${refused.status}, not 400`);
  const missing = await fetch(`${web}/api/campaigns/warm-up`, { headers: { authorization } });
  if (missing.status !== 404) throw new Error(`warm-up GET of an unknown campaign answered ${missing.status}, not 404`);
  console.log('web app warmed up: one refused POST and one unknown campaign (not timed)');
}

async function countTries(campaignId: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ attempts: string; finished: string; tries: string; max_tries: number }>(
    `SELECT count(*) AS attempts,
            count(*) FILTER (WHERE "finishedAt" IS NOT NULL) AS finished,
            (SELECT count(*) FROM "AttemptTry" t JOIN "Attempt" a2 ON a2.id = t."attemptId"
              WHERE a2."campaignId" = $1) AS tries,
            max("tryCount") AS max_tries
       FROM "Attempt" WHERE "campaignId" = $1`,
    [campaignId],
  );
  await client.end();
  return rows[0]!;
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
/**
 * Where upstream's harness builds its repositories: the machine's temporary directory as it is (upstream
 * as it runs here, the comparison the targets were set with), and, when that is a disk and /dev/shm is
 * memory, in memory too, as our sandboxes build (tmpfs). On a disk every git write of upstream's
 * builds costs it time that the design of ours avoids; each comparison gets its own verdict.
 */
const upstreamPlaces: { where: string; tmpdir?: string }[] = [
  { where: `${os.tmpdir()} (${filesystemOf(os.tmpdir()) ?? 'filesystem unknown'}, the machine's TMPDIR)` },
];
if (filesystemOf(os.tmpdir()) !== 'tmpfs' && filesystemOf('/dev/shm') === 'tmpfs')
  upstreamPlaces.push({ where: '/dev/shm (tmpfs, TMPDIR=/dev/shm)', tmpdir: '/dev/shm' });
const withUpstream =
  existsSync(path.join(UPSTREAM_DIR, 'harness', 'gitbench')) && isUpstreamLayout(path.resolve(ROOT, suiteDir));

try {
  console.log(
    `suite ${suiteDir}, mock model, text + json_schema, ${workers} ` +
      `worker process(es) x concurrency ${concurrency}, image ${image}`,
  );
  console.log(`machine: ${os.cpus().length} cores, load average ${loadavg()}`);
  console.log(
    withUpstream
      ? `side by side: upstream's harness (${path.join(UPSTREAM_DIR, 'harness')}) ` +
          `with --fixture-workers ${upstreamWorkers}, after each run\n`
      : `no side-by-side run: upstream's harness reads upstream's fixture ` +
          `layout only, or ${path.join(UPSTREAM_DIR, 'harness')} is missing\n`,
  );
  await recreateDatabase(baseUrl, benchDatabase);
  authorization = `Bearer ${await benchToken()}`;
  // Always rebuilt: a stale build would load the suite with an older fixture schema. Not timed.
  if (!argv.includes('--no-build')) {
    console.log('building the web app (not timed)');
    const built = spawnSync('npm', ['run', 'build', '-w', '@gitbench/web', '--silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (built.status !== 0) throw new Error('web build failed');
  }
  const port = process.env.PORT ? Number(process.env.PORT) : 3400 + (process.pid % 500);
  const env = {
    DATABASE_URL: databaseUrl,
    GITBENCH_QUEUE: queue,
    GITBENCH_SANDBOX_IMAGE: image,
    GITBENCH_ROOT: ROOT,
    GITBENCH_SUITES: suiteDir,
    GITBENCH_WORKER_CONCURRENCY: String(concurrency),
    ...(buildConcurrency ? { GITBENCH_BUILD_CONCURRENCY: buildConcurrency } : {}),
    NEXT_TELEMETRY_DISABLED: '1',
    GITBENCH_SECRET_KEY: process.env.GITBENCH_SECRET_KEY ?? randomBytes(32).toString('base64'),
  };
  const web = `http://127.0.0.1:${port}`;
  await Promise.all([
    start(
      'web',
      ['npm', 'run', 'start', '-w', '@gitbench/web', '--', '-p', String(port), '-H', '127.0.0.1'],
      env,
      /Ready in/,
    ),
    ...Array.from({ length: workers }, (_, i) =>
      start(
        `worker ${i + 1}`,
        [
          process.execPath,
          ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
          '--import',
          'tsx',
          'apps/worker/src/main.ts',
        ],
        env,
        /ready:/,
      ),
    ),
  ]);
  await warmUp(web);
  const summary: string[] = [];
  // Per kind of run and place upstream built in: every ratio, for the medians printed last.
  const ratiosOf = new Map<string, number[]>();
  const schedule = [
    ...Array.from({ length: coldRuns }, () => 'cold' as const),
    ...Array.from({ length: Math.max(0, runs - 1) }, () => 'warm' as const),
  ];
  for (let n = 1; n <= schedule.length; n++) {
    const kind = schedule[n - 1]!;
    // A cold run again: nothing stored may be reused, so the earlier campaigns and their builds go.
    if (kind === 'cold' && n > 1) await forgetBuilds();
    const quiet = await waitForQuiet();
    const loadBefore = loadavg();
    const r = await runOnce(web, n);
    const counts = await countTries(r.id);
    const label = kind === 'cold' ? 'cold (every fixture repository built)' : 'warm (fixture builds reused)';
    const statuses = Object.entries(r.progress.byStatus)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `run ${n}, ${label}: ${r.attempts} attempts in ${r.seconds.toFixed(1)} s (first attempts could ` +
        `start after ${r.firstSeconds.toFixed(1)} s); machine ${quiet}, load average ${loadBefore}`,
    );
    console.log(`  ${(r.attempts / r.seconds).toFixed(1)} attempts/s; ${r.cpuToFinish}`);
    console.log(
      `  by process, until the completion was seen (up to 2 s later, ` +
        `idle work such as refilling the sandbox pool included): ${r.cpu}`,
    );
    console.log(
      `  outcomes: ${statuses}; ${counts.finished}/${counts.attempts} ` +
        `finished, ${counts.tries} tries recorded, max tries per attempt ${counts.max_tries}`,
    );
    if (Number(counts.finished) !== r.attempts || Number(counts.tries) !== r.attempts)
      throw new Error('an attempt is missing or was counted twice');
    if (!withUpstream) continue;
    const times: { where: string; seconds: number }[] = [];
    for (const place of upstreamPlaces) {
      // Our workers idle-refill their sandbox pool after a run: upstream starts only once that is done.
      const upQuiet = await waitForQuiet();
      const upLoad = loadavg();
      const upCpu = cpuSnapshot();
      const up: UpstreamRun = await runUpstreamHarness(
        path.join(UPSTREAM_DIR, 'harness'),
        path.resolve(ROOT, suiteDir),
        upstreamWorkers,
        place.tmpdir ? { tmpdir: place.tmpdir } : {},
      );
      const upAccount = cpuAccount(upCpu, cpuSnapshot());
      console.log(
        `  upstream's harness, same fixtures, repositories in ${place.where}: ${up.attempts} attempts ` +
          `in ${up.seconds.toFixed(1)} s (${up.passed} passed); machine ${upQuiet}, load average ${upLoad}`,
      );
      console.log(`    ${upAccount}`);
      if (up.attempts !== r.attempts)
        console.log(`    note: upstream ran ${up.attempts} attempts, we ran ${r.attempts}`);
      times.push({ where: place.where, seconds: up.seconds });
    }
    // A verdict against each of upstream's runs: as the machine runs it (the comparison the target was
    // set with), and, where that is a disk, with its repositories in memory as ours are.
    const target = TARGETS[kind];
    const verdicts = times.map((t) => {
      const ratio = r.seconds / t.seconds;
      const key = `${kind} against upstream under ${t.where}`;
      ratiosOf.set(key, [...(ratiosOf.get(key) ?? []), ratio]);
      return (
        `${ratio.toFixed(2)}x against ${t.seconds.toFixed(1)} s ` +
        `under ${t.where}: ${ratio <= target ? 'met' : 'NOT met'}`
      );
    });
    console.log(`  ratio ${kind} (target <= ${target.toFixed(1)}x): ${verdicts.join('; ')}`);
    summary.push(`${kind}: ours ${r.seconds.toFixed(1)} s (target <= ${target.toFixed(1)}x); ${verdicts.join('; ')}`);
  }
  await stopAll();
  if (!argv.includes('--no-reference')) await referenceBuilds();
  if (summary.length) console.log(`\n${summary.join('\n')}`);
  // One run's ratio moves by a tenth from run to run on a small machine: the median of several says more.
  for (const [what, list] of ratiosOf) {
    if (list.length < 2) continue;
    const sorted = [...list].sort((a, b) => a - b);
    const mid =
      sorted.length % 2
        ? sorted[(sorted.length - 1) / 2]!
        : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    const target = TARGETS[what.startsWith('cold') ? 'cold' : 'warm'];
    console.log(
      `median ratio ${what}: ${mid.toFixed(2)}x over ${list.length} ` +
        `runs (${list.map((x) => x.toFixed(2)).join(', ')}); ` +
        `target <= ${target.toFixed(1)}x: ${mid <= target ? 'met' : 'NOT met'}`,
    );
  }
  console.log(`load average after: ${loadavg()}`);
} finally {
  await stopAll();
}

/**
 * Where a repository build's time goes: the same fixtures built as planning builds them (two
 * sandboxes, many fixtures each), in Docker and on the host without any sandbox (the local driver:
 * fixture set-up scripts only, nothing a model wrote), with the time of each kind of step summed.
 */
async function referenceBuilds() {
  const suite = await loadSuiteDir(path.resolve(ROOT, suiteDir));
  const docker = await new DockerSandboxDriver({ image: image! }).init();
  for (const [name, base] of [
    ['Docker', docker],
    ['host, no isolation', new LocalSandboxDriver({ warn: () => undefined })],
  ] as [string, SandboxDriver][]) {
    const p = profilingDriver(base);
    const t0 = performance.now();
    const outcomes = await buildFixtureRepositories(suite.fixtures, p.driver, { sandboxes: 2 });
    const seconds = (performance.now() - t0) / 1000;
    await base.close();
    const failed = outcomes.filter((o) => o.error).length;
    const steps = [...p.totals]
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([id, t]) => `${id} ${(t.ms / 1000).toFixed(2)} s`)
      .join(', ');
    console.log(
      `\nbuilds, ${name}: ${suite.fixtures.length} fixture repositories (2 sandboxes) ` +
        `in ${seconds.toFixed(1)} s${failed ? ` (${failed} failed)` : ''}; load average ${loadavg()}`,
    );
    const starts =
      p.containerMs.length > 0
        ? `sandbox starts ${p.containerMs.map((m) => `${m.toFixed(0)} ms`).join(', ')}`
        : 'one-shot sandboxes, each started with its batch';
    console.log(`  step time summed over both sandboxes: ${steps}; ${starts}`);
  }
}
