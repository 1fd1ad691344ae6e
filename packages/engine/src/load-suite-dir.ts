import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseSuite, parseSuiteManifest, type Fixture, type FixtureError } from './core-api';

const MANIFEST = 'suite.yaml';

export interface LoadedSuiteDir {
  /** The directory, absolute. */
  dir: string;
  fixtures: Fixture[];
  /** Every file that failed validation (suite.yaml included), with file, line and field. */
  errors: FixtureError[];
  /** Fixture files read. */
  files: number;
  /** suite.yaml's `version`, else a hash of every fixture file, so a result always names what it ran. */
  version: string;
  versionSource: 'suite.yaml' | 'content';
}

/** The directory does not exist or is not a directory: nothing to report per file. */
export class SuiteDirError extends Error {
  override readonly name = 'SuiteDirError';
}

async function yamlFiles(dir: string, root: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return yamlFiles(path, root);
      // suite.yaml at the root describes the suite; it is not a fixture.
      return /\.ya?ml$/.test(e.name) && !(dir === root && e.name === MANIFEST) ? [path] : [];
    }),
  );
  return nested.flat();
}

function contentVersion(files: readonly { path: string; text: string }[]): string {
  const h = createHash('sha256');
  for (const f of files) h.update(f.path).update('\0').update(f.text).update('\0');
  return `unversioned-${h.digest('hex').slice(0, 12)}`;
}

/**
 * Reads a suite directory: every fixture file below it (paths relative to it, so a fixture's domain is
 * its folder) and its version. The one loader behind the CLI's commands and the web's campaigns.
 */
export async function loadSuiteDir(dir: string): Promise<LoadedSuiteDir> {
  const root = resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new SuiteDirError(`${dir} is not a directory of fixtures`);
  const paths = (await yamlFiles(root, root)).map((p) => relative(root, p)).sort();
  const files = await Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(root, path), 'utf8') })));
  const { fixtures, errors } = parseSuite(files);
  const manifestText = await readFile(join(root, MANIFEST), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  const manifest = manifestText === null ? null : parseSuiteManifest(manifestText, MANIFEST);
  if (manifest && !manifest.ok) errors.push(...manifest.errors);
  const declared = manifest?.ok ? manifest.version : null;
  return {
    dir: root,
    fixtures,
    errors,
    files: files.length,
    version: declared ?? contentVersion(files),
    versionSource: declared ? 'suite.yaml' : 'content',
  };
}
