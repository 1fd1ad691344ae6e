/**
 * Git plumbing shared by the miners that turn real history into fixtures (scripts/ggb-mine.ts for
 * GitGoodBench, scripts/hard-mine.ts for the hard tier): read a commit's metadata, re-create commits
 * with their original identity, dates and message over cut-down trees, and bundle them. Mirrors are
 * only read; every write goes to a scratch repository that borrows the mirror's objects.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export function git(
  cwd: string,
  args: string[],
  opts: { input?: string | Buffer; env?: Record<string, string>; allowFail?: boolean } = {},
): string {
  try {
    return execFileSync('git', args, {
      cwd,
      input: opts.input,
      env: { ...process.env, LC_ALL: 'C', TZ: 'UTC', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent', ...opts.env },
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    }).toString('utf8');
  } catch (err) {
    if (opts.allowFail) {
      const e = err as { stdout?: Buffer; status?: number };
      return `\u0000EXIT${e.status ?? 1}\u0000${e.stdout?.toString('utf8') ?? ''}`;
    }
    throw err;
  }
}
export const gitBuf = (cwd: string, args: string[]): Buffer =>
  execFileSync('git', args, {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, LC_ALL: 'C', HOME: '/nonexistent' },
  });

/** Commit metadata needed to re-create a commit exactly (identity, dates, message). */
export interface CommitMeta {
  id: string;
  parents: string[];
  tree: string;
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

export function commitMeta(repo: string, id: string): CommitMeta {
  const raw = git(repo, ['cat-file', 'commit', id]);
  const [head, ...body] = raw.split('\n\n');
  const meta: CommitMeta = {
    id,
    parents: [],
    tree: '',
    authorName: '',
    authorEmail: '',
    authorDate: '',
    committerName: '',
    committerEmail: '',
    committerDate: '',
    message: body.join('\n\n'),
  };
  for (const line of head!.split('\n')) {
    const m = /^(tree|parent|author|committer) (.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'tree') meta.tree = m[2]!;
    else if (m[1] === 'parent') meta.parents.push(m[2]!);
    else {
      const who = /^(.*) <(.*)> (\d+ [+-]\d{4})$/.exec(m[2]!);
      if (!who) continue;
      if (m[1] === 'author') [meta.authorName, meta.authorEmail, meta.authorDate] = [who[1]!, who[2]!, who[3]!];
      else [meta.committerName, meta.committerEmail, meta.committerDate] = [who[1]!, who[2]!, who[3]!];
    }
  }
  // Signed commits: the signature header is dropped with the rest of the header; the message stays.
  return meta;
}

/** A scratch repository that borrows the mirror's objects (the mirror is never written). */
export function scratchRepo(mirror: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ggb-mine-'));
  git(dir, ['init', '-q', '-b', 'main']);
  const objects = resolve(mirror, existsSync(join(mirror, 'objects')) ? 'objects' : '.git/objects');
  writeFileSync(join(dir, '.git/objects/info/alternates'), `${objects}\n`);
  git(dir, ['config', 'pack.threads', '1']);
  git(dir, ['config', 'user.name', 'ggb']);
  git(dir, ['config', 'user.email', 'ggb@example.com']);
  return dir;
}

/** The tree of `commit` cut down to `paths` (those that exist in it). */
export function restrictedTree(scratch: string, commit: string, paths: string[]): string {
  const index = join(scratch, '.git', 'ggb-index');
  rmSync(index, { force: true });
  const env = { GIT_INDEX_FILE: index };
  git(scratch, ['read-tree', '--empty'], { env });
  const listing = git(scratch, ['ls-tree', '-r', '-z', commit, '--', ...paths]);
  if (listing.length > 0) git(scratch, ['update-index', '-z', '--index-info'], { env, input: listing });
  return git(scratch, ['write-tree'], { env }).trim();
}

export function recreate(scratch: string, meta: CommitMeta, tree: string, parents: string[]): string {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])];
  return git(scratch, args, {
    input: meta.message,
    env: {
      GIT_AUTHOR_NAME: meta.authorName,
      GIT_AUTHOR_EMAIL: meta.authorEmail,
      GIT_AUTHOR_DATE: meta.authorDate,
      GIT_COMMITTER_NAME: meta.committerName,
      GIT_COMMITTER_EMAIL: meta.committerEmail,
      GIT_COMMITTER_DATE: meta.committerDate,
    },
  }).trim();
}

export function treeBytes(repo: string, commit: string, paths: string[]): number {
  const out = git(repo, ['ls-tree', '-r', '-l', commit, '--', ...paths]);
  return out
    .split('\n')
    .filter(Boolean)
    .reduce((n, l) => n + (Number(l.split(/\s+/)[3]) || 0), 0);
}

export function changedPaths(repo: string, a: string, b: string): string[] {
  return git(repo, ['diff', '--no-renames', '--name-only', '-z', a, b]).split('\0').filter(Boolean);
}

export function bundle(scratch: string, refs: Record<string, string>, out: string): void {
  for (const [ref, id] of Object.entries(refs)) git(scratch, ['update-ref', ref, id]);
  git(scratch, ['bundle', 'create', '-q', out, ...Object.keys(refs)]);
  for (const ref of Object.keys(refs)) git(scratch, ['update-ref', '-d', ref]);
}

/**
 * The tests directory of `commit` as a reproducible .tar.gz: archived from a commit with a fixed date
 * (git archive takes every file's time from the commit), so the bytes never change.
 */
export function testsArchive(scratch: string, commit: string, dir: string, out: string): void {
  const tree = git(scratch, ['rev-parse', `${commit}:${dir}`]).trim();
  const holder = git(scratch, ['commit-tree', tree], {
    input: 'pinned tests\n',
    env: {
      GIT_AUTHOR_NAME: 'gitbench',
      GIT_AUTHOR_EMAIL: 'bench@example.com',
      GIT_AUTHOR_DATE: '946684800 +0000',
      GIT_COMMITTER_NAME: 'gitbench',
      GIT_COMMITTER_EMAIL: 'bench@example.com',
      GIT_COMMITTER_DATE: '946684800 +0000',
    },
  }).trim();
  writeFileSync(out, gitBuf(scratch, ['archive', '--format=tar.gz', holder]));
}
