import Link from 'next/link';
import { FAMILY_TITLES } from '@gitbench/core';
import { FamilyBoardView } from '@/components/family-board';
import { LeaderboardTable } from '@/components/leaderboard-table';
import type { DashboardFilters } from '@/lib/queries/filters';
import type { FamilyBoard } from '@/lib/queries/families';
import type { Leaderboard } from '@/lib/queries/leaderboard';

/** People's results, shown for scale under the ranking and never ranked among the models. */
export function HumanBaselines({
  board,
  filters,
  linkModels,
}: {
  board: Leaderboard;
  filters: DashboardFilters;
  linkModels: boolean;
}) {
  if (board.humans.length === 0) return null;
  return (
    <section aria-labelledby="human-baselines" className="space-y-2" data-testid="human-baselines">
      <h2 id="human-baselines" className="text-lg font-semibold">
        Human baselines
      </h2>
      <p className="max-w-3xl text-sm text-slate-600">
        People who worked fixtures themselves with <code>gitbench human</code>: the same sandbox, tools, limits and
        scoring as an agent, their time and every command recorded as a trajectory. Shown beside the models for scale,
        not ranked among them: a person works the few fixtures they chose, once.
      </p>
      <LeaderboardTable
        rows={board.humans}
        showRank={false}
        filters={filters}
        testId="human-baselines-table"
        linkModels={linkModels}
      />
    </section>
  );
}

/** Each task family with results, in its paper's own metrics, linked to the family's page. */
export function FamilyBoards({ families, filters }: { families: FamilyBoard[]; filters: DashboardFilters }) {
  if (families.length === 0) return null;
  return (
    <section aria-labelledby="families" className="space-y-4" data-testid="leaderboard-families">
      <h2 id="families" className="text-lg font-semibold">
        Task families, with their papers&apos; metrics{' '}
        <Link href="/families" className="text-sm font-normal text-indigo-700 underline">
          all family pages
        </Link>
      </h2>
      {families.map((f) => (
        <div key={f.family} className="space-y-1">
          <h3 className="text-sm font-medium">
            <Link className="hover:underline" href={`/families/${f.family}`}>
              {FAMILY_TITLES[f.family]}
            </Link>
          </h3>
          <FamilyBoardView board={f} filters={filters} detailed={false} />
        </div>
      ))}
    </section>
  );
}
