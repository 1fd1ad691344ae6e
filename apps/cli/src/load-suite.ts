import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { parseSuite, parseSuiteManifest, type Fixture, type FixtureError, type SuiteManifest } from '@gitbench/core';
import { UsageError } from './args';

/** suite.yaml at the root of a suite holds its version and rules; it is not a fixture. */
const MANIFEST = 'suite.yaml';

async function yamlFiles(dir: string, root = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return yamlFiles(path, root);
      return /\.ya?ml$/.test(e.name) && !(dir === root && e.name === MANIFEST) ? [path] : [];
    }),
  );
  return nested.flat();
}

export interface LoadedSuite {
  fixtures: Fixture[];
  errors: FixtureError[];
  /** Fixture files read (suite.yaml not counted). */
  files: number;
  /** Absent when the directory has no suite.yaml (e.g. upstream's fixtures) or it is invalid. */
  manifest: SuiteManifest | null;
}

/**
 * Reads every fixture file under `dir` (paths relative to the suite root, so the domain is the folder
 * name) and the suite's suite.yaml, whose rules apply to every fixture; a broken suite.yaml is
 * reported as an error like a broken fixture file.
 */
export async function loadSuite(dir: string): Promise<LoadedSuite> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new UsageError(`${dir} is not a directory of fixtures`);
  // A domain folder given on its own (fixtures/git_clean) holds fixture files directly: the domain is
  // its name, as in the whole suite, and the suite.yaml beside it still applies.
  const holdsFixtures = (await readdir(dir, { withFileTypes: true })).some((e) => e.isFile() && /\.ya?ml$/.test(e.name) && e.name !== MANIFEST);
  const root = holdsFixtures ? dirname(dir) : dir;
  const manifestText = await readFile(join(root, MANIFEST), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  const parsedManifest = manifestText === null ? null : parseSuiteManifest({ path: MANIFEST, text: manifestText });
  const manifest = parsedManifest?.ok ? parsedManifest.manifest : null;
  const paths = (await yamlFiles(dir)).sort();
  const files = await Promise.all(paths.map(async (p) => ({ path: relative(root, p), text: await readFile(p, 'utf8') })));
  const { fixtures, errors } = parseSuite(files, manifest?.rules);
  const manifestErrors = parsedManifest && !parsedManifest.ok ? parsedManifest.errors : [];
  return { fixtures, errors: [...manifestErrors, ...errors], files: files.length, manifest };
}

export function formatFixtureError(e: FixtureError): string {
  return `${e.file}:${e.line}: ${e.field || '(file)'}: ${e.message}`;
}
