/**
 * Git histories as GitGoodBench's judge compares them: every commit's message and patch, oldest
 * first. The same command reads the original history when the suite is mined and the agent's history
 * after an attempt, so two identical histories give identical records.
 */

import { shellQuote } from '../../shell-quote';
import type { GgbCommit } from '../outcome';

/** One commit of a history, as the attempt evidence records it. */
export type HistoryCommit = GgbCommit;

const RS = '\u001e';
const US = '\u001f';

/** `git log` arguments, without the range: records separated by RS, fields by US, then the patch. */
export const HISTORY_LOG_ARGS = ['log', '--reverse', '--no-color', '--no-renames', '--no-ext-diff', '--format=%x1e%H%x1f%B%x1f', '-p'] as const;

const q = shellQuote;

/** The shell command that prints the history `base..HEAD` (only commits touching `file`, when given). */
export function historyCommand(base: string, file?: string | null): string {
  return `git ${HISTORY_LOG_ARGS.map(q).join(' ')} ${q(`${base}..HEAD`)}${file ? ` -- ${q(file)}` : ''}`;
}

export function parseHistory(stdout: string): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  for (const record of stdout.split(RS).slice(1)) {
    const [sha = '', rawMessage = '', ...rest] = record.split(US);
    const message = rawMessage.replace(/\n+$/, '');
    // Blob ids (`index` lines) are left out: their abbreviation depends on the repository's size, and
    // the judge reads changes, not object ids.
    const diff = rest
      .join(US)
      .replace(/^index [0-9a-f]+\.\.[0-9a-f]+.*\n/gm, '')
      .replace(/^\n+/, '')
      .replace(/\n+$/, '');
    const files = [...diff.matchAll(/^diff --git a\/(.*?) b\//gm)].map((m) => m[1]!);
    commits.push({ sha: sha.trim(), subject: message.split('\n')[0] ?? '', message, files, diff: diff === '' ? '' : `${diff}\n` });
  }
  return commits;
}

/** A history as the judge reads it: no commit ids (they differ between equal histories). */
export function renderHistory(commits: readonly HistoryCommit[]): string {
  if (commits.length === 0) return '(no commits)';
  return commits.map((c, i) => [`<COMMIT-${i}>`, 'Message:', c.message, '', 'Changes:', c.diff.trimEnd(), `</COMMIT-${i}>`].join('\n')).join('\n\n');
}

/** Two histories with the same messages and the same patches, in the same order. */
export function sameHistory(a: readonly HistoryCommit[], b: readonly HistoryCommit[]): boolean {
  return a.length === b.length && a.every((c, i) => c.message === b[i]!.message && c.diff === b[i]!.diff);
}
