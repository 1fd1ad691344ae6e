/**
 * Git-generated hunks of one file's diff, numbered from 1 as GitGoodBench's ICC tools number them.
 * A patch of any subset keeps the file header, so `git apply --cached` can stage exactly that subset.
 */

export interface FileDiff {
  /** The header lines up to the first `@@` (diff --git, index, ---, +++). */
  header: string;
  hunks: string[];
}

export function parseFileDiff(diff: string): FileDiff | null {
  const at = diff.search(/^@@ /m);
  if (at < 0) return null;
  const header = diff.slice(0, at);
  const body = diff.slice(at);
  const hunks = body.split(/(?=^@@ )/m).filter((h) => h.length > 0);
  return { header, hunks };
}

/** The hunks as the agent reads them: `<HUNK-n>` … `</HUNK-n>`, numbered from 1. */
export function renderHunks(hunks: readonly string[], first = 1): string {
  return hunks.map((h, i) => `<HUNK-${i + first}>\n${h.replace(/\n$/, '')}\n</HUNK-${i + first}>`).join('\n');
}

/** A patch holding only the selected hunks (1-based numbers, any order, no repeats). */
export function patchOf(diff: FileDiff, selected: readonly number[]): string {
  const sorted = [...new Set(selected)].sort((a, b) => a - b);
  return diff.header + sorted.map((n) => diff.hunks[n - 1]!).join('');
}

/**
 * A diff of several files (`git diff` output) cut into the hunks a commit can be split by, numbered from 1
 * across its files in order. A file's section with no hunk (a binary file, a mode change, an empty file
 * added) is one hunk, with an empty header.
 */
export function parseDiffFiles(diff: string): FileDiff[] {
  return diff
    .split(/(?=^diff --git )/m)
    .filter((s) => s.startsWith('diff --git '))
    .map((s) => parseFileDiff(s) ?? { header: '', hunks: [s] });
}

/**
 * The files' hunks as the agent reads them: each file's header once, then its hunks as `<HUNK-n>`, numbered across
 * files.
 */
export function renderDiffFiles(files: readonly FileDiff[]): string {
  let first = 1;
  return files
    .map((f) => {
      const text = `${f.header}${renderHunks(f.hunks, first)}`;
      first += f.hunks.length;
      return text;
    })
    .join('\n');
}

/** A patch of the selected hunks (numbers across files, from 1): each file's header with its selected hunks. */
export function patchOfFiles(files: readonly FileDiff[], selected: readonly number[]): string {
  let first = 1;
  return files
    .map((f) => {
      const mine = selected.filter((n) => n >= first && n < first + f.hunks.length).map((n) => n - first + 1);
      first += f.hunks.length;
      return mine.length === 0 ? '' : patchOf(f, mine);
    })
    .join('');
}
