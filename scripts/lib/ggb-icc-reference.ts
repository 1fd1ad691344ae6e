import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFileDiff, patchOf, type FileDiff } from '../../packages/core/src/families/ggb/hunks';
import { git } from './history-mining';

/** One call of a scenario's own tools, as fixtures store it in `scoring.reference_tool_calls`. */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** Every subset of 1..n, smallest first. */
function* subsets(n: number): Generator<number[]> {
  for (let size = 1; size <= n; size++) {
    const pick = (start: number, left: number, acc: number[]): number[][] =>
      left === 0
        ? [acc]
        : Array.from({ length: n - start + 1 - left + 1 }, (_, k) => start + k).flatMap((i) =>
            pick(i + 1, left - 1, [...acc, i]),
          );
    yield* pick(1, size, []);
  }
}

/** A hunk header's old-side lines: [first, last], or for a pure insertion after line `a`, [a + 0.5, a + 0.5]. */
function oldRange(header: string): [number, number] {
  const m = /^@@ -(\d+)(?:,(\d+))? /.exec(header);
  if (!m) throw new Error(`not a hunk header: ${header.slice(0, 60)}`);
  const start = Number(m[1]);
  const count = m[2] === undefined ? 1 : Number(m[2]);
  return count === 0 ? [start + 0.5, start + 0.5] : [start, start + count - 1];
}

/**
 * The remaining hunks (numbered from 1) that hold any line the commit changes: its changes are read
 * without context (`-U0`) between the file as staged so far and the commit's version, and a hunk is
 * chosen when one of them falls within the hunk's span (context included).
 */
function hunksTouched(wt: string, env: Record<string, string>, diff: FileDiff, staged: string, want: string): number[] {
  const changes = git(wt, ['diff', '-U0', '--no-color', '--no-ext-diff', staged, want], { env })
    .split('\n')
    .filter((l) => l.startsWith('@@ '))
    .map(oldRange);
  return diff.hunks.flatMap((hunk, i) => {
    const [from, to] = oldRange(hunk);
    return changes.some(([a, b]) => a <= to + 0.5 && b >= from - 0.5) ? [i + 1] : [];
  });
}

/**
 * The original commits through the ggb-icc tools (for the oracle agent). For each commit, the hunks of
 * what is left whose staging gives exactly that commit's version of the file. Where no such choice
 * exists (a hunk mixes two commits' changes: Git's hunks join changes a few lines apart) or there are
 * too many hunks to search, the hunks that hold any of the commit's changes go with it, so a mixed
 * hunk is committed with the first commit that touches it and a commit left with no hunk of its own is
 * folded into a later one. Every change is committed either way, which is all the checks before the
 * judge ask; the history is the original one as far as the tools can express it.
 */
export function iccReferenceCalls(
  scratch: string,
  base: string,
  commits: string[],
  file: string,
  messages: string[],
): ToolCall[] {
  const wt = mkdtempSync(join(tmpdir(), 'ggb-icc-'));
  const index = join(wt, '..', `${wt.split('/').pop()}.index`);
  try {
    git(scratch, ['worktree', 'add', '-q', '--detach', wt, commits.at(-1)!]);
    const env = { GIT_INDEX_FILE: index };
    git(wt, ['read-tree', base], { env });
    const calls: ToolCall[] = [];
    for (const [i, c] of commits.entries()) {
      const diff = parseFileDiff(git(wt, ['diff', '--no-color', '--no-ext-diff', '--', file], { env }));
      if (!diff) continue;
      const want = git(scratch, ['rev-parse', `${c}:${file}`]).trim();
      let found: number[] | null = null;
      if (diff.hunks.length <= 10) {
        for (const choice of subsets(diff.hunks.length)) {
          const trial = `${index}.trial`;
          writeFileSync(trial, readFileSync(index));
          const applied = git(wt, ['apply', '--cached', '-'], {
            env: { GIT_INDEX_FILE: trial },
            input: patchOf(diff, choice),
            allowFail: true,
          });
          if (
            !applied.startsWith('\u0000EXIT') &&
            git(wt, ['rev-parse', `:${file}`], { env: { GIT_INDEX_FILE: trial } }).trim() === want
          ) {
            found = choice;
            break;
          }
        }
      }
      const exact = found !== null;
      found ??= hunksTouched(wt, env, diff, git(wt, ['rev-parse', `:${file}`], { env }).trim(), want);
      if (found.length === 0) continue;
      git(wt, ['apply', '--cached', '-'], { env, input: patchOf(diff, found) });
      const reason = exact
        ? 'reproduce the original commit'
        : 'the original commit, with the hunks that hold its changes (a hunk may hold a later commit’s too)';
      calls.push({ name: 'commit_changes_in', args: { selected_hunks: found, commit_message: messages[i]!, reason } });
    }
    calls.push({
      name: 'commit_remaining_changes',
      args: { commit_message: 'Remaining changes outside the target file', reason: 'commit what is left' },
    });
    return calls;
  } finally {
    git(scratch, ['worktree', 'remove', '--force', wt], { allowFail: true });
    rmSync(wt, { recursive: true, force: true });
    rmSync(index, { force: true });
    rmSync(`${index}.trial`, { force: true });
  }
}
