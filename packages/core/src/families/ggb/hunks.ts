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
export function renderHunks(hunks: readonly string[]): string {
  return hunks.map((h, i) => `<HUNK-${i + 1}>\n${h.replace(/\n$/, '')}\n</HUNK-${i + 1}>`).join('\n');
}

/** A patch holding only the selected hunks (1-based numbers, any order, no repeats). */
export function patchOf(diff: FileDiff, selected: readonly number[]): string {
  const sorted = [...new Set(selected)].sort((a, b) => a - b);
  return diff.header + sorted.map((n) => diff.hunks[n - 1]!).join('');
}
