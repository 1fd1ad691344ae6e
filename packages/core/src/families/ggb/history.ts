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
export const HISTORY_LOG_ARGS = [
  'log',
  '--reverse',
  '--no-color',
  '--no-renames',
  '--no-ext-diff',
  '--format=%x1e%H%x1f%B%x1f',
  '-p',
] as const;

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
    commits.push({
      sha: sha.trim(),
      subject: message.split('\n')[0] ?? '',
      message,
      files,
      diff: diff === '' ? '' : `${diff}\n`,
    });
  }
  return commits;
}

/** A trailer line (`Token: value`, as git interpret-trailers reads them) or the note a cherry-pick -x leaves. */
const TRAILER_LINE = /^(?:[A-Za-z0-9][A-Za-z0-9-]*:\s+\S.*|\(cherry picked from commit [0-9a-f]+\))$/;
/** Author and review trailers, dropped wherever they stand: only the original's authors wrote them. */
const AUTHOR_TRAILERS = [
  'signed-off-by',
  'co-authored-by',
  'reviewed-by',
  'acked-by',
  'tested-by',
  'reported-by',
  'suggested-by',
  'helped-by',
  'cc',
  'change-id',
];
const AUTHOR_TRAILER = new RegExp(`^(?:${AUTHOR_TRAILERS.join('|')})\\s*:`, 'i');

/**
 * A commit message as the judge reads it. The original history's messages carry trailers
 * (`Signed-off-by: …`, `Co-authored-by: …`) and its authors' whitespace habits, which an agent's
 * messages seldom have, so leaving them in would tell the judge which history is the original. Both
 * histories are shown the same way: the closing trailer block and every author trailer are dropped,
 * line ends and trailing spaces are normalised and blank runs become one blank line.
 */
export function judgeMessage(message: string): string {
  const lines = message
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd());
  const paragraphs = (all: readonly string[]): string[][] => {
    const out: string[][] = [[]];
    for (const line of all) {
      if (line.trim() === '') {
        if (out.at(-1)!.length > 0) out.push([]);
      } else out.at(-1)!.push(line);
    }
    if (out.at(-1)!.length === 0) out.pop();
    return out;
  };
  const kept = paragraphs(lines);
  // The subject paragraph is never a trailer block, as git reads it; a last paragraph of trailers
  // (continuation lines start with whitespace) is.
  const last = kept.at(-1);
  if (
    kept.length > 1 &&
    last &&
    TRAILER_LINE.test(last[0]!) &&
    last.every((l) => TRAILER_LINE.test(l) || /^\s/.test(l))
  )
    kept.pop();
  // Author trailers elsewhere go too, with their continuation lines.
  const rest: string[] = [];
  let dropping = false;
  for (const line of kept.flatMap((p) => [...p, ''])) {
    dropping = AUTHOR_TRAILER.test(line) || (dropping && /^\s+\S/.test(line));
    if (!dropping) rest.push(line);
  }
  return paragraphs(rest)
    .map((p) => p.join('\n'))
    .join('\n\n');
}

/**
 * A history as the judge reads it: no commit ids (they differ between equal histories), messages through judgeMessage.
 */
export function renderHistory(commits: readonly HistoryCommit[]): string {
  if (commits.length === 0) return '(no commits)';
  return commits
    .map((c, i) =>
      [`<COMMIT-${i}>`, 'Message:', judgeMessage(c.message), '', 'Changes:', c.diff.trimEnd(), `</COMMIT-${i}>`].join(
        '\n',
      ),
    )
    .join('\n\n');
}

/** Two histories with the same messages and the same patches, in the same order. */
export function sameHistory(a: readonly HistoryCommit[], b: readonly HistoryCommit[]): boolean {
  return a.length === b.length && a.every((c, i) => c.message === b[i]!.message && c.diff === b[i]!.diff);
}
