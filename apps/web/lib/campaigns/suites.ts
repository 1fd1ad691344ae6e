import 'server-only';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { summarizeSuite } from '@gitbench/core';
import type { LoadedSuite } from '@gitbench/db';
import { loadSuiteDir } from '@gitbench/engine';
import { webEnv } from '../env';

/**
 * Suites a campaign may name. A configuration arrives from a browser, so its suite directory is
 * checked against this list rather than read from wherever it points.
 */
export function allowedSuites(): { dir: string; absolute: string }[] {
  const env = webEnv();
  return env.GITBENCH_SUITES.split(',')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((dir) => ({ dir, absolute: path.resolve(env.GITBENCH_ROOT, dir) }))
    .filter((s) => existsSync(s.absolute));
}

const cache = new Map<string, { at: number; suite: LoadedSuite }>();

export async function loadSuite(dir: string): Promise<LoadedSuite> {
  const suite = allowedSuites().find((s) => s.dir === dir || s.absolute === path.resolve(webEnv().GITBENCH_ROOT, dir));
  if (!suite) {
    throw new Error(`'${dir}' is not a configured suite (allowed: ${allowedSuites().map((s) => s.dir).join(', ') || 'none'}; set GITBENCH_SUITES)`);
  }
  const hit = cache.get(suite.absolute);
  if (hit && Date.now() - hit.at < 5_000) return hit.suite;
  const read = await loadSuiteDir(suite.absolute);
  const loaded: LoadedSuite = { version: read.version, fixtures: read.fixtures, invalid: read.errors };
  cache.set(suite.absolute, { at: Date.now(), suite: loaded });
  return loaded;
}

export async function describeSuites() {
  return Promise.all(
    allowedSuites().map(async (s) => {
      const suite = await loadSuite(s.dir);
      const summary = summarizeSuite(suite.fixtures);
      return {
        dir: s.dir,
        version: suite.version,
        fixtures: suite.fixtures.length,
        invalid: suite.invalid.length,
        summary,
        domains: [...new Set(suite.fixtures.map((f) => f.domain))].sort(),
        difficulties: [...new Set(suite.fixtures.map((f) => f.difficulty))],
        tags: [...new Set(suite.fixtures.flatMap((f) => f.tags))].sort(),
      };
    }),
  );
}
