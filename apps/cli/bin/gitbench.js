#!/usr/bin/env node
// Runs the compiled CLI (apps/cli/dist, built by ../build.mjs). A checkout whose sources changed since
// the last build, or a fresh clone, compiles first (well under a second), so `npx gitbench` needs no
// build step and never runs stale code. Running the TypeScript through tsx instead cost about a second
// of compiling on every start. GITBENCH_CLI_FROM_SOURCE=1 runs the sources through tsx (debugging).
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCli, DIST, isFresh } from '../build.mjs';

async function fromSource() {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}

/**
 * One process compiles while the others wait for it (tests start many CLIs at once): a lock directory,
 * taken over when its holder has been at it for over a minute (a build killed halfway).
 */
async function compileOnce() {
  const lock = `${DIST}.lock`;
  for (let waited = 0; waited < 60_000; waited += 100) {
    try {
      mkdirSync(lock);
      try {
        if (!isFresh()) await buildCli();
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 60_000)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (isFresh()) return;
    }
  }
}

let compiled = process.env.GITBENCH_CLI_FROM_SOURCE !== '1';
if (compiled && !isFresh()) {
  try {
    await compileOnce();
  } catch (err) {
    // No esbuild here (an install without it) or an unwritable checkout: the sources still run.
    process.stderr.write(`gitbench: could not compile the CLI (${err.message}); running its sources through tsx\n`);
    compiled = false;
  }
}
if (compiled) await import(pathToFileURL(path.join(DIST, 'main.js')).href);
else await fromSource();
