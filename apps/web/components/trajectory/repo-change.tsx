import type { RepoStepState } from '@gitbench/core';
import type { StepHead } from '@/lib/trajectory/view-model';
import { Highlighted } from './highlighted';
import { ShowAll } from './show-all';

type HeadRepo = NonNullable<StepHead['repo']>;

export const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : '∅');

/** What a step did to the repository, in one line: for the step list and the comparison. */
export function repoGist(repo: HeadRepo | null, prev: HeadRepo | null): string {
  if (!repo) return 'state not read';
  const parts: string[] = [];
  if (prev && prev.head !== repo.head) parts.push(`HEAD ${short(prev.head)}→${short(repo.head)}`);
  if (prev && prev.branch !== repo.branch) parts.push(`on ${repo.branch ?? 'detached HEAD'}`);
  if (repo.operations.length) parts.push(`${repo.operations.join('+')} in progress`);
  if (repo.conflicted) parts.push(`${repo.conflicted} conflicted`);
  if (repo.refsChanged) parts.push(`${repo.refsChanged} ref${repo.refsChanged === 1 ? '' : 's'} moved`);
  if (!parts.length && repo.diffBytes) parts.push('files changed');
  return parts.join(' · ');
}

function Chip({ label, value, tone }: { label: string; value: number; tone: 'rose' | 'slate' | 'sky' }) {
  const colours = {
    rose: 'bg-rose-100 text-rose-800',
    slate: 'bg-slate-100 text-slate-700',
    sky: 'bg-sky-100 text-sky-800',
  }[tone];
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs tabular-nums ${value ? colours : 'bg-slate-50 text-slate-400'}`}>
      {label} {value}
    </span>
  );
}

export function DiffLines({ diff }: { diff: string }) {
  return (
    <pre
      className="max-h-96 overflow-auto rounded border border-slate-200 bg-white p-2 font-mono text-[11px] leading-4"
      data-testid="step-diff"
    >
      {diff.split('\n').map((line, i) => (
        <div
          key={i}
          className={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'bg-emerald-50 text-emerald-900'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'bg-rose-50 text-rose-900'
                : line.startsWith('@@')
                  ? 'text-sky-700'
                  : line.startsWith('diff ') || line.startsWith('<<<<<<<') || line.startsWith('>>>>>>>')
                    ? 'font-semibold text-slate-900'
                    : 'text-slate-700'
          }
        >
          <Highlighted text={line || ' '} />
        </div>
      ))}
    </pre>
  );
}

/**
 * The repository after a step, against the step before: HEAD and branch moves, the status counts,
 * an operation in progress, the refs that moved and the diff. No other trajectory viewer shows how
 * the repository changed at each step, so this panel is drawn apart from the tool output.
 */
export function RepoChange({
  repo,
  prev,
  clippedDiff,
  fetchPart,
}: {
  repo: RepoStepState | null;
  prev: HeadRepo | null;
  clippedDiff: number | undefined;
  fetchPart: () => Promise<string>;
}) {
  if (!repo) {
    return (
      <div className="rounded border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900" data-testid="repo-change">
        The repository&apos;s state could not be read after this step.
      </div>
    );
  }
  const headMoved = prev !== null && prev.head !== repo.head;
  const branchMoved = prev !== null && prev.branch !== repo.branch;
  const changed =
    headMoved ||
    branchMoved ||
    repo.refsChanged.length > 0 ||
    repo.diffBytes > 0 ||
    repo.operations.length > 0 ||
    repo.conflicted > 0;
  return (
    <div
      className={
        `space-y-2 rounded border-l-4 p-2 ` +
        `text-xs ${changed ? 'border-violet-500 bg-violet-50' : 'border-slate-200 bg-slate-50'}`
      }
      data-testid="repo-change"
      aria-label="Repository after this step"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-semibold text-violet-900">Repository</span>
        <span className="font-mono" data-testid="repo-head">
          HEAD {headMoved ? <>{short(prev!.head)} → </> : null}
          <strong>{short(repo.head)}</strong>
          {headMoved ? null : <span className="text-slate-500"> (unchanged)</span>}
        </span>
        <span className="font-mono" data-testid="repo-branch">
          {branchMoved ? (
            <>
              {prev!.branch ?? 'detached'} → <strong>{repo.branch ?? 'detached HEAD'}</strong>
            </>
          ) : (
            (repo.branch ?? 'detached HEAD')
          )}
        </span>
        {repo.operations.map((op) => (
          <span
            key={op}
            className="rounded bg-amber-200 px-1.5 py-0.5 font-semibold uppercase text-amber-900"
            data-testid="repo-operation"
          >
            {op} in progress
          </span>
        ))}
        <Chip label="staged" value={repo.staged} tone="sky" />
        <Chip label="unstaged" value={repo.unstaged} tone="slate" />
        <Chip label="untracked" value={repo.untracked} tone="slate" />
        <Chip label="conflicted" value={repo.conflicted} tone="rose" />
      </div>
      {repo.refsChanged.length > 0 ? (
        <table className="font-mono" data-testid="refs-changed">
          <tbody>
            {repo.refsChanged.map((r) => (
              <tr key={r.ref}>
                <td className="pr-3">{r.ref}</td>
                <td className="pr-3 text-slate-500">{r.before === null ? 'created' : short(r.before)}</td>
                <td>
                  →{' '}
                  {r.after === null ? (
                    <span className="text-rose-700">deleted</span>
                  ) : (
                    <strong>{short(r.after)}</strong>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {repo.diffBytes > 0 ? (
        <details open={repo.diffBytes < 4_000}>
          <summary className="cursor-pointer text-slate-700">
            Diff against the step before ({repo.diffBytes.toLocaleString('en-US')} bytes
            {repo.diffTruncatedBytes ? `, ${repo.diffTruncatedBytes.toLocaleString('en-US')} cut when recorded` : ''})
          </summary>
          <ShowAll
            clippedBytes={clippedDiff}
            fetchPart={fetchPart}
            render={(text) => <DiffLines diff={text} />}
            initial={repo.diff}
            what="diff"
          />
        </details>
      ) : !changed ? (
        <p className="text-slate-500">No change to the repository.</p>
      ) : null}
    </div>
  );
}
