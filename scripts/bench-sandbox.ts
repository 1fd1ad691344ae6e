/**
 * `npm run bench:sandbox`: the cost of isolation for one state-assertion attempt. Measures the whole
 * sandbox lifecycle (create, restore the fixture repository, run the answer, run the assertions'
 * probes, destroy) with the Docker driver, cold and with pre-started containers, and the same work
 * in a bare host temporary directory (the local driver), then prints p50, p95 and their ratio.
 *
 *   npm run bench:sandbox -- [--iterations N] [--fixture <domain/id>] [--fixtures <dir>]
 *
 * `--suite-cpu [--rounds N]`: the CPU time of every sandboxed fixture of the suite instead, its
 * expected answer run N times (default 2) in a container created per attempt and in pre-started
 * ones, and of building the fixtures' repositories (see lib/attempt-cpu.ts for what is counted). CPU
 * time, not wall time: two checkouts compare alike on a machine other processes keep busy.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getScorer, parseSuite, type Fixture } from '@gitbench/core';
import {
  buildFixtureRepositories,
  buildFixtureRepository,
  executePlan,
  loadSuiteDir,
  type FixtureSnapshot,
} from '@gitbench/engine';
import { DockerSandboxDriver, LocalSandboxDriver, type SandboxDriver } from '@gitbench/sandbox';
import { loadSetUpEnv } from './lib/set-up-env';
import { countingDocker, cpuCounters, cpuSince, perAttempt } from './lib/attempt-cpu';

loadSetUpEnv();

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const iterations = Number(opt('iterations', '40'));
const fixtureKey = opt('fixture', 'git_clean/f001');
const suiteDir = opt(
  'fixtures',
  join(process.env.GITBENCH_UPSTREAM_DIR ?? join(import.meta.dirname, '../../shared/gitbench-upstream'), 'fixtures'),
);

async function loadFixture(): Promise<Fixture> {
  const path = `${fixtureKey}.yaml`;
  const { fixtures, errors } = parseSuite([{ path, text: await readFile(join(suiteDir, path), 'utf8') }]);
  if (!fixtures[0]) throw new Error(`cannot load ${path}: ${JSON.stringify(errors)}`);
  return fixtures[0];
}

/** One attempt's sandbox lifecycle; throws when the answer does not pass, so a broken run is not timed. */
async function attempt(driver: SandboxDriver, fixture: Fixture, snapshot: FixtureSnapshot): Promise<number> {
  const scorer = getScorer(fixture.scoring.type);
  const started = performance.now();
  const plan = scorer.plan(fixture, fixture.expected);
  if (!plan) throw new Error('the benchmark fixture must need a sandbox');
  const run = await executePlan(plan, driver, snapshot);
  const verdict = scorer.score({ fixture, output: fixture.expected, evidence: run.evidence });
  if (!verdict.passed) throw new Error(`expected answer failed: ${JSON.stringify(verdict.checks)}`);
  return performance.now() - started;
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

async function measure(label: string, driver: SandboxDriver, fixture: Fixture, snapshot: FixtureSnapshot, pause = 0) {
  for (let i = 0; i < 3; i++) await attempt(driver, fixture, snapshot); // warm-up
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    // With pre-started containers the pool refills between attempts, as it does between a worker's jobs.
    if (pause) await new Promise((r) => setTimeout(r, pause));
    times.push(await attempt(driver, fixture, snapshot));
  }
  times.sort((a, b) => a - b);
  const row = { label, p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(
    `${label.padEnd(44)} p50 ${row.p50.toFixed(1).padStart(7)} ms   p95 ${row.p95.toFixed(1).padStart(7)} ms`,
  );
  return row;
}

const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error(
    'GITBENCH_SANDBOX_IMAGE is not set in the environment or .gitbench/env (npm run sandbox:image prints it)',
  );

/** Every sandboxed fixture's expected answer, `rounds` times per driver kind, counted in CPU time. */
async function suiteCpu(dockerImage: string): Promise<void> {
  const rounds = Number(opt('rounds', '2'));
  const suite = await loadSuiteDir(suiteDir);
  const tasks = suite.fixtures.flatMap((f) => {
    const plan = getScorer(f.scoring.type).plan(f, f.expected);
    return plan ? [{ fixture: f, plan }] : [];
  });
  const cgroupParent = `/gitbench-bench-${process.pid}`;
  const { docker, requests } = countingDocker(cgroupParent);
  const counters = () => cpuCounters(cgroupParent, requests);
  const labels = { 'org.gitbench.bench': String(process.pid) };
  console.log(
    `${tasks.length} sandboxed fixtures of ${suiteDir}, ${rounds} ` +
      `round(s), image ${dockerImage}, cgroup ${cgroupParent}\n`,
  );
  const cold = await new DockerSandboxDriver({ image: dockerImage, docker, labels }).init();
  const warm = await new DockerSandboxDriver({
    image: dockerImage,
    docker,
    labels,
    prestart: 2,
    spareCpu: () => true,
  }).init();
  try {
    let before = counters();
    const built = await buildFixtureRepositories(
      tasks.map((t) => t.fixture),
      cold,
    );
    console.log(
      `builds: ${perAttempt(cpuSince(before, counters()), tasks.length).replace(/per attempt/, 'per fixture')}`,
    );
    const failed = built.flatMap((b, i) =>
      b.error ? [`${tasks[i]!.fixture.domain}/${tasks[i]!.fixture.id}: ${b.error.message}`] : [],
    );
    if (failed.length > 0) throw new Error(`builds failed: ${failed.join('; ')}`);
    for (const [label, driver] of [
      ['container created per attempt', cold],
      ['pre-started container per attempt', warm],
    ] as const) {
      before = counters();
      const started = performance.now();
      let passed = 0;
      for (let r = 0; r < rounds; r++) {
        for (const [i, { fixture, plan }] of tasks.entries()) {
          const run = await executePlan(plan, driver, built[i]!.snapshot!);
          const verdict = getScorer(fixture.scoring.type).score({
            fixture,
            output: fixture.expected,
            evidence: run.evidence,
          });
          // Some expected answers are not literal (a reflog selector described in words): counted, not required.
          if (verdict.passed) passed++;
        }
      }
      const attempts = rounds * tasks.length;
      console.log(
        `${label}: ${perAttempt(cpuSince(before, counters()), attempts)}; ` +
          `wall ${((performance.now() - started) / attempts).toFixed(0)} ms per attempt; ${passed}/${attempts} passed`,
      );
    }
  } finally {
    await Promise.all([cold.close(), warm.close()]);
  }
}

if (args.includes('--suite-cpu')) {
  await suiteCpu(image);
  process.exit(0);
}

const fixture = await loadFixture();
console.log(`fixture ${fixtureKey} (${fixture.scoring.type}), ${iterations} attempts per row, image ${image}\n`);

const local = new LocalSandboxDriver({ warn: () => undefined });
const cold = await new DockerSandboxDriver({ image, labels: { 'org.gitbench.bench': String(process.pid) } }).init();
const warm = await new DockerSandboxDriver({
  image,
  labels: { 'org.gitbench.bench': String(process.pid) },
  prestart: 2,
}).init();
try {
  const localSnapshot = await buildFixtureRepository(fixture, local);
  const dockerSnapshot = await buildFixtureRepository(fixture, cold);
  const host = await measure('host temp dir (local driver, no isolation)', local, fixture, localSnapshot);
  const c = await measure('docker, container created per attempt', cold, fixture, dockerSnapshot);
  const w = await measure('docker, pre-started container per attempt', warm, fixture, dockerSnapshot, 400);
  console.log('');
  for (const row of [c, w]) {
    console.log(
      `ratio ${row.label.padEnd(40)} p50 ${(row.p50 / host.p50).toFixed(2)}x   ` +
        `p95 ${(row.p95 / host.p95).toFixed(2)}x   (target ≤ 1.5)`,
    );
  }
  console.log('\nPre-started containers are single-use: each is created fresh, used by one attempt and removed.');
} finally {
  await Promise.all([local.close(), cold.close(), warm.close()]);
}
