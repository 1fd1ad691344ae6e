import { createHash, type Hash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, normalize, relative, resolve, sep } from 'node:path';
import {
  CALIBRATION_FILE,
  parseCalibrationRecord,
  parseSuite,
  parseSuiteManifest,
  suiteAgentLimits,
  suiteModes,
  type Fixture,
  type CalibrationRecord,
  type FixtureError,
  type SuiteAgentLimits,
  type SuiteManifest,
  type SuiteModes,
} from './core-api';

const MANIFEST = 'suite.yaml';

export interface LoadedSuiteDir {
  /** The suite's root, absolute (the parent when one domain folder was given). */
  dir: string;
  fixtures: Fixture[];
  /** Every file that failed validation (suite.yaml included), with file, line and field. */
  errors: FixtureError[];
  /** Forms upstream accepts that `gitbench validate --strict` reports, with file, line and field. */
  warnings: FixtureError[];
  /** Fixture files read. */
  files: number;
  /** suite.yaml's content when it is valid: the version and the rules every fixture was held to. */
  manifest: SuiteManifest | null;
  /** suite.yaml's defaults for agent attempts (its `agent` section); a limit given explicitly wins. */
  agentLimits: SuiteAgentLimits | undefined;
  /**
   * suite.yaml's `modes`: the modes its tasks are built for (undefined: every mode), with the file named
   * under the directory as the caller gave it, so that a refusal points at a path the caller knows.
   */
  modes: SuiteModes | undefined;
  /** suite.yaml's `version`, else a hash of every fixture file, so a result always names what it ran. */
  version: string;
  versionSource: 'suite.yaml' | 'content';
  /** calibration.json at the root: null without one; an unreadable one says why (file, field). */
  calibration: SuiteCalibration;
}

export type SuiteCalibration = { file: string; record: CalibrationRecord } | { file: string; error: string } | null;

async function readIfPresent(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
}

function parseCalibration(file: string, text: string | null): SuiteCalibration {
  if (text === null) return null;
  const parsed = parseCalibrationRecord(text, file);
  return parsed.ok ? { file, record: parsed.record } : { file, error: parsed.message };
}

/**
 * A suite's calibration record, read on its own: a page that shows a fixture's calibration needs only this
 * file, not the suite's fixtures and assets.
 */
export async function readSuiteCalibration(root: string): Promise<SuiteCalibration> {
  const file = join(root, CALIBRATION_FILE);
  return parseCalibration(file, await readIfPresent(file));
}

/** The directory does not exist or is not a directory: nothing to report per file. */
export class SuiteDirError extends Error {
  override readonly name = 'SuiteDirError';
}

/** Fixture files are never assets; any other file of the suite may be one. */
const NOT_ASSET = /\.ya?ml$/;

/**
 * Every file below `dir`, relative paths sorted. A subdirectory holding its own suite.yaml is another
 * suite (a task family with its own version and rules), so its files are not this suite's.
 */
async function suiteFiles(dir: string, root: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  if (dir !== root && entries.some((e) => e.isFile() && e.name === MANIFEST)) return [];
  const nested = await Promise.all(
    entries.map(async (e) =>
      e.isDirectory() ? suiteFiles(join(dir, e.name), root) : e.isFile() ? [join(dir, e.name)] : [],
    ),
  );
  return nested.flat();
}

function isFixtureFile(path: string, root: string): boolean {
  // suite.yaml at the root describes the suite; it is not a fixture.
  return /\.ya?ml$/.test(path) && !(dirname(path) === root && basename(path) === MANIFEST);
}

function hashFiles(h: Hash, files: readonly { path: string; text: string }[]): Hash {
  for (const f of files) h.update(f.path).update('\0').update(f.text).update('\0');
  return h;
}

function contentVersion(files: readonly { path: string; text: string }[]): string {
  return `unversioned-${hashFiles(createHash('sha256'), files).digest('hex').slice(0, 12)}`;
}

/**
 * What a long-lived reader (the web app) keeps between loads: per directory loaded, the last result and a
 * digest of every byte it was parsed from. A load still lists and reads every file, and parses them
 * again only when one differs, so a cached suite is never stale.
 */
export type SuiteCache = Map<string, { digest: string; suite: LoadedSuiteDir }>;

function inputDigest(
  manifestText: string | null,
  calibrationText: string | null,
  files: readonly { path: string; text: string }[],
  assets: ReadonlyMap<string, Uint8Array>,
): string {
  const h = createHash('sha256');
  for (const text of [manifestText, calibrationText]) h.update(text === null ? '\u0001' : `\u0002${text}`).update('\0');
  hashFiles(h, files);
  for (const [path, bytes] of assets) h.update(path).update('\0').update(bytes).update('\0');
  return h.digest('hex');
}

/**
 * Reads a suite directory: every fixture file below it (paths relative to the suite root, so a
 * fixture's domain is its folder), and suite.yaml, whose rules apply to every fixture and whose
 * version names the suite. A domain folder given on its own (fixtures/git_clean) holds fixture files
 * directly: its domain is still its name and the suite.yaml beside it still applies. The one loader
 * behind the CLI's commands, the web's campaigns and the tests.
 */
export async function loadSuiteDir(dir: string, cache?: SuiteCache): Promise<LoadedSuiteDir> {
  const given = resolve(dir);
  const info = await stat(given).catch(() => null);
  if (!info?.isDirectory()) throw new SuiteDirError(`${dir} is not a directory of fixtures`);
  const holdsFixtures = (await readdir(given, { withFileTypes: true })).some(
    (e) => e.isFile() && /\.ya?ml$/.test(e.name) && e.name !== MANIFEST,
  );
  const root = holdsFixtures && basename(given) !== '' ? dirname(given) : given;
  const manifestPath = join(root === given ? dir : dirname(normalize(dir)), MANIFEST);
  const manifestText = await readIfPresent(join(root, MANIFEST));
  const calibrationText = await readIfPresent(join(root, CALIBRATION_FILE));
  const parsedManifest = manifestText === null ? null : parseSuiteManifest({ path: MANIFEST, text: manifestText });
  const manifest = parsedManifest?.ok ? parsedManifest.manifest : null;
  const all = await suiteFiles(root, root);
  const inScope = holdsFixtures ? all.filter((p) => dirname(p) === given) : all;
  const paths = inScope
    .filter((p) => isFixtureFile(p, root))
    .map((p) => relative(root, p))
    .sort();
  const files = await Promise.all(
    paths.map(async (path) => ({ path, text: await readFile(join(root, path), 'utf8') })),
  );
  // Assets are read only for a suite whose fixtures name some.
  const assets = new Map<string, Uint8Array>();
  if (files.some((f) => /^(files|assets):/m.test(f.text))) {
    // Read whatever their size: the fixture that names an oversized one is told so (core's attachFiles).
    for (const p of all.filter((p) => !NOT_ASSET.test(p)))
      assets.set(relative(root, p).split(sep).join('/'), await readFile(p));
  }
  const digest = cache ? inputDigest(manifestText, calibrationText, files, assets) : '';
  const hit = cache?.get(given);
  if (hit && hit.digest === digest) return hit.suite;
  const { fixtures, errors, warnings } = parseSuite(files, manifest?.rules, assets);
  const manifestErrors = parsedManifest && !parsedManifest.ok ? parsedManifest.errors : [];
  const suite: LoadedSuiteDir = {
    dir: root,
    fixtures,
    errors: [...manifestErrors, ...errors],
    warnings,
    files: files.length,
    manifest,
    agentLimits: suiteAgentLimits(manifest),
    modes: suiteModes(manifest, manifestPath),
    version: manifest?.version ?? contentVersion(files),
    versionSource: manifest ? 'suite.yaml' : 'content',
    calibration: parseCalibration(join(root, CALIBRATION_FILE), calibrationText),
  };
  cache?.set(given, { digest, suite });
  return suite;
}
