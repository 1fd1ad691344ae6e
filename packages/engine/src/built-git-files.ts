import { createHash } from 'node:crypto';
import { LOOKUP_RESTORED_FILES, type BuiltGitFiles } from './core-api';

/**
 * What the scorer's look-ups put back before they run (core's lookupConfigPy): the git directories
 * of the build's workspace archive and their LOOKUP_RESTORED_FILES, read from the archive's headers
 * on the host. The model never had the archive in its hands, so this is the build's own copy.
 * Computed once per archive: a header walk skips every file's bytes but those few.
 */
export function builtGitFiles(tar: Buffer, repoDir: string): BuiltGitFiles {
  let entries = cache.get(tar);
  if (!entries) {
    entries = scan(tar);
    cache.set(tar, entries);
  }
  // The repository's own configuration is rewritten to the whitelist, never put back: the model may
  // have set what a task asks of it (a remote, a branch's upstream).
  const own = `${repoDir}/.git/`;
  const configs = Object.entries(entries.configs).filter(([path]) => !path.startsWith(own));
  const repoConfig = entries.configs[`${own}config`];
  return {
    repoDir,
    gitDirs: entries.gitDirs,
    files: { ...entries.files, ...Object.fromEntries(configs) },
    packs: entries.packs,
    ...(repoConfig !== undefined ? { repoConfig } : {}),
  };
}

interface Scanned {
  gitDirs: string[];
  files: Record<string, string>;
  /** Each git directory's configuration file, by its path. */
  configs: Record<string, string>;
  /** SHA-1 of each file in a pack directory, by its path. */
  packs: Record<string, string>;
}

const cache = new WeakMap<Buffer, Scanned>();
const RESTORED = LOOKUP_RESTORED_FILES.map((name) => `/${name}`);

function scan(tar: Buffer): Scanned {
  const heads = new Set<string>();
  const configs = new Map<string, string>();
  const objectDirs = new Set<string>();
  const files: Record<string, string> = {};
  const packs: Record<string, string> = {};
  let longName: string | null = null;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = sizeOf(header);
    const type = String.fromCharCode(header[156]!);
    const data = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      // GNU tar's long name: the next entry's name.
      longName = text(data);
      continue;
    }
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? longName;
      continue;
    }
    const path = normalize(longName ?? nameOf(header));
    longName = null;
    if (type === '5') {
      if (path.endsWith('/objects')) objectDirs.add(path.slice(0, -'/objects'.length));
    } else if (type === '0' || type === '\0') {
      if (path.endsWith('/HEAD')) heads.add(path.slice(0, -'/HEAD'.length));
      else if (path.endsWith('/config')) configs.set(path.slice(0, -'/config'.length), data.toString('base64'));
      if (RESTORED.some((suffix) => path.endsWith(suffix))) files[path] = data.toString('base64');
      if (/\/objects\/pack\/[^/]+$/.test(path)) packs[path] = createHash('sha1').update(data).digest('hex');
    }
  }
  const gitDirs = [...heads].filter((d) => configs.has(d) && objectDirs.has(d)).sort();
  const kept = Object.fromEntries(
    Object.entries(files).filter(([path]) => gitDirs.some((d) => path.startsWith(`${d}/`))),
  );
  return {
    gitDirs,
    files: kept,
    configs: Object.fromEntries(gitDirs.map((d) => [`${d}/config`, configs.get(d)!])),
    packs,
  };
}

function text(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8');
}

function nameOf(header: Buffer): string {
  const name = text(header.subarray(0, 100));
  // POSIX ustar keeps a prefix; GNU tar's format uses those bytes for other things.
  const ustar = header.subarray(257, 265).toString('latin1') === 'ustar\u000000';
  const prefix = ustar ? text(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

function sizeOf(header: Buffer): number {
  const field = header.subarray(124, 136);
  // Base-256 for sizes past octal's 8 GiB (GNU); no file of a fixture comes near, but the walk must not lose its place.
  if (field[0]! & 0x80) return field.subarray(1).reduce((n, b) => n * 256 + b, field[0]! & 0x7f);
  return parseInt(text(field).trim() || '0', 8);
}

const normalize = (path: string) => path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
