import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { ConfigurationError } from '@gitbench/core';

import { ReplayIndex } from './replay-index';

/** Largest replay file read (GITBENCH_REPLAY_MAX_BYTES); upstream's result files are about 200 KB. */
export const DEFAULT_REPLAY_MAX_BYTES = 32 * 1024 * 1024;

/** Where replay may read, and how much of one file. */
export interface ReplaySources {
  /** Directories replay sources must lie in, after symbolic links are resolved. */
  dirs: readonly string[];
  maxBytes?: number;
}

/**
 * The configured replay directories: GITBENCH_REPLAY_DIRS (separated by the platform's path
 * delimiter, `:`), else the upstream harness's results (GITBENCH_UPSTREAM_DIR, else
 * ../shared/gitbench-upstream beside the checkout). Relative entries resolve against `cwd`.
 */
export function replaySourcesFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): ReplaySources {
  const configured = env['GITBENCH_REPLAY_DIRS']
    ?.split(delimiter)
    .map((d) => d.trim())
    .filter(Boolean);
  const upstream = env['GITBENCH_UPSTREAM_DIR'] ?? '../shared/gitbench-upstream';
  const dirs = (configured && configured.length > 0 ? configured : [join(upstream, 'results')]).map((d) =>
    resolve(cwd, d),
  );
  const max = Number(env['GITBENCH_REPLAY_MAX_BYTES']);
  return { dirs, maxBytes: Number.isInteger(max) && max > 0 ? max : DEFAULT_REPLAY_MAX_BYTES };
}

const REFUSED =
  'is not a readable result file or directory inside the configured replay directories (GITBENCH_REPLAY_DIRS).';
const MISSING = 'does not exist in the configured replay directories (GITBENCH_REPLAY_DIRS).';
const OUTSIDE = 'lies outside the configured replay directories (GITBENCH_REPLAY_DIRS).';

/** A source's place: every message names it by its position, never by the path it was given or found at. */
const nth = (i: number, of: number) => (of > 1 ? `Replay source ${i + 1} of ${of}` : 'The replay source');

/**
 * A replay source that cannot be replayed. `message` names the source by its position only (it is kept
 * with every attempt); `problem` is the same finding without a subject, for a caller that names the
 * source as its user typed it (campaign creation), and `source` is which of the sources it is.
 */
export class ReplaySourceError extends ConfigurationError {
  constructor(
    readonly source: number,
    readonly problem: string,
    message: string,
  ) {
    super('bad_replay_file', message);
  }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(sep));
}

/**
 * The source's real path when it resolves (symbolic links followed) inside a configured directory;
 * else whether it is `outside` them (decided on the path as written before anything is looked at, or
 * after a symbolic link led out) or `missing` from them.
 */
async function confine(
  source: string,
  dirs: readonly string[],
): Promise<{ real: string; dir: string } | 'missing' | 'outside'> {
  const given = dirs.map((d) => resolve(d));
  const realDirs = (await Promise.all(given.map((d) => realpath(d).catch(() => null)))).filter(
    (d): d is string => d !== null,
  );
  let candidates: string[];
  if (isAbsolute(source)) {
    const path = resolve(source);
    if (![...given, ...realDirs].some((d) => inside(d, path))) return 'outside';
    candidates = [path];
  } else {
    const written = normalize(source);
    if (written === '..' || written.startsWith(`..${sep}`)) return 'outside';
    candidates = realDirs.map((d) => resolve(d, source));
  }
  let escaped = false;
  for (const candidate of candidates) {
    const real = await realpath(candidate).catch(() => null);
    if (real === null) continue;
    const dir = realDirs.find((d) => inside(d, real));
    if (dir) return { real, dir };
    escaped = true;
  }
  return escaped ? 'outside' : 'missing';
}

/**
 * Reads a regular file, no more than `maxBytes`: opened without following a last symbolic link and
 * without blocking on a FIFO, then checked to be a plain file (no device, pipe or socket).
 */
async function readCapped(file: string, maxBytes: number): Promise<string | 'not_file' | 'too_large'> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return 'not_file';
    if (info.size > maxBytes) return 'too_large';
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
      if (read > maxBytes) return 'too_large';
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Loads one result file, or every `*.json` in a directory, from the configured replay directories
 * only: a source must resolve (symbolic links followed) inside one of them, must be a regular file or
 * directory, and is read no further than the size cap. Messages never repeat a path or a file's content.
 */
export async function loadReplayIndex(paths: string | string[], sources: ReplaySources): Promise<ReplayIndex> {
  const index = new ReplayIndex();
  const list = Array.isArray(paths) ? paths : [paths];
  const maxBytes = sources.maxBytes ?? DEFAULT_REPLAY_MAX_BYTES;
  for (const [i, source] of list.entries()) {
    const refuse = (problem: string, message = `${nth(i, list.length)} ${problem}`) =>
      new ReplaySourceError(i, problem, message);
    const found = source.includes('\0') ? 'outside' : await confine(source, sources.dirs);
    if (found === 'missing') throw refuse(MISSING);
    if (found === 'outside') throw refuse(OUTSIDE);
    const entries = await readdir(found.real, { withFileTypes: true }).catch(() => null);
    const files = entries
      ? entries
          .filter((e) => e.name.endsWith('.json') && e.isFile())
          .map((e) => join(found.real, e.name))
          .sort()
      : [found.real];
    for (const file of files) {
      const label = relative(found.dir, file) || basename(file);
      const text = await readCapped(file, maxBytes).catch(() => 'not_file' as const);
      if (text === 'not_file') throw refuse(REFUSED);
      if (text === 'too_large') throw refuse(`is larger than ${maxBytes} bytes (GITBENCH_REPLAY_MAX_BYTES).`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw refuse('is not valid JSON.');
      }
      try {
        index.add(json, label);
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error;
        // The message already names the file (by its name inside the replay directory, never its content).
        throw refuse(`cannot be replayed: ${error.message}`, error.message);
      }
    }
  }
  return index;
}
