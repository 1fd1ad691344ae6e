import { spawnSync } from 'node:child_process';
import { bakedVersion, UNKNOWN_VERSION, type ProductVersion } from './core-api';

function git(args: string[], cwd: string): string | null {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return run.status === 0 ? run.stdout : null;
}

/**
 * This process's GitBench version: GITBENCH_VERSION when the build baked one in, else the commit of
 * the checkout `dir` belongs to and whether its working tree has changes (tracked or untracked files
 * that are not ignored), else unknown. Read once per process; a process does not change version.
 */
export function detectProductVersion(
  env: NodeJS.ProcessEnv = process.env,
  dir: string = process.cwd(),
): ProductVersion {
  const baked = bakedVersion(env['GITBENCH_VERSION']);
  if (baked) return baked;
  const head = git(['rev-parse', '--verify', '-q', 'HEAD'], dir)?.trim();
  if (!head) return UNKNOWN_VERSION;
  const status = git(['status', '--porcelain', '--untracked-files=normal'], dir);
  return { version: head, dirty: status === null ? null : status.trim() !== '', source: 'git' };
}
