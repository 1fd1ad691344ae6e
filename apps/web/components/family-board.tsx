import type { ReactNode } from 'react';
import { FAMILY_TITLES, type Family } from '@gitbench/core';
import type { FamilyBoard } from '@/lib/queries/families';
import { CampaignLinks } from './campaign-links';
import { EmptyState } from './empty-state';
import { GgbTable, GistTable, RepoTaskTable } from './family-tables';

/** What each family measures, in a sentence or two, with the paper it follows. */
export const FAMILY_ABOUT: Record<Family, ReactNode> = {
  repo_task: (
    <>
      GitTaskBench&apos;s method: the agent uses a real repository to turn input files into output files, and a grader
      from the task&apos;s definition judges them afterwards with <code>{'{Process, Result, comments}'}</code>.
      Execution completion and task pass rates are over every task of the suite (a task that crashed or timed out
      counts, as failed); alpha is the mean over tasks of T × market value × quality − the run&apos;s cost.
    </>
  ),
  gist: (
    <>
      Gistify&apos;s method: the agent writes one self-contained file that reproduces what a test command does in the
      repository. Execution fidelity is over every task; the line execution rate (lines the tracer saw run) is a mean
      over the gists that ran, and the line existence rate (lines found in the original, matched by block) a mean over
      the gists that parse.
    </>
  ),
  ggb: (
    <>
      GitGoodBench&apos;s scenarios: merge conflict resolution (solved iff the tree equals the real merge
      commit&apos;s), interactive rebase and iterative committing (solved iff a pairwise judge prefers the agent&apos;s
      history in both orders). Success: the run ended without a system error, over every attempt; solve: solved, over
      every attempt the judge could decide.
    </>
  ),
};

export function FamilyBoardView({
  board,
  filters,
  detailed,
}: {
  board: FamilyBoard;
  filters: Record<string, string | undefined>;
  detailed: boolean;
}) {
  if (board.rows.length === 0) {
    return (
      <EmptyState title={`No ${FAMILY_TITLES[board.family].toLowerCase()} results yet`}>
        {board.leftOut > 0
          ? `${board.leftOut} campaign(s) with such attempts are incomplete ` +
            `or legacy and left out; tick “Include incomplete campaigns”.`
          : 'Launch a campaign over this family from the new campaign form.'}
      </EmptyState>
    );
  }
  const table =
    board.family === 'repo_task' ? (
      <RepoTaskTable rows={board.rows} filters={filters} />
    ) : board.family === 'gist' ? (
      <GistTable rows={board.rows} filters={filters} />
    ) : (
      <div className="space-y-4">
        <GgbTable rows={board.rows} filters={filters} breakdown="scenario" />
        {detailed ? <GgbTable rows={board.rows} filters={filters} breakdown="band" /> : null}
      </div>
    );
  return (
    <div className="space-y-2">
      {table}
      <p className="text-xs text-slate-500">
        Over {board.included.length} campaign{board.included.length === 1 ? '' : 's'}:{' '}
        <CampaignLinks campaigns={board.included} />
        {board.leftOut > 0 ? `; ${board.leftOut} incomplete or legacy campaign(s) left out` : ''}.
      </p>
    </div>
  );
}
