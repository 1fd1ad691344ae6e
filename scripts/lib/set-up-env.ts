import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The environment scripts/setup.sh wrote to .gitbench/env (the database, Redis and the sandbox image
 * tag), read by the scripts that need it instead of asking their user to source it. The npm scripts
 * run setup.sh first; a variable already set in the environment wins over the file.
 */
export function loadSetUpEnv(): void {
  const file = path.join(process.env.GITBENCH_STATE_DIR ?? path.join(ROOT, '.gitbench'), 'env');
  if (!existsSync(file))
    throw new Error(`${file} does not exist: run bash scripts/setup.sh (the npm run bench:* scripts do)`);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^export ([A-Za-z_][A-Za-z0-9_]*)='(.*)'$/.exec(line.trim());
    if (m && process.env[m[1]!] === undefined) process.env[m[1]!] = m[2]!;
  }
}
