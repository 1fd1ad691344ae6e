/** A throwaway repository for the miner's tests, with a way to write a commit of given files without a work tree. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../lib/history-mining';

/** Fixed identities and dates, so that the same files and parents always give the same commit. */
export const IDENTITY_ENV = {
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@x',
  GIT_AUTHOR_DATE: '946684800 +0000',
  GIT_COMMITTER_NAME: 'c',
  GIT_COMMITTER_EMAIL: 'c@x',
  GIT_COMMITTER_DATE: '946771200 +0000',
};

/** A new repository under the system's temporary directory (added to `dirs`, for the test to remove). */
export function scratchGit(dirs: string[], prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  git(dir, ['init', '-q', '-b', 'main']);
  const commit = (files: Record<string, string>, parents: string[], message: string) => {
    const index = join(dir, '.git', 'test-index');
    rmSync(index, { force: true });
    for (const [path, text] of Object.entries(files)) {
      const blob = git(dir, ['hash-object', '-w', '--stdin'], { input: text }).trim();
      git(dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { env: { GIT_INDEX_FILE: index } });
    }
    const tree = git(dir, ['write-tree'], { env: { GIT_INDEX_FILE: index } }).trim();
    return git(dir, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])], {
      input: message,
      env: IDENTITY_ENV,
    }).trim();
  };
  return { dir, commit };
}
