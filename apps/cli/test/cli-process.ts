import { spawn } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export { UPSTREAM_ROOT as UPSTREAM } from '../../../packages/core/test/fixtures/upstream-data';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The `gitbench` command as users run it (its bin script): its own process, environment and directory. */
export function gitbench(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [path.join(ROOT, 'apps/cli/bin/gitbench.js'), ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Parses `--json` output, showing what the command said when it is not JSON. */
export function jsonOf<T>(r: CliResult): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
}
