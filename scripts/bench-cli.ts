/**
 * `npm run bench:cli`: what one `gitbench campaign status <id>` costs, start to exit, as a script
 * polling the CLI pays it: wall time and CPU time (the child's user + system, from Linux's counters)
 * of the compiled CLI (apps/cli/dist, what the `gitbench` bin runs) beside the same command run from
 * its TypeScript sources through tsx (GITBENCH_CLI_FROM_SOURCE=1). The campaign is an upstream result
 * file imported as a legacy campaign (68 attempts) in a database schema of the bench's own.
 *
 * With --baseline DIR, a build of another revision (a copy of its apps/cli/dist, placed beside this one
 * so that its paths resolve) runs in the same rounds: each round runs every build once, in turn, so a
 * load that comes and goes weighs on both alike.
 *
 *   npm run bench:cli -- [--runs N] [--source-runs N] [--baseline apps/cli/dist-before]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@gitbench/test-support';
import { loadSetUpEnv } from './lib/set-up-env';

loadSetUpEnv();
const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'apps/cli/bin/gitbench.js');
const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const RUNS = Number(flag('runs', '15'));
const SOURCE_RUNS = Number(flag('source-runs', '5'));
const BASELINE = argv.includes('--baseline') ? path.resolve(flag('baseline', '')) : null;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const UPSTREAM = process.env.GITBENCH_UPSTREAM_DIR ?? path.resolve(ROOT, '../shared/gitbench-upstream');

const TICK_MS = 1000 / 100; // USER_HZ: Linux reports children's times in ticks of 10 ms

/** CPU time of this process's waited-for children so far (cutime + cstime of /proc/self/stat). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** One Node process with these arguments (the gitbench bin and a command, or a bare `-e`). */
function node(args: string[], env: NodeJS.ProcessEnv): { wallMs: number; cpuMs: number; stdout: string } {
  const cpu = childrenCpuMs();
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpu, stdout: r.stdout };
}

interface Row {
  label: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  wall: number[];
  cpu: number[];
}

/** Runs every row once per round, `runs` rounds, then prints each row's wall and CPU time. */
function measure(runs: number, rows: Omit<Row, 'wall' | 'cpu'>[]): void {
  const timed: Row[] = rows.map((r) => ({ ...r, wall: [], cpu: [] }));
  for (let i = 0; i < runs; i++) {
    for (const row of timed) {
      const r = node(row.args, row.env);
      row.wall.push(r.wallMs);
      row.cpu.push(r.cpuMs);
    }
  }
  const f = (v: number) => `${v.toFixed(0).padStart(5)} ms`;
  for (const { label, wall, cpu } of timed) {
    console.log(
      `${label.padEnd(34)} wall p50 ${f(percentile(wall, 50))}  p95 ${f(percentile(wall, 95))}   ` +
        `CPU (user+sys) p50 ${f(percentile(cpu, 50))}  p95 ${f(percentile(cpu, 95))}  (${runs} runs)`,
    );
  }
}

const t = await createTestDatabase(DATABASE_URL, 'bench_cli');
try {
  const env = { ...process.env, DATABASE_URL, GITBENCH_DATABASE_SCHEMA: t.schema };
  const results = path.join(UPSTREAM, 'results');
  const file = path.join(
    results,
    readdirSync(results).find((f) => f.endsWith('.json'))!,
  );
  // The first run compiles the CLI when its sources changed since the last build (not timed).
  const [imported] = JSON.parse(node([BIN, 'import-legacy', file, '--json'], env).stdout) as { campaignId: string }[];
  const status = [BIN, 'campaign', 'status', imported!.campaignId];
  console.log(
    `gitbench campaign status (a finished campaign of 68 attempts); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${os.cpus().length} CPU(s)`,
  );
  const baseline = BASELINE
    ? [{ label: path.relative(ROOT, BASELINE), args: [path.join(BASELINE, 'main.js'), ...status.slice(1)], env }]
    : [];
  measure(RUNS, [
    { label: 'compiled (apps/cli/dist)', args: status, env },
    // Without the bin's freshness check (a stat of every source the build read), as the baseline runs.
    { label: 'apps/cli/dist/main.js alone', args: [path.join(ROOT, 'apps/cli/dist/main.js'), ...status.slice(1)], env },
    ...baseline,
    { label: 'node -e 0 (the floor: Node alone)', args: ['-e', '0'], env },
  ]);
  if (SOURCE_RUNS > 0)
    measure(SOURCE_RUNS, [
      { label: 'from source (tsx)', args: status, env: { ...env, GITBENCH_CLI_FROM_SOURCE: '1' } },
    ]);
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await t.drop();
}
