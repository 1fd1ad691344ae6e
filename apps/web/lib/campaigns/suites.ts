import 'server-only';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentLimitsSchema, summarizeSuite } from '@gitbench/core';
import type { LoadedSuite } from '@gitbench/use-cases';
import { loadSuiteDir, readSuiteCalibration, type SuiteCache } from '@gitbench/engine';
import type { SuiteRecord } from '../calibration';
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

/**
 * Suites as last parsed: every load reads the files again (a few milliseconds) and parses them only
 * when one changed (a suite of a few hundred fixtures takes a tenth of a second), so the campaign form
 * and every campaign creation see the suite as it is on disk without parsing it each time.
 */
// One per server process: the route bundles and instrumentation.ts each get their own copy of this module.
const globalForSuites = globalThis as unknown as { gitbenchSuites?: SuiteCache };
const cache: SuiteCache = (globalForSuites.gitbenchSuites ??= new Map());

export async function loadSuite(dir: string): Promise<LoadedSuite> {
  const suite = allowedSuites().find((s) => s.dir === dir || s.absolute === path.resolve(webEnv().GITBENCH_ROOT, dir));
  if (!suite) {
    throw new Error(
      `'${dir}' is not a configured suite (allowed: ${
        allowedSuites()
          .map((s) => s.dir)
          .join(', ') || 'none'
      }; set GITBENCH_SUITES)`,
    );
  }
  const read = await loadSuiteDir(suite.absolute, cache);
  return {
    version: read.version,
    fixtures: read.fixtures,
    invalid: read.errors,
    ...(read.agentLimits ? { agentLimits: read.agentLimits } : {}),
    // Named from the repository, as GITBENCH_SUITES names the suite: a refusal shown in a browser need not say
    // where the server keeps its checkout.
    ...(read.modes ? { modes: { ...read.modes, file: path.relative(webEnv().GITBENCH_ROOT, read.modes.file) } } : {}),
  };
}

/** Parses every configured suite once, when the server starts, so the first campaign form or creation does not. */
export async function preloadSuites(): Promise<void> {
  await Promise.all(allowedSuites().map((s) => loadSuite(s.dir)));
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
        ...(suite.modes ? { modes: suite.modes } : {}),
        // The turn limit an agent attempt gets when the form leaves it empty: the suite's own, else the built-in one.
        agentMaxTurns: {
          turns: suite.agentLimits?.maxTurns ?? agentLimitsSchema.parse({}).maxTurns,
          fromSuite: suite.agentLimits?.maxTurns !== undefined,
        },
      };
    }),
  );
}

/**
 * Every configured suite's calibration record, read alone (one small file each, on every call, so an edited
 * record shows at once without parsing any suite's fixtures).
 */
export async function suiteRecords(): Promise<SuiteRecord[]> {
  return Promise.all(
    allowedSuites().map(async (s) => ({ suite: s.dir, calibration: await readSuiteCalibration(s.absolute) })),
  );
}
