/**
 * `npm run bench:agent`: what agent mode costs on this machine.
 *
 *   1. The overhead of one tool call in a warm sandbox session (p50, p95), beside one `docker exec` of
 *      the same command in the same container (the CLI, and the Engine API call the one-shot path
 *      makes), and their ratio. Overhead is the host's wall time of the call minus the command's own
 *      run time as the runner measured it. Then a step's sandbox work through the agent runtime (bash
 *      `git status --short` and the repository-state read after it, which the runner answers from its
 *      last read when the repository has not changed), beside the same with every read in full and
 *      with the engine's script, timed in turn; a step that changes the repository (`echo x >> f2.txt`),
 *      memo and full read in turn; and what runAgent waits on per step besides the model (the read
 *      overlaps the model's turn), with a model that answers in 0 ms and 50 ms.
 *   2. The oracle agent's attempts per second over our suite (fixtures/), through the engine's own
 *      executeAttempt in agent mode, fixture repositories built first (not timed).
 *   3. How many agent sandboxes one worker holds at once: sessions opened in steps, each with a
 *      fixture repository restored and a command run, every one still answering, and the memory each
 *      takes (the container's cgroup, page cache included, as `docker stats` counts it).
 *
 *   4. Each third-party agent (Claude Code, Codex CLI, pi, opencode) with its pinned version: its start
 *      from container to agent ready (first request at the model gateway), p50 and p95; the memory of a
 *      running agent sandbox; how many one worker holds by memory (scripts/lib/bench-third-party.ts).
 *
 *   npm run bench:agent -- [--calls N] [--workers N] [--max-sessions N] [--step N] [--fixtures <dir>]
 *                          [--agent-runs N] [--agents claude-code,codex]
 *                          [--skip docker-exec,oracle,held,third-party] [--baseline-image <tag>]
 *
 *   --baseline-image: a step's sandbox work is also timed in a session of that sandbox image (another
 *   runner's), in turn with this one's, so a change of the runner is measured before and after under
 *   the same load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { bashTool, DEFAULT_AGENT_CONFIG } from '@gitbench/core';
import {
  buildFixtureRepositories,
  buildFixtureRepository,
  executeAttempt,
  loadSuiteDir,
  mapPool,
  repoStateReader,
  sessionRepoStateReader,
  sessionToolContext,
  type RepoStateReader,
} from '@gitbench/engine';
import { DockerSandboxDriver, type Sandbox } from '@gitbench/sandbox';
import { loopWaitPerStep } from './lib/bench-loop-wait';
import { benchThirdPartyAgents } from './lib/bench-third-party';
import { loadSetUpEnv } from './lib/set-up-env';

loadSetUpEnv();
const ROOT = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const CALLS = Number(flag('calls', '300'));
const MAX_SESSIONS = Number(flag('max-sessions', '48'));
const STEP = Number(flag('step', '8'));
const SUITE_DIR = path.resolve(ROOT, flag('fixtures', 'fixtures'));
const WORKERS = Number(flag('workers', String(os.cpus().length)));
const SKIP = new Set(flag('skip', '').split(',').filter(Boolean));
const BASELINE_IMAGE = flag('baseline-image', '');
// The command of a typical tool call, and the cheapest one (whose time is nearly all overhead).
const COMMANDS = ['true', 'git status --short'];

const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error(
    'GITBENCH_SANDBOX_IMAGE is not set in the environment or .gitbench/env (npm run sandbox:image prints it)',
  );
const labels = { 'org.gitbench.bench': `agent-${process.pid}` };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const ms = (v: number) => `${v.toFixed(1).padStart(7)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A small repository with some history in the session's workdir, so `git status` has something to read. */
async function seedRepository(session: Sandbox): Promise<void> {
  const r = await session.exec(
    'git init -q -b main repo && cd repo && for i in $(seq 1 ' +
      '40); do echo "line $i" > "f$i.txt"; done && git add . && ' +
      'git -c user.name=b -c user.email=b@b commit -qm base && echo change >> f1.txt',
  );
  if (r.exitCode !== 0) throw new Error(`seeding the bench repository failed: ${r.stderr}`);
}

/** `docker exec <container> bash -c <command>` through the CLI, as a person would run it. */
function dockerCli(containerId: string, command: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    // As the sandbox's uid, as the session runs its commands (the container itself starts as root).
    const p = spawn('docker', ['exec', '-u', '10001:10001', '-w', '/work/repo', containerId, 'bash', '-c', command], {
      stdio: 'ignore',
    });
    p.once('error', reject);
    p.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`docker exec exited ${code}`)),
    );
  });
}

/** One exec through the Engine API (create, start with a hijacked stream, inspect): the one-shot path's call. */
async function dockerApi(docker: Docker, containerId: string, command: string): Promise<number> {
  const t0 = performance.now();
  const exec = await docker.getContainer(containerId).exec({
    Cmd: ['bash', '-c', command],
    User: '10001:10001',
    WorkingDir: '/work/repo',
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
  });
  const info = await exec.inspect();
  if (info.ExitCode !== 0) throw new Error(`exec exited ${info.ExitCode}`);
  return performance.now() - t0;
}

async function toolCallOverhead(driver: DockerSandboxDriver, baseline: DockerSandboxDriver | null): Promise<void> {
  console.log(`\n## 1. One tool call in a warm sandbox session (${CALLS} calls per row)\n`);
  const session = await driver.create({ labels });
  try {
    await seedRepository(session);
    for (const command of COMMANDS) {
      for (let i = 0; i < 20; i++) await session.exec(command, { cwd: 'repo' }); // warm-up
      const wall: number[] = [];
      const overhead: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        const r = await session.exec(command, { cwd: 'repo', timeoutMs: 30_000, maxOutputBytes: 16_384 });
        const elapsed = performance.now() - t0;
        if (r.exitCode !== 0) throw new Error(`${command} exited ${r.exitCode}: ${r.stderr}`);
        wall.push(elapsed);
        overhead.push(Math.max(0, elapsed - r.durationMs));
      }
      console.log(`\`${command}\``);
      console.log(
        `  session call, wall                 p50 ${ms(percentile(wall, 50))}   p95 ${ms(percentile(wall, 95))}`,
      );
      console.log(
        `  session call, overhead             p50 ${ms(percentile(overhead, 50))}   ` +
          `p95 ${ms(percentile(overhead, 95))}   (target p50 ≤ 15 ` +
          `ms: ${percentile(overhead, 50) <= 15 ? 'met' : 'NOT met'})`,
      );
      if (SKIP.has('docker-exec')) {
        console.log('');
        continue;
      }
      const cliRuns = Math.min(CALLS, 60);
      const cli: number[] = [];
      const api: number[] = [];
      for (let i = 0; i < 3; i++) await dockerCli(session.id, command);
      for (let i = 0; i < cliRuns; i++) cli.push(await dockerCli(session.id, command));
      for (let i = 0; i < 3; i++) await dockerApi(driver.docker, session.id, command);
      for (let i = 0; i < cliRuns; i++) api.push(await dockerApi(driver.docker, session.id, command));
      console.log(
        `  docker exec (CLI), wall            p50 ${ms(percentile(cli, 50))}   ` +
          `p95 ${ms(percentile(cli, 95))}   (${cliRuns} runs)`,
      );
      console.log(
        `  docker exec (Engine API), wall     p50 ${ms(percentile(api, 50))}   ` +
          `p95 ${ms(percentile(api, 95))}   (${cliRuns} runs)`,
      );
      console.log(
        `  ratio docker exec / session call   CLI p50 ${(percentile(cli, 50) / percentile(wall, 50)).toFixed(1)}x   ` +
          `Engine API p50 ${(percentile(api, 50) / percentile(wall, 50)).toFixed(1)}x\n`,
      );
    }
    const other = await driver.create({ labels });
    const before = baseline && (await baseline.create({ labels }));
    try {
      await seedRepository(other);
      if (before) await seedRepository(before);
      await agentStep(session, other, before);
    } finally {
      await other.cleanup();
      await before?.cleanup();
    }
  } finally {
    await session.cleanup();
  }
}

/** Times `fn` CALLS times after a warm-up. */
async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Times each of `fns` CALLS times after a warm-up, one after the other, so a passing load weighs on all alike. */
async function timedInTurn(fns: (() => Promise<unknown>)[]): Promise<number[][]> {
  for (let i = 0; i < 20; i++) for (const fn of fns) await fn();
  const times: number[][] = fns.map(() => []);
  for (let i = 0; i < CALLS; i++) {
    for (const [k, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn();
      times[k]!.push(performance.now() - t0);
    }
  }
  return times;
}

/**
 * What the loop adds around the session: the bash tool (arguments, git's environment, head and tail
 * capping) through the engine's tool context, and a whole step's sandbox work, the tool call plus
 * the read of the repository's state the trajectory records after it (HEAD, status, refs, diff): for a
 * step that only reads, which the runner answers from its last read of the unchanged repository
 * (runner/repo_memo.py), and for one that changes the repository, read in full.
 */
async function agentStep(session: Sandbox, other: Sandbox, baseline: Sandbox | null): Promise<void> {
  const limits = DEFAULT_AGENT_CONFIG.limits;
  const ctx = sessionToolContext({ session, repoDir: 'repo', limits });
  const tool = await timed(async () => {
    const r = await bashTool.run({ command: 'true' }, ctx);
    if (r.isError) throw new Error(r.output);
  });
  // The state read as the loop makes it (the session's runner, from its memo where nothing changed), in
  // full, and as it was made before the runner read it (the engine's script, run as a command). The last
  // two run in another session with the same repository: a full read rewrites the read's own directory,
  // which the memo's fingerprint covers, so in one session they would leave the memo nothing to answer.
  const otherCtx = sessionToolContext({ session: other, repoDir: 'repo', limits });
  const readers = {
    runner: sessionRepoStateReader(session, ctx.repoDir, ctx),
    full: sessionRepoStateReader(other, otherCtx.repoDir, otherCtx, { fullRead: true }),
    script: repoStateReader({ exec: (command, options) => otherCtx.exec(command, options) }),
  };
  const stepWith =
    (reader: RepoStateReader, toolCtx = ctx, command = 'git status --short') =>
    async () => {
      await bashTool.run({ command }, toolCtx);
      if (!(await reader.read())) throw new Error('the repository state could not be read');
    };
  const before = baseline && sessionToolContext({ session: baseline, repoDir: 'repo', limits });
  const [step = [], stepFull = [], stepScript = [], stepBefore] = await timedInTurn([
    stepWith(readers.runner),
    stepWith(readers.full, otherCtx),
    stepWith(readers.script, otherCtx),
    ...(baseline && before ? [stepWith(sessionRepoStateReader(baseline, before.repoDir, before), before)] : []),
  ]);
  const change = 'echo x >> f2.txt';
  const [changing = [], changingFull = []] = await timedInTurn([
    stepWith(readers.runner, ctx, change),
    stepWith(readers.full, otherCtx, change),
  ]);
  const ratio = (a: number[], b: number[]) => `ratio p50 ${(percentile(a, 50) / percentile(b, 50)).toFixed(2)}x`;
  const row = (title: string, times: number[]) =>
    `  ${title.padEnd(34)} p50 ${ms(percentile(times, 50))}   p95 ${ms(percentile(times, 95))}   `;
  console.log('through the agent runtime (no model)');
  console.log(row('bash tool `true`, wall', tool));
  console.log(
    row("a step's sandbox work, wall", step) +
      `(bash \`git status --short\` + the repository state read after it, answered from the runner's last ` +
      `read of the unchanged repository; target p50 ≤ 10 ms: ${percentile(step, 50) <= 10 ? 'met' : 'NOT met'})`,
  );
  console.log(row('  the same, every read in full', stepFull) + `(${ratio(stepFull, step)})`);
  console.log(
    row('  the same, state read by script', stepScript) + `(as before the runner read it: ${ratio(stepScript, step)})`,
  );
  if (stepBefore)
    console.log(row(`  the same, runner of ${BASELINE_IMAGE}`, stepBefore) + `(${ratio(stepBefore, step)})`);
  console.log(
    row('a step that changes the repository', changing) +
      `(bash \`${change}\` + the read, which is then a full one, after the memo's look)`,
  );
  console.log(row('  the same, every read in full', changingFull) + `(${ratio(changingFull, changing)})`);
  // The loop reads a step's state while the model answers the next turn: what it waits on per step.
  for (const modelMs of [0, 50]) {
    const wait = await loopWaitPerStep(ctx, sessionRepoStateReader(session, ctx.repoDir, ctx), modelMs, CALLS);
    console.log(
      `  the loop's wait per step, model ${String(modelMs).padStart(2)} ms   p50 ${ms(percentile(wait, 50))}   ` +
        `p95 ${ms(percentile(wait, 95))}   (runAgent: model answered to next model call; the same step, ` +
        `the state read overlapping the model's turn)`,
    );
  }
}

/**
 * The oracle agent over every non-judge fixture of the suite, through executeAttempt in agent mode
 * (session, restore, the loop with its tool calls and repository reads, the fixture's own scorer),
 * WORKERS attempts at once as a worker's concurrency would run them. Repositories are built first.
 */
async function oracleThroughput(driver: DockerSandboxDriver): Promise<void> {
  const suite = await loadSuiteDir(SUITE_DIR);
  const fixtures = suite.fixtures.filter((f) => f.scoring.type !== 'llm_judge');
  console.log(
    `\n## 2. The oracle agent over ${path.relative(ROOT, SUITE_DIR) || '.'} ` +
      `(${fixtures.length} non-judge fixtures, ${WORKERS} at once)\n`,
  );
  const b0 = performance.now();
  const builds = await buildFixtureRepositories(fixtures, driver, { sandboxes: WORKERS, labels });
  const built = builds.filter((b) => b.snapshot);
  console.log(
    `repositories built in ${((performance.now() - b0) / 1000).toFixed(1)} ` +
      `s (not timed below); ${builds.length - built.length} failed to build`,
  );
  const oracle = {
    name: 'oracle',
    complete: () => Promise.reject(new Error('the oracle agent answers through its tools')),
  };
  const t0 = performance.now();
  const runs = await mapPool(built, WORKERS, async ({ fixture, snapshot }) => {
    const a0 = performance.now();
    const run = await executeAttempt({
      fixture,
      snapshot: snapshot!,
      driver,
      model: oracle,
      modelName: 'oracle',
      mode: 'agent',
      labels,
    });
    return { fixture, run, ms: performance.now() - a0 };
  });
  const seconds = (performance.now() - t0) / 1000;
  const passed = runs.filter((r) => r.run.passed === true);
  const steps = runs.map((r) => r.run.agent?.steps.length ?? 0);
  const attemptMs = runs.map((r) => r.ms);
  console.log(`${runs.length} attempts in ${seconds.toFixed(1)} s: ${(runs.length / seconds).toFixed(2)} attempts/s`);
  console.log(
    `one attempt p50 ${ms(percentile(attemptMs, 50))}   p95 ${ms(percentile(attemptMs, 95))}; ` +
      `steps per attempt p50 ${percentile(steps, 50)}, max ${Math.max(...steps)}`,
  );
  console.log(`passed ${passed.length} of ${runs.length}`);
  for (const r of runs.filter((x) => x.run.passed !== true).slice(0, 10)) {
    console.log(
      `  not passed: ${r.fixture.domain}/${r.fixture.id} ` +
        `(${r.fixture.scoring.type}): ${r.run.status} ${r.run.errorClass ?? ''} ` +
        (r.run.errorMessage ?? r.run.agent?.summary.exitStatus ?? '').slice(0, 160),
    );
  }
}

/** The container's memory as `docker stats` shows it: usage without inactive file pages (cgroup v1 and v2). */
async function containerMemory(docker: Docker, id: string): Promise<{ usage: number; withCache: number }> {
  const s = (await docker.getContainer(id).stats({ stream: false })) as unknown as {
    memory_stats: { usage?: number; stats?: Record<string, number> };
  };
  const usage = s.memory_stats.usage ?? 0;
  const st = s.memory_stats.stats ?? {};
  const inactive = st.total_inactive_file ?? st.inactive_file ?? 0;
  return { usage: usage - inactive, withCache: usage };
}

/** Resident memory (bytes) of the host processes that keep containers: one shim per container, and the daemons. */
function hostProcessMemory(): { shims: number; shimCount: number; daemons: number } {
  const out = spawnSync('ps', ['-eo', 'rss=,comm='], { encoding: 'utf8' }).stdout;
  let shims = 0;
  let shimCount = 0;
  let daemons = 0;
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)/.exec(line);
    if (!m) continue;
    const rss = Number(m[1]) * 1024;
    if (m[2]!.startsWith('containerd-shim')) {
      shims += rss;
      shimCount++;
    } else if (m[2] === 'dockerd' || m[2] === 'containerd') daemons += rss;
  }
  return { shims, shimCount, daemons };
}

async function sandboxesHeld(driver: DockerSandboxDriver): Promise<void> {
  console.log(`\n## 3. Agent sandboxes held at once (steps of ${STEP}, up to ${MAX_SESSIONS})\n`);
  const suite = await loadSuiteDir(SUITE_DIR);
  const fixture = suite.fixtures.find((f) => f.scoring.type === 'state_assertions') ?? suite.fixtures[0];
  if (!fixture) throw new Error(`no fixture in ${SUITE_DIR}`);
  const snapshot = await buildFixtureRepository(fixture, driver);
  console.log(
    `each session: the repository of ${fixture.domain}/${fixture.id} restored ` +
      `(${mb(snapshot.tar.length)} archive), then git status and git log run in it`,
  );
  const hostBefore = hostProcessMemory();
  const rssBefore = process.memoryUsage().rss;
  const sessions: Sandbox[] = [];
  const rows: {
    n: number;
    openMs: number;
    callP50: number;
    perSession: number;
    perSessionCache: number;
    shim: number;
    daemons: number;
    worker: number;
  }[] = [];
  let stopped = '';
  try {
    while (sessions.length < MAX_SESSIONS) {
      const t0 = performance.now();
      let opened: Sandbox[];
      try {
        opened = await Promise.all(
          Array.from({ length: Math.min(STEP, MAX_SESSIONS - sessions.length) }, async () => {
            const s = await driver.create({ labels });
            sessions.push(s);
            await s.restore(snapshot.tar);
            const r = await s.exec(`git status --short && git log --oneline | wc -l`, { cwd: snapshot.repoDir });
            if (r.exitCode !== 0) throw new Error(`a held session failed its command: ${r.stderr}`);
            return s;
          }),
        );
      } catch (err) {
        stopped = `opening more failed at ${sessions.length}: ${(err as Error).message}`;
        break;
      }
      const openMs = (performance.now() - t0) / opened.length;
      // Every session held so far still answers; the time of one call with all of them open.
      const calls: number[] = [];
      for (const s of sessions) {
        const c0 = performance.now();
        const r = await s.exec('true');
        if (r.exitCode !== 0) throw new Error('a held session stopped answering');
        calls.push(performance.now() - c0);
      }
      const mem = await Promise.all(sessions.map((s) => containerMemory(driver.docker, s.id)));
      const host = hostProcessMemory();
      rows.push({
        n: sessions.length,
        openMs,
        callP50: percentile(calls, 50),
        perSession: mem.reduce((a, m) => a + m.usage, 0) / mem.length,
        perSessionCache: mem.reduce((a, m) => a + m.withCache, 0) / mem.length,
        // Per container: its shim, and its share of what the daemons grew by since the first was opened.
        shim: (host.shims - hostBefore.shims) / Math.max(1, host.shimCount - hostBefore.shimCount),
        daemons: (host.daemons - hostBefore.daemons) / sessions.length,
        // What holding them costs this process (the worker's side: streams, buffers).
        worker: (process.memoryUsage().rss - rssBefore) / sessions.length,
      });
      const r = rows.at(-1)!;
      console.log(
        `${String(r.n).padStart(4)} sessions   open+restore ${ms(r.openMs)} ` +
          `each   a call with all open p50 ${ms(r.callP50)}   ` +
          `memory per session: in its cgroup ${mb(r.perSession)} (${mb(r.perSessionCache)} with page ` +
          `cache), its shim ${mb(r.shim)}, daemons' growth ${mb(r.daemons)}, this process ${mb(r.worker)}`,
      );
    }
  } finally {
    const t0 = performance.now();
    await Promise.all(sessions.map((s) => s.cleanup()));
    console.log(`closed ${sessions.length} sessions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (stopped) console.log(stopped);
  const last = rows.at(-1);
  if (!last) return;
  const available = os.totalmem();
  const each = last.perSession + last.shim + Math.max(0, last.daemons) + Math.max(0, last.worker);
  const limit =
    Number(
      /memoryBytes: (\d+) \* 1024 \* 1024/.exec(
        readFileSync(path.join(ROOT, 'packages/sandbox/src/docker-driver.ts'), 'utf8'),
      )?.[1] ?? 512,
    ) *
    1024 *
    1024;
  console.log(
    `\n${last.n} sessions held at once, every one answering (${os.cpus().length} cores, ${mb(available)} memory).` +
      `\nIdle, each takes ${mb(each)} of host memory (cgroup, shim, daemons' and this ` +
      `process's share): memory alone would allow about ${Math.floor(available / each)}.` +
      `\nEach may grow to its ${mb(limit)} limit (repository tmpfs included): at ` +
      `the limit ${Math.floor(available / limit)} fit without overcommitting memory.` +
      `\nCPU, not memory, bounds how many do work at once: each sandbox is allowed one core of ${os.cpus().length}.`,
  );
}

const driver = await new DockerSandboxDriver({ image, labels }).init();
const baseline = BASELINE_IMAGE ? await new DockerSandboxDriver({ image: BASELINE_IMAGE, labels }).init() : null;
console.log(`image ${image}, ${os.cpus().length} cores, ${mb(os.totalmem())}`);
try {
  await toolCallOverhead(driver, baseline);
  if (!SKIP.has('oracle')) await oracleThroughput(driver);
  if (!SKIP.has('held')) await sandboxesHeld(driver);
  if (!SKIP.has('third-party')) {
    const agents = flag('agents', '').split(',').filter(Boolean);
    await benchThirdPartyAgents({
      sandboxImage: image,
      stateDir: process.env.GITBENCH_STATE_DIR ?? path.join(ROOT, '.gitbench'),
      labels,
      runs: Number(flag('agent-runs', '5')),
      ...(agents.length ? { agents } : {}),
    });
  }
} finally {
  await baseline?.close();
  await driver.close();
  await driver.removeByLabels(labels);
}
