import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Debian's interpreter: a pyenv shim named python3 may not see Debian's python3-yaml, -click, -rich, -dotenv. */
const PYTHON = '/usr/bin/python3';

export interface UpstreamRun {
  seconds: number;
  /** Scores the harness wrote, over both output modes. */
  attempts: number;
  passed: number;
}

/**
 * Runs upstream's Python harness (its `gitbench run --all --model mock`, both output modes) on a
 * directory of upstream-format fixtures, as its README says: the harness copied into a scratch
 * directory beside a link to the fixtures, run from a directory holding `.gitbench.json`. It builds
 * repositories in host temporary directories without isolation, which is why only the mock model is
 * ever run with it. Wall time from the process start to its exit.
 *
 * `tmpdir` is where its repositories go (Python's tempfile reads TMPDIR): where that is a disk, every
 * git write of every build goes to it, while our sandboxes build in memory (tmpfs).
 */
export async function runUpstreamHarness(
  harnessDir: string,
  fixturesDir: string,
  fixtureWorkers: number,
  opts: { tmpdir?: string } = {},
): Promise<UpstreamRun> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'gitbench-upstream-'));
  try {
    cpSync(path.join(harnessDir, 'gitbench'), path.join(scratch, 'gitbench'), { recursive: true });
    symlinkSync(path.resolve(fixturesDir), path.join(scratch, 'fixtures'));
    writeFileSync(path.join(scratch, '.gitbench.json'), '{"models":{}}\n');
    const out = path.join(scratch, 'out');
    const args = [
      '-c',
      'from gitbench.cli import cli; cli()',
      'run',
      '--all',
      '--model',
      'mock',
      '--output-mode',
      'both',
      '--fixture-workers',
      String(fixtureWorkers),
      '--output-dir',
      out,
    ];
    const t0 = performance.now();
    const { code, log } = await new Promise<{ code: number | null; log: string }>((resolve) => {
      const child = spawn(PYTHON, args, {
        cwd: scratch,
        env: {
          ...process.env,
          PYTHONPATH: scratch,
          PYTHONDONTWRITEBYTECODE: '1',
          ...(opts.tmpdir ? { TMPDIR: opts.tmpdir } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text = (text + c.toString()).slice(-4000)));
      child.stderr.on('data', (c: Buffer) => (text = (text + c.toString()).slice(-4000)));
      child.on('close', (c) => resolve({ code: c, log: text }));
    });
    const seconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`upstream's harness exited ${code}:\n${log}`);
    let attempts = 0;
    let passed = 0;
    for (const file of existsSync(out) ? readdirSync(out).filter((f) => f.endsWith('.json')) : []) {
      const envelope = JSON.parse(readFileSync(path.join(out, file), 'utf8')) as {
        results?: { scores?: { passed?: boolean }[] }[];
      };
      for (const r of envelope.results ?? []) {
        attempts += r.scores?.length ?? 0;
        passed += r.scores?.filter((s) => s.passed).length ?? 0;
      }
    }
    if (attempts === 0) throw new Error(`upstream's harness wrote no scores in ${out}:\n${log}`);
    return { seconds, attempts, passed };
  } finally {
    // The shared copy is read-only, and so is the scratch copy of it.
    spawnSync('chmod', ['-R', 'u+w', scratch]);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Whether a suite directory is in upstream's layout (benchmark folders of YAML fixtures, no suite.yaml). */
export function isUpstreamLayout(dir: string): boolean {
  return (
    !existsSync(path.join(dir, 'suite.yaml')) &&
    readdirSync(dir, { withFileTypes: true }).some(
      (d) => d.isDirectory() && readdirSync(path.join(dir, d.name)).some((f) => /\.ya?ml$/.test(f)),
    )
  );
}

/** The filesystem type a directory is on, from /proc/mounts (the longest mount point above it); null off Linux. */
export function filesystemOf(dir: string): string | null {
  let best: { at: string; type: string } | null = null;
  try {
    for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
      const [, at, type] = line.split(' ');
      if (!at || !type) continue;
      const inside = dir === at || dir.startsWith(at.endsWith('/') ? at : `${at}/`);
      if (inside && (!best || at.length > best.at.length)) best = { at, type };
    }
  } catch {
    return null;
  }
  return best?.type ?? null;
}
